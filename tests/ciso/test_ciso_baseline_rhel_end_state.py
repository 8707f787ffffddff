"""RHEL 9 requirement texts that state the value a setting must end up with rather than give it
as "KEY = VALUE" ("the sysctl configuration has to end up with kernel.kptr_restrict set to 2"),
or state the control by its effect only (reading the kernel's log; services started by systemd
writing core files). Each host goes through the real class (ansible-playbook in the sandbox,
then Rego). Every text and host is written for this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.agents.baseline.intent import ConfigSetting
from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, intent_of, judged_hosts

_SYSCTL_TEXTS = (
    # an operator's ticket
    "Ticket: after the next reboot the persistent sysctl configuration has to end up with "
    "kernel.kptr_restrict set to 2, whatever the vendor drop-ins say.",
    # an auditor's finding
    "Finding: kernel addresses are printed to local users. Remediation: kernel.kptr_restrict "
    "configured as 2 in the sysctl configuration read at boot.",
)


@pytest.mark.parametrize("text", _SYSCTL_TEXTS)
def test_a_value_the_key_is_set_to_after_it(text: str) -> None:
    (setting,) = intent_of(text, "rhel9").checks
    assert setting == ConfigSetting("sysctl", "kernel.kptr_restrict", "eq", ("2",), False)


_PERF_TEXT = (
    "Finding: local accounts can sample performance counters of processes they do not own. "
    "Remediation: kernel.perf_event_paranoid configured as {value}."
)


@pytest.mark.parametrize(("value", "unset_complies"), [("2", True), ("3", False)])
def test_a_spelled_value_keeps_the_kernel_default_only_when_it_names_it(
    value: str, unset_complies: bool
) -> None:
    # 2 and 3 both have the effect and 2 is the kernel's default: asking for 2 accepts a host
    # that leaves the key unset, asking for 3 does not
    (setting,) = intent_of(_PERF_TEXT.format(value=value), "rhel9").checks
    assert setting == ConfigSetting(
        "sysctl", "kernel.perf_event_paranoid", "eq", (value,), unset_complies
    )


@needs_sandbox
@pytest.mark.slow
def test_a_host_leaving_the_default_the_text_names_complies(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        _PERF_TEXT.format(value="2"),
        violating={"etc/sysctl.d/60-profiling.conf": "kernel.perf_event_paranoid = 1\n"},
        # nothing sets the key: the kernel's 2 holds
        compliant={"etc/sysctl.d/10-net.conf": "net.ipv4.tcp_syncookies = 1\n"},
    )
    assert verdicts == JUDGED


@pytest.mark.parametrize(
    "text",
    [
        "Ordinary accounts must not be able to read the kernel log buffer.",
        "Finding: any local user can page through the kernel's log. Restrict it to "
        "administrators, persistently.",
    ],
)
def test_reading_the_kernel_log_is_dmesg_restrict(text: str) -> None:
    (setting,) = intent_of(text, "rhel9").checks
    assert (setting.family, setting.key, setting.values) == (
        "sysctl",
        "kernel.dmesg_restrict",
        ("1",),
    )


@pytest.mark.parametrize(
    "text",
    [
        "Make sure the kernel logs martian packets on every interface.",
        "The kernel logs packets with impossible source addresses; keep that on for all "
        "interfaces and for the default of new ones.",
        # a reading word in the sentence, but the kernel's logging is still the verb
        "Operators must be able to read in the journal whenever the kernel logs a martian packet.",
    ],
)
def test_the_kernel_logging_packets_is_not_reading_its_log(text: str) -> None:
    keys = {c.key for c in intent_of(text, "rhel9").checks}
    assert "kernel.dmesg_restrict" not in keys
    assert keys == {"net.ipv4.conf.all.log_martians", "net.ipv4.conf.default.log_martians"}


@pytest.mark.parametrize(
    "text",
    [
        # an operator's ticket
        "Ticket: a crashed daemon left a core file of several gigabytes. No unit started by "
        "systemd may write core files any more; fix the manager's default, drop-ins included.",
        # an auditor's finding
        "Audit: the service manager's default core-file size limit for services is unlimited. "
        "It must be zero, taking system.conf.d into account.",
        # a benchmark paragraph
        "Ensure services launched by systemd cannot dump core: the default core size limit "
        "systemd applies to its units is 0.",
    ],
)
def test_systemd_services_dumping_core_is_the_default_core_limit(text: str) -> None:
    (setting,) = intent_of(text, "rhel9").checks
    assert (setting.family, setting.key) == ("systemd", "DefaultLimitCORE")
    assert "0" in setting.values
    assert not setting.unset_complies


_SYSTEM_CONF = "[Manager]\n#DefaultLimitNOFILE=1024:524288\nDefaultLimitCORE=0\n"


@needs_sandbox
@pytest.mark.slow
def test_systemd_core_limit_judged_after_its_drop_ins(tmp_path: Path) -> None:
    text = (
        "Services started by systemd must not be able to leave core files behind; the "
        "drop-in directory counts."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the main file says 0, a later drop-in (spaces around '=') makes it unlimited
        violating={
            "etc/systemd/system.conf": _SYSTEM_CONF,
            "etc/systemd/system.conf.d/50-debug.conf": "[Manager]\n  DefaultLimitCORE = infinity\n",
        },
        # the main file unlimited, a drop-in brings it back to 0; a commented line changes nothing
        compliant={
            "etc/systemd/system.conf": "[Manager]\nDefaultLimitCORE=infinity\n",
            "etc/systemd/system.conf.d/20-harden.conf": "[Manager]\nDefaultLimitCORE=0\n",
            "etc/systemd/system.conf.d/90-notes.conf": "[Manager]\n#DefaultLimitCORE=infinity\n",
        },
    )
    assert verdicts == JUDGED


@needs_sandbox
@pytest.mark.slow
def test_dmesg_restrict_end_state_over_sysctl_drop_ins(tmp_path: Path) -> None:
    text = (
        "Local users must not read the kernel log buffer: once every sysctl.d file is applied "
        "the result has to be kernel.dmesg_restrict set to 1."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # an early file sets 1, a later one (by name) sets 0 and wins
        violating={
            "etc/sysctl.d/20-secure.conf": "kernel.dmesg_restrict = 1\n",
            "etc/sysctl.d/95-debugging.conf": "kernel.dmesg_restrict=0\n",
        },
        # 0 from a vendor-ish early file, 1 from a later one; a comment after it
        compliant={
            "etc/sysctl.d/10-base.conf": "kernel.dmesg_restrict = 0\n",
            "etc/sysctl.d/70-secure.conf": "kernel.dmesg_restrict = 1\n",
            "etc/sysctl.d/99-scratch.conf": "# kernel.dmesg_restrict = 0\n",
        },
    )
    assert verdicts == JUDGED
