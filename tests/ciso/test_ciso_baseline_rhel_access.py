"""RHEL 9 access controls a text describes by what a user can do rather than by the option's
name: password login and TCP tunnels over SSH (Match blocks and DisableForwarding included).
Each host goes through the real class (ansible-playbook in the sandbox, then Rego); each text and
host is written for this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests.ciso.test_ciso_baseline_rhel9_reading import JUDGED, _judged

pytestmark = [needs_sandbox, pytest.mark.slow]

_MAIN = "Include /etc/ssh/sshd_config.d/*.conf\n"


def test_sshd_password_login_reopened_for_some_users_in_a_match_block(tmp_path: Path) -> None:
    text = (
        "No account, from any source address, may sign in to the bastion over SSH with a "
        "password. OpenSSH accepts passwords when nothing is configured, which counts as a failure."
    )
    verdicts = _judged(
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
    verdicts = _judged(
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


def test_sudo_rules_and_defaults_that_skip_authentication(tmp_path: Path) -> None:
    text = (
        "Privilege escalation through sudo must always prompt: no rule in any file sudo loads "
        "may let a user run something without entering a password, whether by a tag on the rule "
        "or by a Defaults entry scoped to some users or commands."
    )
    verdicts = _judged(
        tmp_path,
        text,
        # the password-free tag is the second one on the line; the Defaults turns it off for a group
        violating={
            "etc/sudoers": "root ALL=(ALL) ALL\n#includedir /etc/sudoers.d\n",
            "etc/sudoers.d/50-db": "%dba ALL=(postgres) PASSWD: /usr/bin/psql, NOPASSWD: /usr/bin/pg_dump\n",
            "etc/sudoers.d/60-net": "Defaults:%netops !authenticate\n",
        },
        # a commented rule, a file sudo skips (dot in its name), and look-alike options
        compliant={
            "etc/sudoers": (
                "root ALL=(ALL) ALL\n# %wheel ALL=(ALL) NOPASSWD: ALL\n"
                "Defaults:%netops !lecture\n#includedir /etc/sudoers.d\n"
            ),
            "etc/sudoers.d/50-db": "%dba ALL=(postgres) PASSWD: /usr/bin/psql, /usr/bin/pg_dump\n",
            "etc/sudoers.d/70-old.disabled": "%dba ALL=(ALL) NOPASSWD: ALL\n",
        },
    )
    assert verdicts == JUDGED
