"""rhel9-ansible-opa: real Ansible (ansible-playbook in the bubblewrap sandbox) over the fixture host
trees, then the Rego rule; plus the host tree's file attributes."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from ciso.environments.hosts import locate, prepare, read_attributes
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.model import ScenarioClass
from itbench.errors import InputError
from tests._support.ciso import RHEL9, benchmark_scenario, ciso_scenario, needs_sandbox, trial_dir

SCENARIO = benchmark_scenario(ciso_scenario(RHEL9, ScenarioClass.RHEL9_ANSIBLE_OPA))


@needs_sandbox
@pytest.mark.slow
def test_correct_playbook_and_policy(tmp_path: Path) -> None:
    result = evaluate_trial(SCENARIO, trial_dir(tmp_path, "rhel9", "correct"))
    assert result.scores == {"itbench_pass": 1, "strict_pass": 1}
    assert {k: v["result"] for k, v in result.details["environments"].items()} == {
        "violating": "false",
        "compliant": "true",
    }
    assert result.details["engines"]["ansible"].startswith("ansible-core ")
    assert "failure" not in result.details


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("case", ["too-broad", "greps-comments"])
def test_policies_that_flag_the_compliant_host(tmp_path: Path, case: str) -> None:
    result = evaluate_trial(SCENARIO, trial_dir(tmp_path, "rhel9", case))
    assert result.scores == {"itbench_pass": 1, "strict_pass": 0}
    assert result.details["environments"]["compliant"]["result"] == "false"
    assert result.details["failure"]["step"] == "rego (compliant)"


@needs_sandbox
@pytest.mark.slow
def test_failing_playbook_is_the_reason(tmp_path: Path) -> None:
    result = evaluate_trial(SCENARIO, trial_dir(tmp_path, "rhel9", "failing-playbook"))
    assert result.scores == {"itbench_pass": 0, "strict_pass": 0}
    failure = result.details["failure"]
    assert failure["step"] == "playbook (violating)"
    # ansible-runner's events name the task, where it is defined, the host and Ansible's reason
    assert failure["reason"] == (
        "playbook failed: task 'Read a file that does not exist' (playbook.yml:5) failed on "
        "localhost: File not found: /etc/ssh/sshd_config.missing"
    )
    assert "sshd_config.missing" in failure["output"]


def test_empty_workspace(tmp_path: Path) -> None:
    result = evaluate_trial(SCENARIO, trial_dir(tmp_path, "rhel9", "empty"))
    assert result.scores == {"itbench_pass": 0, "strict_pass": 0}
    assert result.details["failure"] == {
        "step": "files",
        "reason": "missing playbook.yml and policy.rego; the agent left: nothing",
    }


def test_host_attributes_are_applied_to_a_private_copy(tmp_path: Path) -> None:
    tree = locate(RHEL9 / "violating")
    assert tree.root == RHEL9 / "violating" / "host"
    copy, notes = prepare(tree, tmp_path / "host")
    config = copy / "etc" / "ssh" / "sshd_config"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert notes == [] or all("owner/group not applied" in n for n in notes)
    # the scenario's own file is untouched
    source = RHEL9 / "violating" / "host" / "etc" / "ssh" / "sshd_config"
    assert (
        stat.S_IMODE(source.stat().st_mode) != 0o600 or source.stat().st_ino != config.stat().st_ino
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("etc/ssh/sshd_config: {mode: '0600'}\n", "the path must be absolute"),
        ("/etc/ssh/sshd_config: {mode: 600}\n", "field 'mode' must be an octal string"),
        ("/etc/ssh/sshd_config: [0600]\n", "expected {mode, owner, group}"),
    ],
)
def test_bad_host_attributes_name_the_file_and_field(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "host-attributes.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        read_attributes(path)
    assert str(path) in str(caught.value) and message in str(caught.value)


def test_setuid_and_setgid_bits_survive_the_owner_change(tmp_path: Path) -> None:
    """A declared 4600 or 2640 is what the playbook sees: the owners are applied before the
    mode (a chown clears those bits)."""
    host = tmp_path / "violating" / "host" / "etc"
    host.mkdir(parents=True)
    for name in ("shadow", "cron.allow"):
        (host / name).write_text("root\n")
    (tmp_path / "violating" / "host-attributes.yaml").write_text(
        "/etc/shadow: {mode: '4600', owner: root, group: root}\n"
        "/etc/cron.allow: {mode: '2640', owner: root, group: adm}\n"
    )
    copy, notes = prepare(locate(tmp_path / "violating"), tmp_path / "copy")
    if notes:
        pytest.skip(f"this process may not give files away: {notes}")
    assert stat.S_IMODE((copy / "etc" / "shadow").stat().st_mode) == 0o4600
    assert stat.S_IMODE((copy / "etc" / "cron.allow").stat().st_mode) == 0o2640
