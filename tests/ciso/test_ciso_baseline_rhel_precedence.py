"""RHEL 9 controls a text describes by what the daemon or kernel does, judged as the daemon reads
its files: sshd keeps the first value (drop-ins of sshd_config.d, in name order, before the main
file), pam_pwquality's arguments win over pwquality.conf, systemd-sysctl's last value wins, and
systemd-coredump's drop-ins come after coredump.conf. Each host goes through the real class
(ansible-playbook in the sandbox, then Rego); each text and host is written for this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, judged_hosts

pytestmark = [needs_sandbox, pytest.mark.slow]

_MAIN = "Include /etc/ssh/sshd_config.d/*.conf\n"


def test_sshd_probe_count_and_log_level_first_value_from_the_drop_ins(tmp_path: Path) -> None:
    text = (
        "Our SSH servers must drop a client that leaves at most two keep-alive probes "
        "unanswered (0 would keep it for ever; sshd allows 3 when unset) and must log at the "
        "verbose or info level."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the main file is right, but a drop-in read before it sets a quieter level, in lower case
        violating={
            "etc/ssh/sshd_config": _MAIN + "ClientAliveCountMax 2\nLogLevel VERBOSE\n",
            "etc/ssh/sshd_config.d/20-ops.conf": "loglevel\tquiet\nclientalivecountmax 2\n",
        },
        # the first drop-in wins over a later one and over the main file
        compliant={
            "etc/ssh/sshd_config": _MAIN + "ClientAliveCountMax 0\nLogLevel DEBUG3\n",
            "etc/ssh/sshd_config.d/00-base.conf": "ClientAliveCountMax 1\nLogLevel info\n",
            "etc/ssh/sshd_config.d/70-debug.conf": "LogLevel DEBUG\nClientAliveCountMax 0\n",
        },
    )
    assert verdicts == JUDGED


def test_sshd_unset_probe_count_violates_a_bound_below_the_default(tmp_path: Path) -> None:
    text = "SSH must give up on a client after no more than 2 missed keep-alive messages."
    verdicts = judged_hosts(
        tmp_path,
        text,
        # nothing set: sshd's 3 is above the bound
        violating={"etc/ssh/sshd_config": _MAIN + "PermitRootLogin no\n"},
        compliant={"etc/ssh/sshd_config": _MAIN + "ClientAliveCountMax 2\n"},
    )
    assert verdicts == JUDGED


def test_sshd_host_based_login_and_user_environment(tmp_path: Path) -> None:
    text = (
        "The SSH daemon must not accept host-based authentication, and users must not hand any "
        "environment variables to the daemon from ~/.ssh/environment."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # a pattern list lets some variables through
        violating={"etc/ssh/sshd_config": _MAIN + "PermitUserEnvironment TZ,LANG\n"},
        # unset host-based authentication is sshd's no; the drop-in's no comes first
        compliant={
            "etc/ssh/sshd_config": _MAIN + "PermitUserEnvironment yes\n",
            "etc/ssh/sshd_config.d/10-lock.conf": "permituserenvironment no\n",
        },
    )
    assert verdicts == JUDGED


def test_pwquality_classes_counted_as_n_of_the_m_classes(tmp_path: Path) -> None:
    text = (
        "A new password set through system-auth or password-auth must mix characters from at "
        "least 2 of the 4 classes (digits, upper, lower, other); the module's arguments win."
    )
    stack = "password    requisite     pam_pwquality.so local_users_only{args}\n"
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the file asks for 3, but one stack's argument lowers it to 1
        violating={
            "etc/security/pwquality.conf": "minclass = 3\n",
            "etc/pam.d/system-auth": stack.format(args=""),
            "etc/pam.d/password-auth": stack.format(args=" minclass=1"),
        },
        # exactly 2 (not the 4 the sentence also names) is enough
        compliant={
            "etc/security/pwquality.conf": "minclass = 1\n",
            "etc/pam.d/system-auth": stack.format(args=" minclass=2"),
            "etc/pam.d/password-auth": stack.format(args=" minclass=2"),
        },
    )
    assert verdicts == JUDGED


def test_unprivileged_bpf_and_perf_events_over_the_sysctl_files(tmp_path: Path) -> None:
    text = (
        "Unprivileged users must not load eBPF programs, nor watch kernel performance "
        "events; nothing configured is fine (the kernel's defaults refuse both)."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # a vendor file under /usr/local/lib sorts after the local one and lowers perf events
        violating={
            "etc/sysctl.d/30-cis.conf": "kernel.perf_event_paranoid = 2\n",
            "usr/local/lib/sysctl.d/80-trace.conf": "kernel/perf_event_paranoid=0\n",
        },
        # an empty same-named file in /etc hides the vendor's; bpf 1 refuses too
        compliant={
            "etc/sysctl.d/30-cis.conf": "kernel.unprivileged_bpf_disabled = 1\n",
            "usr/local/lib/sysctl.d/80-trace.conf": "kernel.perf_event_paranoid=0\n",
            "etc/sysctl.d/80-trace.conf": "",
        },
    )
    assert verdicts == JUDGED


def test_setuid_dumps_and_the_crash_collector_across_two_families(tmp_path: Path) -> None:
    text = (
        "Programs running set-user-ID must never be dumped, and the crash collector must "
        "neither store nor process core files."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the sysctl is right; a later coredump drop-in stores cores again
        violating={
            "etc/sysctl.d/90-dumps.conf": "fs.suid_dumpable = 0\n",
            "etc/systemd/coredump.conf": "[Coredump]\nStorage=none\nProcessSizeMax=0\n",
            "etc/systemd/coredump.conf.d/40-debug.conf": "[Coredump]\nStorage=journal\n",
        },
        # the drop-in's line is a comment; a key of another section does not count
        compliant={
            "etc/sysctl.d/90-dumps.conf": "fs.suid_dumpable = 0\n",
            "etc/systemd/coredump.conf": "[Coredump]\nStorage=none\nProcessSizeMax=0\n",
            "etc/systemd/coredump.conf.d/40-debug.conf": "[Coredump]\n#Storage=journal\n"
            "[Other]\nStorage=external\n",
        },
    )
    assert verdicts == JUDGED
