"""RHEL 9 settings no concept table names: kernel parameters described by what the kernel refuses,
sudo's credential cache, pam_faillock flags and root's own lock time, auditd's threshold actions,
sshd's MACs and MaxStartups fields. Each host goes through the real class (ansible-playbook in the
sandbox, then Rego): a violating host hides the violation in a drop-in or a later file, a compliant
one carries the near misses (a masking file, a skipped file name, a comment, a Match block, case).
Each text and host is written for this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, judged_hosts

pytestmark = [needs_sandbox, pytest.mark.slow]


def test_sticky_directory_links_and_pipes_over_every_sysctl_directory(tmp_path: Path) -> None:
    text = (
        "In directories anyone may write to that have the sticky bit set, such as /var/tmp, no "
        "process may follow a symlink planted there by another user, and nobody may write into a "
        "FIFO there that another user owns. Judge what the sysctl files read at boot set."
    )
    base = "fs.protected_symlinks = 1\nfs.protected_fifos = 1\n"
    # the host's own vendor file (the sandbox shows only the host tree's files in the sysctl
    # folders: tests/sandbox/test_sandbox_host_owned.py)
    vendor = {"usr/lib/sysctl.d/50-default.conf": "kernel.sysrq = 16\n"}
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the /run drop-in sorts after the local file and turns the pipe protection off
        violating={
            **vendor,
            "etc/sysctl.d/10-base.conf": base,
            "run/sysctl.d/99-zz-queue.conf": "fs/protected_fifos = 0\n",
        },
        # a same-named empty file in /etc masks the /run drop-in; a commented 0; 2 is stricter;
        # another key of the family (regular files) is not judged
        compliant={
            **vendor,
            "etc/sysctl.d/10-base.conf": base + "# fs.protected_symlinks = 0\n",
            "run/sysctl.d/99-zz-queue.conf": "fs/protected_fifos = 0\n",
            "etc/sysctl.d/99-zz-queue.conf": "",
            "etc/sysctl.d/99-zz-strict.conf": "fs.protected_fifos=2\nfs.protected_regular = 0\n",
        },
    )
    assert verdicts == JUDGED


_SUDOERS = "Defaults    env_reset\n{defaults}root    ALL=(ALL)   ALL\n#includedir /etc/sudoers.d\n"


def test_sudo_credential_cache_scoped_defaults_and_skipped_drop_ins(tmp_path: Path) -> None:
    text = (
        "Once someone has typed their password for sudo, the cached credentials must stop being "
        "honoured after at most 10 minutes, for every user; a cache that never expires fails."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the main file is fine, a drop-in gives one group a cache that never expires
        violating={
            "etc/sudoers": _SUDOERS.format(defaults="Defaults    timestamp_timeout=3\n"),
            "etc/sudoers.d/40-batch": "Defaults:%batch timestamp_timeout=-1\n",
        },
        # a later drop-in lowers the main file's 30; sudo skips a name ending in ~; a comment
        compliant={
            "etc/sudoers": _SUDOERS.format(
                defaults="Defaults    timestamp_timeout=30\n# Defaults timestamp_timeout=-1\n"
            ),
            "etc/sudoers.d/40-batch~": "Defaults:%batch timestamp_timeout=-1\n",
            "etc/sudoers.d/90-final": "Defaults timestamp_timeout = 8\n",
        },
    )
    assert verdicts == JUDGED


_STACK = (
    "auth        required      pam_env.so\n"
    "auth        required      pam_faillock.so preauth silent{pre}\n"
    "auth        sufficient    pam_unix.so nullok\n"
    "auth        [default=die] pam_faillock.so authfail{fail}\n"
    "auth        required      pam_deny.so\n"
)


def test_faillock_flag_present_per_stack_and_roots_own_lock_time(tmp_path: Path) -> None:
    text = (
        "The pam_faillock lockout must also cover the superuser: its even_deny_root option must "
        "be present for both system-auth and password-auth, and when root is locked it must "
        "remain locked for at least 120 seconds. The number of failures tolerated is another "
        "control."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the flag only commented in the file and absent from password-auth's lines, whose
        # authfail line also unlocks root after 30 seconds
        violating={
            "etc/security/faillock.conf": "deny = 4\n# even_deny_root\n",
            "etc/pam.d/system-auth": _STACK.format(pre=" even_deny_root", fail=" even_deny_root"),
            "etc/pam.d/password-auth": _STACK.format(pre="", fail=" root_unlock_time=30"),
        },
        # the flag in the file covers both stacks; root's time unset (it is unlock_time's); a
        # commented short time; deny = 12 is the other control's business
        compliant={
            "etc/security/faillock.conf": "deny = 12\neven_deny_root\nunlock_time = 900\n",
            "etc/pam.d/system-auth": _STACK.format(pre="", fail=""),
            "etc/pam.d/password-auth": "#auth required pam_faillock.so authfail root_unlock_time=5\n"
            + _STACK.format(pre="", fail=""),
        },
    )
    assert verdicts == JUDGED


def test_auditd_threshold_actions_read_case_insensitively(tmp_path: Path) -> None:
    text = (
        "When the audit partition runs short, auditd must react: at the space_left threshold it "
        "must email or exec (syslog alone does not suffice), and at the admin_space_left "
        "threshold it must halt."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the second action only commented: auditd suspends logging
        violating={
            "etc/audit/auditd.conf": "space_left = 100\nspace_left_action = email\n"
            "admin_space_left = 50\n# admin_space_left_action = halt\n",
        },
        # upper case values; an .rpmsave copy with bad ones is not read
        compliant={
            "etc/audit/auditd.conf": "space_left_action = EMAIL\nadmin_space_left_action=HALT\n",
            "etc/audit/auditd.conf.rpmsave": "space_left_action = SYSLOG\n"
            "admin_space_left_action = SUSPEND\n",
        },
    )
    assert verdicts == JUDGED


_SSHD_MAIN = (
    "Include /etc/ssh/sshd_config.d/*.conf\n"
    "MACs hmac-sha2-512-etm@openssh.com,hmac-sha2-256\n"
    "MaxStartups 5:30:40\n"
)


def test_sshd_macs_list_and_max_startups_fields_first_value_wins(tmp_path: Path) -> None:
    text = (
        "sshd must offer no MD5 or SHA-1 based message authentication codes, and it must begin "
        "dropping unauthenticated connections at no more than 5 pending and drop every one at "
        "no more than 40 pending."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # drop-ins read before the main file: SHA-1 added, all dropped only at 100
        violating={
            "etc/ssh/sshd_config": _SSHD_MAIN,
            "etc/ssh/sshd_config.d/10-legacy.conf": "MACs hmac-sha2-256,hmac-sha1\n",
            "etc/ssh/sshd_config.d/20-ci.conf": "maxstartups 5:50:100\n",
        },
        # a file sshd does not include; a single number is every field; a commented MD5 list;
        # a Match block sets nothing judged here
        compliant={
            "etc/ssh/sshd_config": _SSHD_MAIN + "Match Address 10.0.0.0/8\n    X11Forwarding no\n",
            "etc/ssh/sshd_config.d/10-legacy.conf.disabled": "MACs hmac-sha2-256,hmac-sha1\n",
            "etc/ssh/sshd_config.d/20-ci.conf": "# MACs hmac-md5\nMaxStartups 4\n",
        },
    )
    assert verdicts == JUDGED


# ---- keys the text spells as the file does, of a family the collector knows --------------------


def test_named_faillock_flag_and_interval_with_no_deny_bound(tmp_path: Path) -> None:
    text = (
        "/etc/security/faillock.conf must contain even_deny_root, and fail_interval must be at "
        "least 900 seconds."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the flag only in a comment
        violating={"etc/security/faillock.conf": "# even_deny_root\nfail_interval = 900\n"},
        # deny = 20 is judged by no bound here; the flag with spaces around it
        compliant={
            "etc/security/faillock.conf": "deny = 20\n  even_deny_root  \nfail_interval=1800\n"
        },
    )
    assert verdicts == JUDGED


def test_named_auditd_action_one_of_words_in_any_case(tmp_path: Path) -> None:
    text = "In auditd.conf, disk_full_action must be halt or single."
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the last value wins
        violating={
            "etc/audit/auditd.conf": "disk_full_action = HALT\ndisk_full_action = suspend\n"
        },
        compliant={
            "etc/audit/auditd.conf": "disk_full_action = suspend\ndisk_full_action = Single\n"
        },
    )
    assert verdicts == JUDGED


def test_named_sudo_timeout_negative_never_expires(tmp_path: Path) -> None:
    text = "In sudoers, Defaults passwd_timeout must be at most 2 (sudo's password prompt)."
    verdicts = judged_hosts(
        tmp_path,
        text,
        # a negative timeout never expires
        violating={"etc/sudoers": _SUDOERS.format(defaults="Defaults passwd_timeout=-1\n")},
        compliant={"etc/sudoers": _SUDOERS.format(defaults="Defaults passwd_timeout = 1\n")},
    )
    assert verdicts == JUDGED


def test_named_max_startups_triple_first_value_wins(tmp_path: Path) -> None:
    text = "In the SSH server configuration, MaxStartups must be 10:30:60 or stricter."
    main = "Include /etc/ssh/sshd_config.d/*.conf\nMaxStartups 10:30:60\n"
    verdicts = judged_hosts(
        tmp_path,
        text,
        # a drop-in, read first, raises the full field
        violating={
            "etc/ssh/sshd_config": main,
            "etc/ssh/sshd_config.d/30-ci.conf": "MaxStartups 10:30:200\n",
        },
        # a stricter triple read first; a commented looser one
        compliant={
            "etc/ssh/sshd_config": main,
            "etc/ssh/sshd_config.d/30-ci.conf": "#MaxStartups 100\nMaxStartups 5:50:30\n",
        },
    )
    assert verdicts == JUDGED


def test_a_spelled_sysctl_key_beside_a_described_effect_is_judged_too(tmp_path: Path) -> None:
    text = (
        "Where a program's stack and libraries land in memory must be chosen at random, and "
        "vm.mmap_min_addr must be 65536 or more, both as the sysctl files set them at boot."
    )
    vendor = {"usr/lib/sysctl.d/10-vendor.conf": "kernel.randomize_va_space = 2\n"}
    verdicts = judged_hosts(
        tmp_path,
        text,
        # randomisation is right; the spelled key is lowered by a later local file
        violating={**vendor, "etc/sysctl.d/99-zz-emulator.conf": "vm.mmap_min_addr=4096\n"},
        compliant={**vendor, "etc/sysctl.d/99-zz-emulator.conf": "vm.mmap_min_addr = 131072\n"},
    )
    assert verdicts == JUDGED
