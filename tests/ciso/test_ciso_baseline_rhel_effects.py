"""RHEL 9 controls stated by their effect, not by a key: the baseline finds the setting that
produces the effect and judges hosts as the daemon or tool reads its configuration (PAM arguments
over faillock.conf, journald drop-ins in name order with /etc hiding /usr/lib, chrony's confdir
and sourcedir, sudoers.d files sudo skips, modprobe's first install rule, systemd-sysctl's file
order). Each host goes through the real class (ansible-playbook in the sandbox, then Rego); each
text and host is written for this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, judged_hosts

pytestmark = [needs_sandbox, pytest.mark.slow]

_STACK = (
    "auth        required      pam_env.so\n"
    "auth        required      pam_faillock.so preauth silent{pre}\n"
    "auth        sufficient    pam_unix.so nullok\n"
    "auth        [default=die] pam_faillock.so authfail{fail}\n"
    "auth        required      pam_deny.so\n"
    "account     required      pam_faillock.so\n"
)


def _stack(pre: str = "", fail: str = "") -> str:
    return _STACK.format(pre=pre, fail=fail)


def test_an_account_locked_after_wrong_passwords_with_pam_arguments_over_the_file(
    tmp_path: Path,
) -> None:
    text = (
        "Someone guessing passwords must be stopped: after four wrong passwords in a row the "
        "account is locked, and it remains locked for no less than twenty minutes; an account "
        "that never unlocks by itself is fine too."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the file is right, but the sshd stack's lines pass a shorter lock
        violating={
            "etc/security/faillock.conf": "deny = 3\nunlock_time = 1800\n",
            "etc/pam.d/system-auth": _stack(),
            "etc/pam.d/password-auth": _stack(" unlock_time=600", " unlock_time=600"),
        },
        # unset deny is faillock's 3; "never" is accepted; a commented value and an .rpmnew
        # file are not read; an argument that is no setting ("audit") changes nothing
        compliant={
            "etc/security/faillock.conf": "# deny = 10\nunlock_time = never\n",
            "etc/security/faillock.conf.rpmnew": "deny = 9\nunlock_time = 60\n",
            "etc/pam.d/system-auth": _stack(" audit"),
            "etc/pam.d/password-auth": _stack("", " deny=4"),
        },
    )
    assert verdicts == JUDGED


def test_addresses_randomised_over_the_sysctl_files_read_at_boot(tmp_path: Path) -> None:
    text = (
        "Where a program's stack, libraries and heap land in memory must be chosen at random "
        "each time it starts, and this must still be so after the next boot."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the vendor file sorts after the local one: its 1 (heap not randomised) is in force
        violating={
            "etc/sysctl.d/20-hardening.conf": "kernel.randomize_va_space = 2\n",
            "usr/lib/sysctl.d/90-db-vendor.conf": "kernel.randomize_va_space = 1\n",
        },
        # a same-named file in /etc hides the vendor's; a ;-comment is no setting
        compliant={
            "usr/lib/sysctl.d/90-db-vendor.conf": "kernel.randomize_va_space = 1\n",
            "etc/sysctl.d/90-db-vendor.conf": "; kernel.randomize_va_space = 0\n"
            "kernel.randomize_va_space=2\n",
        },
    )
    assert verdicts == JUDGED


def test_seldom_used_protocols_never_loaded_by_the_first_install_rule(tmp_path: Path) -> None:
    text = (
        "Kernel support for seldom used network protocols must never be loaded, neither on "
        "demand nor automatically; a blacklist line alone does not meet this."
    )
    loaded_nowhere = "install dccp /bin/true\ninstall sctp /bin/false\ninstall rds /bin/false\n"
    verdicts = judged_hosts(
        tmp_path,
        text,
        # tipc is only blacklisted
        violating={"etc/modprobe.d/protocols.conf": loaded_nowhere + "blacklist tipc\n"},
        # tipc's rule lives in a vendor file; /usr/bin is /bin; no blacklist line is needed
        compliant={
            "etc/modprobe.d/protocols.conf": loaded_nowhere,
            "usr/lib/modprobe.d/tipc.conf": "install tipc /usr/bin/false\n",
        },
    )
    assert verdicts == JUDGED


def test_clocks_set_only_from_the_named_sources_in_every_file_chronyd_reads(
    tmp_path: Path,
) -> None:
    text = (
        "Clocks must be set only from time.corp.example.net and 10.20.30.40: chronyd may be "
        "given no other server, pool or peer."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # a pool in a sources file of the sourcedir
        violating={
            "etc/chrony.conf": "server time.corp.example.net iburst\n"
            "sourcedir /etc/chrony/sources.d\n",
            "etc/chrony/sources.d/cloud.sources": "pool 2.rhel.pool.ntp.org iburst\n",
        },
        # commented sources, a file confdir does not read (not *.conf), serving time to others
        compliant={
            "etc/chrony.conf": "! pool 2.rhel.pool.ntp.org iburst\n# server 192.0.2.1\n"
            "server 10.20.30.40 iburst\nconfdir /etc/chrony.d\nallow 10.0.0.0/8\n",
            "etc/chrony.d/corp.conf": "server time.corp.example.net iburst\n",
            "etc/chrony.d/old.conf.off": "pool pool.ntp.org\n",
        },
    )
    assert verdicts == JUDGED


def test_the_journal_kept_after_a_restart_and_compressed_over_its_drop_ins(
    tmp_path: Path,
) -> None:
    text = (
        "Journal entries must still be there after the machine restarts, and the journal "
        "must be compressed on disk."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # a later drop-in turns persistence off again
        violating={
            "etc/systemd/journald.conf": "[Journal]\nStorage=persistent\n",
            "etc/systemd/journald.conf.d/50-tmpfs.conf": "[Journal]\nStorage=volatile\n",
        },
        # an /etc drop-in hides the vendor's of the same name; a later drop-in wins; booleans
        # in any case; a commented key and a key of another section are no setting
        compliant={
            "etc/systemd/journald.conf": "[Journal]\n#Storage=persistent\nStorage=volatile\n",
            "usr/lib/systemd/journald.conf.d/10-vendor.conf": "[Journal]\nCompress=no\n",
            "etc/systemd/journald.conf.d/10-vendor.conf": "[Journal]\nCompress=YES\n",
            "etc/systemd/journald.conf.d/60-keep.conf": "[Journal]\nStorage=persistent\n"
            "[Other]\nStorage=none\n",
        },
    )
    assert verdicts == JUDGED


def test_sudo_in_a_pseudo_terminal_for_every_user_and_its_own_log(tmp_path: Path) -> None:
    text = (
        "Whatever is run through sudo must get a pseudo-terminal of its own, whoever runs it, "
        "and sudo must write its own log to /var/log/sudo-commands.log."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # one user is exempted from the pseudo-terminal in an included file
        violating={
            "etc/sudoers": "Defaults use_pty\n#includedir /etc/sudoers.d\n",
            "etc/sudoers.d/20-logs": 'Defaults logfile="/var/log/sudo-commands.log"\n',
            "etc/sudoers.d/30-backup": "Defaults:backup !use_pty\n",
        },
        # sudo skips a backup file (~) and a name with a dot; "# Defaults" is a comment
        compliant={
            "etc/sudoers": "Defaults    env_reset, use_pty\n# Defaults !use_pty\n"
            "@includedir /etc/sudoers.d\n",
            "etc/sudoers.d/20-logs": "Defaults logfile=/var/log/sudo-commands.log\n",
            "etc/sudoers.d/30-backup~": "Defaults:backup !use_pty\n",
            "etc/sudoers.d/old.conf": "Defaults !use_pty\n",
        },
    )
    assert verdicts == JUDGED


_PASSWORD_STACK = (
    "password    requisite     pam_pwquality.so local_users_only{args}\n"
    "password    sufficient    pam_unix.so sha512 shadow use_authtok\n"
)


def test_new_passwords_mixed_and_different_with_pam_arguments_over_the_file(
    tmp_path: Path,
) -> None:
    text = (
        "Every new password must mix at least three kinds of characters and must differ from "
        "the old one in at least 5 characters."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the file is right, but one stack's line asks for two kinds only
        violating={
            "etc/security/pwquality.conf": "minclass = 3\ndifok = 5\n",
            "etc/pam.d/system-auth": _PASSWORD_STACK.format(args=""),
            "etc/pam.d/password-auth": _PASSWORD_STACK.format(args=" minclass=2"),
        },
        compliant={
            "etc/security/pwquality.conf": "# minclass = 1\nminclass = 4\ndifok = 5\n",
            "etc/pam.d/system-auth": _PASSWORD_STACK.format(args=" retry=3"),
            "etc/pam.d/password-auth": _PASSWORD_STACK.format(args=" difok=6"),
        },
    )
    assert verdicts == JUDGED


def test_timesyncd_servers_over_its_drop_ins(tmp_path: Path) -> None:
    text = "systemd-timesyncd must take the time only from ntp.corp.example.org."
    verdicts = judged_hosts(
        tmp_path,
        text,
        # a drop-in adds a second server to the list
        violating={
            "etc/systemd/timesyncd.conf": "[Time]\nNTP=ntp.corp.example.org\n",
            "etc/systemd/timesyncd.conf.d/cloud.conf": "[Time]\nNTP=169.254.169.123\n",
        },
        # an empty assignment clears the vendor's list; the fallback is not used while NTP=
        # names a server; a commented server is none
        compliant={
            "etc/systemd/timesyncd.conf": "[Time]\n#NTP=pool.ntp.org\nFallbackNTP=time.example.org\n",
            "usr/lib/systemd/timesyncd.conf.d/10-vendor.conf": "[Time]\nNTP=0.pool.ntp.org\n",
            "etc/systemd/timesyncd.conf.d/20-corp.conf": "[Time]\nNTP=\nNTP=ntp.corp.example.org\n",
        },
    )
    assert verdicts == JUDGED
