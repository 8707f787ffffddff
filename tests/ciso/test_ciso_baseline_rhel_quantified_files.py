"""A RHEL 9 prohibition quantified over the files that configure a setting ("no sysctl drop-in
may enable it", "must not be turned on in any file") judges the value each file sets, not only
the one in force after later files override it. Each sentence and host is written for this test
and judged through the real class (ansible-playbook in the sandbox, then Rego)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.agents.baseline.intent import ConfigSetting
from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, intent_of, judged_hosts


def _every_value(text: str) -> set[bool]:
    """Whether each setting the text is read as judges every file's value."""
    parsed = intent_of(text, "rhel9")
    assert all(isinstance(c, ConfigSetting) for c in parsed.checks), parsed.checks
    return {c.every_value for c in parsed.checks if isinstance(c, ConfigSetting)}


_SOURCE_ROUTE = (
    "Source-routed packets must be refused: net.ipv4.conf.all.accept_source_route has to be 0, "
    "and no sysctl drop-in may set it to 1."
)


@pytest.mark.parametrize(
    ("text", "every_file"),
    [
        (_SOURCE_ROUTE, True),
        (
            "The kernel parameter net.ipv4.conf.all.send_redirects must be 0 in the persistent "
            "sysctl configuration, and it must not be set to 1 in any file.",
            True,
        ),
        # the value in force only: nothing is said of the files
        (
            "The kernel parameter net.ipv4.conf.all.send_redirects must be 0 in the persistent "
            "sysctl configuration.",
            False,
        ),
    ],
)
def test_a_prohibition_over_the_files_judges_every_file(text: str, every_file: bool) -> None:
    assert _every_value(text) == {every_file}


_HARDENED = (
    "net.ipv4.conf.all.accept_source_route=0\nnet.ipv4.conf.default.accept_source_route = 0\n"
)


@needs_sandbox
@pytest.mark.slow
def test_an_early_file_that_a_later_one_overrides_still_violates(tmp_path: Path) -> None:
    # 10-lab.conf turns source routing on; 90-hardening.conf, read later, turns it off again:
    # the value in force is 0, but a drop-in enables it, which the text forbids
    verdicts = judged_hosts(
        tmp_path,
        _SOURCE_ROUTE,
        violating={
            "etc/sysctl.d/10-lab.conf": "net.ipv4.conf.all.accept_source_route = 1\n",
            "etc/sysctl.d/90-hardening.conf": _HARDENED,
        },
        compliant={
            "etc/sysctl.d/10-lab.conf": "# net.ipv4.conf.all.accept_source_route = 1\n",
            "etc/sysctl.d/90-hardening.conf": _HARDENED,
        },
    )
    assert verdicts == JUDGED


#: logins per account said by what they count, no pam_limits file or item named
_SESSIONS = (
    "No account may hold more than three simultaneous login sessions, and no drop-in under "
    "the limits directory may raise that."
)


def test_login_sessions_per_account_read_as_pam_limits_maxlogins() -> None:
    parsed = intent_of(_SESSIONS, "rhel9")
    assert [(c.family, c.key, c.comparison, c.values, c.every_value) for c in parsed.checks] == [
        ("limits", "maxlogins", "le", (3,), True)
    ]


@needs_sandbox
@pytest.mark.slow
def test_a_limits_drop_in_that_raises_the_login_cap_violates(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        _SESSIONS,
        violating={
            "etc/security/limits.conf": "*  hard  maxlogins  3\n",
            "etc/security/limits.d/50-ops.conf": "*\thard\tmaxlogins\t12\n",
        },
        compliant={
            "etc/security/limits.conf": "*  hard  maxlogins  3\n",
            "etc/security/limits.d/50-ops.conf": "@ops hard maxlogins 2\n# * hard maxlogins 12\n",
        },
    )
    assert verdicts == JUDGED
