"""RHEL 9 controls of kinds the baseline had no reader for: systemd's manager and logind settings
(main file, then drop-ins, a key's documented default when unset), useradd's defaults for new
accounts, and system tables judged row by row (account tables: which rows hold id 0, duplicate
ids, empty password fields; lists of one entry per line such as /etc/shells). Each host goes
through the real class (ansible-playbook in the sandbox, then Rego); each text and host is written
for this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, judged_hosts

pytestmark = [needs_sandbox, pytest.mark.slow]

_MANAGER = "[Manager]\n#LogLevel=info\n{body}"


def test_manager_setting_overridden_by_a_later_drop_in(tmp_path: Path) -> None:
    text = (
        "Hammering the reboot key chord many times in a row must do nothing: systemd's "
        "CtrlAltDelBurstAction should end up as none."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the main file says none, a vendor drop-in in /usr/lib sorts later and overrides it
        violating={
            "etc/systemd/system.conf": _MANAGER.format(body="CtrlAltDelBurstAction=none\n"),
            "usr/lib/systemd/system.conf.d/70-kiosk.conf": (
                "[Manager]\nCtrlAltDelBurstAction =  poweroff-force\n"
            ),
        },
        # only a commented default in the main file (unset is reboot-force); the fix in /etc
        compliant={
            "etc/systemd/system.conf": _MANAGER.format(
                body="#CtrlAltDelBurstAction=reboot-force\n"
            ),
            "etc/systemd/system.conf.d/80-local.conf": "[Manager]\nCtrlAltDelBurstAction=none\n",
        },
    )
    assert verdicts == JUDGED


def test_manager_key_unset_is_judged_by_its_default(tmp_path: Path) -> None:
    text = "The service manager must not write core dumps of itself: DumpCore must be set to no."
    verdicts = judged_hosts(
        tmp_path,
        text,
        # unset: systemd dumps core (yes); a key of another section does not count
        violating={
            "etc/systemd/system.conf": _MANAGER.format(body="#DumpCore=no\n"),
            "etc/systemd/system.conf.d/10-other.conf": "[Install]\nDumpCore=no\n",
        },
        compliant={
            "etc/systemd/system.conf": _MANAGER.format(body=""),
            "etc/systemd/system.conf.d/10-crash.conf": "[Manager]\nDumpCore = no\n",
        },
    )
    assert verdicts == JUDGED


def test_logind_key_whose_default_complies(tmp_path: Path) -> None:
    text = "systemd-logind must remove the IPC objects of users who log out: RemoveIPC must be yes."
    verdicts = judged_hosts(
        tmp_path,
        text,
        violating={
            "etc/systemd/logind.conf": "[Login]\n#RemoveIPC=yes\n",
            "etc/systemd/logind.conf.d/50-db.conf": "[Login]\nRemoveIPC=no\n",
        },
        # no assignment anywhere: logind removes them
        compliant={"etc/systemd/logind.conf": "[Login]\n#RemoveIPC=no\n#KillUserProcesses=no\n"},
    )
    assert verdicts == JUDGED


def test_useradd_default_for_new_accounts_never_below_zero(tmp_path: Path) -> None:
    text = (
        "Accounts that useradd creates must be disabled no later than 21 days after their "
        "password expires: set INACTIVE in /etc/default/useradd to 21 or less."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # a commented compliant line, then the active "never"
        violating={
            "etc/default/useradd": "GROUP=100\n#INACTIVE=20\nINACTIVE=-1\nSHELL=/bin/bash\n"
        },
        compliant={"etc/default/useradd": "GROUP=100\nINACTIVE=14  # -1 would never lock\n"},
    )
    assert verdicts == JUDGED


_PASSWD = (
    "root:x:0:0:root:/root:/bin/bash\n"
    "bin:x:1:1:bin:/bin:/sbin/nologin\n"
    "halt:x:7:0:halt:/sbin:/sbin/halt\n"
    "{extra}"
    "deploy:x:1001:1001::/home/deploy:/bin/bash\n"
)


def test_only_root_holds_user_id_zero(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "No login other than root may carry user id 0.",
        violating={"etc/passwd": _PASSWD.format(extra="breakglass:x:0:1002::/home/bg:/bin/bash\n")},
        # a primary group of 0 (halt) and an account with that name but another id are fine
        compliant={"etc/passwd": _PASSWD.format(extra="breakglass:x:1002:0::/home/bg:/bin/bash\n")},
    )
    assert verdicts == JUDGED


def test_only_root_group_holds_group_id_zero(tmp_path: Path) -> None:
    groups = "root:x:0:\nbin:x:1:\nwheel:x:10:deploy\n{extra}"
    verdicts = judged_hosts(
        tmp_path,
        "Only the root group may have GID 0 in /etc/group.",
        violating={"etc/group": groups.format(extra="ops:x:0:deploy\n")},
        compliant={"etc/group": groups.format(extra="# ops:x:0:deploy\nops:x:1005:deploy\n")},
    )
    assert verdicts == JUDGED


def test_user_ids_are_unique(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "User IDs in /etc/passwd must be unique.",
        violating={"etc/passwd": _PASSWD.format(extra="deploy2:x:1001:1001::/home/d2:/bin/bash\n")},
        # the same GID on two accounts is no duplicate UID
        compliant={"etc/passwd": _PASSWD.format(extra="deploy2:x:1003:1001::/home/d2:/bin/bash\n")},
    )
    assert verdicts == JUDGED


def test_no_empty_password_field(tmp_path: Path) -> None:
    shadow = "root:$6$salt$hash:19700:0:99999:7:::\n{extra}bin:*:19700:0:99999:7:::\n"
    verdicts = judged_hosts(
        tmp_path,
        "No account in /etc/shadow may have an empty password field.",
        violating={"etc/shadow": shadow.format(extra="kiosk::19700:0:99999:7:::\n")},
        # locked (!!) and disabled (*) are not empty
        compliant={"etc/shadow": shadow.format(extra="kiosk:!!:19700:0:99999:7:::\n")},
    )
    assert verdicts == JUDGED


def test_entry_not_listed_by_any_path(tmp_path: Path) -> None:
    shells = "/bin/sh\n/bin/bash\n{extra}/usr/bin/zsh\n"
    verdicts = judged_hosts(
        tmp_path,
        "The false program must never be listed in /etc/shells.",
        # listed by another path than the usual one, with surrounding blanks
        violating={"etc/shells": shells.format(extra="  /usr/bin/false  \n")},
        # named only in a comment; a shell whose name merely contains it
        compliant={
            "etc/shells": shells.format(extra="# /bin/false is not a shell\n/bin/falsefish\n")
        },
    )
    assert verdicts == JUDGED


_FSTAB = (
    "# /etc/fstab, written by the installer\n"
    "/dev/mapper/vg-root  /        xfs   defaults  0 0\n"
    "/dev/mapper/vg-vtmp  /var/tmp xfs   {vartmp}  0 0\n"
    "{extra}"
)


def test_mount_options_every_line_of_the_mount_point(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "Programs must never run from /var/tmp: mount it with noexec and nosuid in /etc/fstab.",
        # a commented line carries both; the active one lacks noexec
        violating={
            "etc/fstab": _FSTAB.format(
                vartmp="defaults,nosuid", extra="#x /var/tmp xfs noexec,nosuid 0 0\n"
            )
        },
        # another order, tab separators; / lacks them (not named)
        compliant={"etc/fstab": _FSTAB.format(vartmp="nosuid,rw,noexec\t", extra="")},
    )
    assert verdicts == JUDGED


def test_mount_options_of_a_mount_point_fstab_lacks(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "The /var/tmp partition must be mounted nodev.",
        # no line mounts /var/tmp at all: nothing sets nodev
        violating={
            "etc/fstab": "/dev/sda1 / xfs defaults 0 0\n/dev/sda2 /var/tmpfiles xfs nodev 0 0\n"
        },
        compliant={"etc/fstab": _FSTAB.format(vartmp="nodev", extra="")},
    )
    assert verdicts == JUDGED


def test_mail_daemon_parameter_last_assignment_and_default(tmp_path: Path) -> None:
    text = "Postfix must refuse the VRFY command: disable_vrfy_command should be yes."
    verdicts = judged_hosts(
        tmp_path,
        text,
        # set, then reset later in the file (the last assignment wins)
        violating={
            "etc/postfix/main.cf": "disable_vrfy_command = yes\nmyhostname = mx1\n"
            "disable_vrfy_command=no\n"
        },
        compliant={"etc/postfix/main.cf": "#disable_vrfy_command = no\ndisable_vrfy_command=yes\n"},
    )
    assert verdicts == JUDGED
    # unset: postfix answers VRFY (the default is no)
    unset = judged_hosts(
        tmp_path / "unset",
        text,
        violating={"etc/postfix/main.cf": "myhostname = mx1\n"},
        compliant={"etc/postfix/main.cf": "disable_vrfy_command = YES\n"},
    )
    assert unset == JUDGED


_ENTRY = "title Red Hat Enterprise Linux ({v})\nversion {v}\nlinux /vmlinuz-{v}\noptions {o}\n"


def test_kernel_argument_on_every_boot_entry(tmp_path: Path) -> None:
    text = (
        "Processes that start before auditd must be audited: every boot entry's kernel command "
        "line must carry audit=1."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the newer entry has it; the older one takes $kernelopts from grubenv, which lacks it
        violating={
            "boot/loader/entries/a-5.14.0-70.conf": _ENTRY.format(v="5.14.0-70", o="$kernelopts"),
            "boot/loader/entries/a-5.14.0-90.conf": _ENTRY.format(
                v="5.14.0-90", o="root=/dev/vg/root ro audit=1"
            ),
            "boot/grub2/grubenv": "# GRUB Environment Block\nkernelopts=root=/dev/vg/root ro quiet\n",
            "etc/default/grub": 'GRUB_CMDLINE_LINUX="crashkernel=auto audit=1"\n',
        },
        # grubenv gives it; an argument given twice counts by its last value
        compliant={
            "boot/loader/entries/a-5.14.0-70.conf": _ENTRY.format(v="5.14.0-70", o="$kernelopts"),
            "boot/loader/entries/a-5.14.0-90.conf": _ENTRY.format(
                v="5.14.0-90", o="root=/dev/vg/root audit=0 ro audit=1"
            ),
            "boot/grub2/grubenv": "kernelopts=root=/dev/vg/root ro audit=1\n",
            "etc/default/grub": "GRUB_CMDLINE_LINUX='crashkernel=auto'\nGRUB_CMDLINE_LINUX_DEFAULT=\"audit=1\"\n",
        },
    )
    assert verdicts == JUDGED


def test_kernel_argument_bound_where_new_entries_come_from(tmp_path: Path) -> None:
    text = "The kernel boot parameters must set audit_backlog_limit to at least 8192."
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the boot entry is fine, but grub2-mkconfig would write new ones with too small a value
        violating={
            "boot/loader/entries/b.conf": _ENTRY.format(
                v="5.14.0-90", o="audit_backlog_limit=8192"
            ),
            "etc/default/grub": 'GRUB_CMDLINE_LINUX="audit_backlog_limit=320"\n',
        },
        compliant={
            "boot/loader/entries/b.conf": _ENTRY.format(
                v="5.14.0-90", o="audit_backlog_limit=65536"
            ),
            "etc/default/grub": '#GRUB_CMDLINE_LINUX="audit_backlog_limit=320"\n'
            'GRUB_CMDLINE_LINUX="audit_backlog_limit=8192"\n',
        },
    )
    assert verdicts == JUDGED


_RSYSLOG = (
    'module(load="imjournal" StateFile="imjournal.state" FileCreateMode="0644")\n'
    "$IncludeConfig /etc/rsyslog.d/*.conf\n"
    "{main}"
    "authpriv.*    /var/log/secure\n"
)


def test_log_file_mode_in_every_file_the_logger_reads(tmp_path: Path) -> None:
    text = (
        "Log files that rsyslog writes must be created with FileCreateMode 0600 or tighter, in "
        "the main file and in every included one."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # an included file loosens the mode; the journal module's state-file mode is no log file
        violating={
            "etc/rsyslog.conf": _RSYSLOG.format(main="$FileCreateMode 0600\n"),
            "etc/rsyslog.d/40-app.conf": "$FileCreateMode   0660\nlocal3.*  /var/log/app.log\n",
        },
        compliant={
            "etc/rsyslog.conf": _RSYSLOG.format(
                main='module(load="builtin:omfile" FileCreateMode="0600")\n'
            ),
            "etc/rsyslog.d/40-app.conf": "#$FileCreateMode 0644\n$FileCreateMode 0400\n",
        },
    )
    assert verdicts == JUDGED
    # nothing sets it: rsyslog creates files 0644
    unset = judged_hosts(
        tmp_path / "unset",
        text,
        violating={"etc/rsyslog.conf": _RSYSLOG.format(main="")},
        compliant={"etc/rsyslog.conf": _RSYSLOG.format(main="$FileCreateMode 0600\n")},
    )
    assert unset == JUDGED


def test_list_file_that_does_not_contain_a_path(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "Make sure /etc/securetty does not contain /dev/ttyS0.",
        violating={"etc/securetty": "console\ntty1\n/dev/ttyS0\n"},
        # a comment names it; ttyS1 is another line
        compliant={"etc/securetty": "console\n# /dev/ttyS0 removed\ntty1\n/dev/ttyS1\n"},
    )
    assert verdicts == JUDGED


def test_manager_setting_stated_as_set_to(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "Make sure logind's KillUserProcesses is set to yes.",
        violating={"etc/systemd/logind.conf": "[Login]\n#KillUserProcesses=yes\n"},
        compliant={"etc/systemd/logind.conf.d/10-kill.conf": "[Login]\nKillUserProcesses=yes\n"},
    )
    assert verdicts == JUDGED
