"""Guard: the RHEL collectors travel to the host inside the free-form argument of Ansible's
``shell`` module, which Ansible cuts into words with its own quote-aware splitter before it
runs anything. One lone apostrophe in a collector (a possessive in a comment is enough) leaves
a quote open and fails EVERY RHEL playbook with "failed at splitting arguments"; two of them
may silently pair up across lines. So no collector may hold an apostrophe (its Python uses
double quotes), and Ansible must read each rendered command back whole."""

from __future__ import annotations

import pytest
import yaml
from ansible.parsing.splitter import parse_kv

from ciso.agents.baseline.render import render
from tests._support.ciso_baseline import intent_of

#: one requirement per collector template (the configuration families, which include every
#: family read as its daemon reads it; file permissions; kernel modules), in words of this test
REQUIREMENTS = (
    "Each NTP server line in /etc/chrony.conf has to set maxpoll to 9 or lower.",
    "The password hashing algorithm in /etc/login.defs (ENCRYPT_METHOD) must be SHA512.",
    "/etc/ssh/sshd_config must be owned by root:root with mode 0600 or stricter.",
    "The cramfs filesystem module must not be loadable: install cramfs /bin/false and "
    "blacklist it.",
)


def _shell_command(requirement: str) -> str:
    playbook = render(intent_of(requirement, "rhel9"), "rhel9-ansible-opa").files["playbook.yml"]
    task = yaml.safe_load(playbook)[0]["tasks"][0]
    return task["ansible.builtin.shell"]


@pytest.mark.parametrize("requirement", REQUIREMENTS)
def test_the_collector_holds_no_apostrophe(requirement: str) -> None:
    command = _shell_command(requirement)
    script = command.split("<<'PY'", 1)[1]
    assert "'" not in script, [line for line in script.splitlines() if "'" in line]


@pytest.mark.parametrize("requirement", REQUIREMENTS)
def test_ansible_reads_the_shell_command_back_whole(requirement: str) -> None:
    command = _shell_command(requirement)
    assert parse_kv(command, check_raw=True) == {"_raw_params": command}
