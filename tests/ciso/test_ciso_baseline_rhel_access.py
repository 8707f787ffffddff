"""RHEL 9 access controls a text describes by what a user can do rather than by the option's
name: password login and TCP tunnels over SSH (Match blocks and DisableForwarding included).
Each host goes through the real class (ansible-playbook in the sandbox, then Rego); each text and
host is written for this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, judged_hosts

pytestmark = [needs_sandbox, pytest.mark.slow]

_MAIN = "Include /etc/ssh/sshd_config.d/*.conf\n"


def test_sshd_password_login_reopened_for_some_users_in_a_match_block(tmp_path: Path) -> None:
    text = (
        "No account, from any source address, may sign in to the bastion over SSH with a "
        "password. OpenSSH accepts passwords when nothing is configured, which counts as a failure."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # turned off for everyone, then turned back on for one user's connections
        violating={
            "etc/ssh/sshd_config": _MAIN
            + "PasswordAuthentication no\nMatch User releasebot\n  PasswordAuthentication yes\n",
        },
        # the drop-in's no is read first; a Match block that repeats no keeps it off
        compliant={
            "etc/ssh/sshd_config": _MAIN
            + "PasswordAuthentication yes\nMatch Address 192.168.7.0/24\n  PasswordAuthentication no\n",
            "etc/ssh/sshd_config.d/05-keys-only.conf": "passwordauthentication no\n",
        },
    )
    assert verdicts == JUDGED


def test_sshd_tcp_tunnels_off_by_the_option_or_by_disabling_all_forwarding(tmp_path: Path) -> None:
    text = (
        "Nobody may use the SSH service to forward TCP ports, in either direction. The daemon "
        "forwards them unless told otherwise."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # "remote" still lets a user open a tunnel one way, and it is read before the main no
        violating={
            "etc/ssh/sshd_config": _MAIN + "AllowTcpForwarding no\n",
            "etc/ssh/sshd_config.d/15-ci.conf": "AllowTcpForwarding remote\n",
        },
        # forwarding of every kind is off, so the later yes has no effect
        compliant={
            "etc/ssh/sshd_config": _MAIN + "AllowTcpForwarding yes\n",
            "etc/ssh/sshd_config.d/01-hardening.conf": "DisableForwarding yes\n",
        },
    )
    assert verdicts == JUDGED


_SUDO_TEXT = (
    "Privilege escalation through sudo must always prompt: no rule in any file sudo loads "
    "may let a user run something without entering a password, whether by a tag on the rule "
    "or by a Defaults entry scoped to some users or commands."
)
_SUDOERS_MAIN = "root ALL=(ALL) ALL\n#includedir /etc/sudoers.d\n"
#: a commented rule, a file sudo skips (dot in its name), and look-alike options
_SUDO_COMPLIANT = {
    "etc/sudoers": (
        "root ALL=(ALL) ALL\n# %wheel ALL=(ALL) NOPASSWD: ALL\n"
        "Defaults:%netops !lecture\n#includedir /etc/sudoers.d\n"
    ),
    "etc/sudoers.d/50-db": "%dba ALL=(postgres) PASSWD: /usr/bin/psql, /usr/bin/pg_dump\n",
    "etc/sudoers.d/70-old.disabled": "%dba ALL=(ALL) NOPASSWD: ALL\n",
}


@pytest.mark.parametrize(
    "skipping",
    [
        # the password-free tag alone, the second one on the line
        {
            "etc/sudoers.d/50-db": "%dba ALL=(postgres) PASSWD: /usr/bin/psql, NOPASSWD: /usr/bin/pg_dump\n"
        },
        # the Defaults entry alone, turning authentication off for one group
        {"etc/sudoers.d/60-net": "Defaults:%netops !authenticate\n"},
    ],
    ids=["tag-on-a-rule", "scoped-defaults"],
)
def test_sudo_rules_and_defaults_that_skip_authentication(
    tmp_path: Path, skipping: dict[str, str]
) -> None:
    # each way of skipping the password is caught on its own
    verdicts = judged_hosts(
        tmp_path,
        _SUDO_TEXT,
        violating={"etc/sudoers": _SUDOERS_MAIN, **skipping},
        compliant=_SUDO_COMPLIANT,
    )
    assert verdicts == JUDGED


def test_limits_hard_core_size_per_domain_with_drop_ins(tmp_path: Path) -> None:
    text = (
        "Through pam_limits (/etc/security/limits.conf plus limits.d), core dumps are forbidden: "
        "the hard core limit is 0 for everyone, and no group or user gets a larger one."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # "-" sets the hard limit too, and a group entry overrides "*"
        violating={
            "etc/security/limits.conf": "*    hard    core    0\n",
            "etc/security/limits.d/30-qa.conf": "@qa  -  core  unlimited\n",
        },
        # a later line for the same domain wins; a soft limit and a file not ending in .conf
        # do not count
        compliant={
            "etc/security/limits.conf": "*  hard  core  1024\n@qa  soft  core  unlimited\n",
            "etc/security/limits.d/40-lock.conf": "*  hard  core  0\n",
            "etc/security/limits.d/50-old.conf.rpmnew": "*  hard  core  unlimited\n",
        },
    )
    assert verdicts == JUDGED


def test_limits_concurrent_logins_raised_for_one_user(tmp_path: Path) -> None:
    text = (
        "pam_limits must cap every account at 3 simultaneous logins or fewer (hard limit); an "
        "account with no limit at all counts as a finding."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # "*" is right, but one user's own entry allows more
        violating={
            "etc/security/limits.conf": "*  hard  maxlogins  3\nbuildsvc  hard  maxlogins  10\n"
        },
        compliant={
            "etc/security/limits.conf": "*  hard  maxlogins  2\nbuildsvc  -  maxlogins  3\n"
        },
    )
    assert verdicts == JUDGED


def test_limits_unset_hard_logins_fails(tmp_path: Path) -> None:
    text = "No user may keep more than 5 concurrent logins open; limits.conf sets the hard cap."
    verdicts = judged_hosts(
        tmp_path,
        text,
        # only a soft limit: the hard one is unlimited
        violating={"etc/security/limits.conf": "*  soft  maxlogins  5\n"},
        compliant={"etc/security/limits.conf": "*  hard  maxlogins  5\n"},
    )
    assert verdicts == JUDGED
