"""The dry run reads an agent's workspace, which the agent arranges: a symbolic link it plants
under ``static-resources/`` or in place of its host tree must not make the dry run (running as
the user, often root) copy or bind what the link points to, which the collector would then hand
back to the agent in ``.itbench/dry-run/collected_data.json`` (a compliant environment, ground
truth, any file of the machine)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ciso.environments import HOST_TREE_DIR
from ciso.scenarios.model import ScenarioClass
from ciso.validation import Step
from ciso.validation.dry_run import DRY_RUN_DATA, dry_run
from ciso.validation.files import AnswerFiles
from tests._support.ciso import K8S, RHEL9, needs_sandbox, trial_dir

pytestmark = needs_sandbox

MARKER = "planted-link-target-7f3a"
SECRET_MANIFEST = f"""apiVersion: v1
kind: ConfigMap
metadata:
  name: {MARKER}
  namespace: elsewhere
data:
  answer: {MARKER}
"""


def _outside(tmp_path: Path) -> Path:
    """A folder outside the workspace holding what the agent must not reach."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.yaml").write_text(SECRET_MANIFEST)
    return folder


def _collected(workspace: Path) -> str:
    saved = workspace / DRY_RUN_DATA
    return saved.read_text() if saved.exists() else ""


def _static_files(workspace: Path) -> AnswerFiles:
    return AnswerFiles(
        workspace, policy_rego=workspace / "policy.rego", collector=workspace / "fetch.sh"
    )


@pytest.mark.parametrize("where", ["file", "folder-inside"])
def test_a_link_under_static_resources_is_not_followed(tmp_path: Path, where: str) -> None:
    workspace = trial_dir(tmp_path, "opa-static", "correct")
    shutil.copytree(K8S / "violating", workspace / "static-resources")
    outside = _outside(tmp_path)
    if where == "file":
        (workspace / "static-resources" / "leak.yaml").symlink_to(outside / "secret.yaml")
    else:
        (workspace / "static-resources" / "leak").symlink_to(outside)
    found = dry_run(ScenarioClass.OPA_STATIC, _static_files(workspace))
    assert MARKER not in _collected(workspace)
    assert MARKER not in " ".join(d.message for d in found)
    # the policy still ran on the real files, and the agent is told what was left out
    assert any("data.check.result is false" in d.message for d in found), found
    assert any(
        d.step is Step.DRY_RUN and "leak" in d.message and "symbolic link" in d.message
        for d in found
    ), found


def test_static_resources_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    workspace = trial_dir(tmp_path, "opa-static", "correct")
    (workspace / "static-resources").symlink_to(_outside(tmp_path))
    found = dry_run(ScenarioClass.OPA_STATIC, _static_files(workspace))
    assert MARKER not in _collected(workspace)
    assert any("static-resources" in d.message and "skipped" in d.message for d in found), found


def test_a_host_tree_that_is_a_link_is_not_bound(tmp_path: Path) -> None:
    workspace = trial_dir(tmp_path, "rhel9", "correct")
    outside = tmp_path / "outside-host"
    (outside / "etc" / "ssh").mkdir(parents=True)
    (outside / "etc" / "ssh" / "sshd_config").write_text(f"# {MARKER}\nX11Forwarding yes\n")
    (workspace / HOST_TREE_DIR).parent.mkdir(parents=True, exist_ok=True)
    (workspace / HOST_TREE_DIR).symlink_to(outside)
    files = AnswerFiles(
        workspace, policy_rego=workspace / "policy.rego", playbook=workspace / "playbook.yml"
    )
    found = dry_run(ScenarioClass.RHEL9_ANSIBLE_OPA, files)
    assert MARKER not in _collected(workspace)
    assert MARKER not in " ".join(d.message for d in found)
    assert any("skipped" in d.message for d in found), found


def test_a_link_inside_the_host_tree_is_named_not_followed(tmp_path: Path) -> None:
    workspace = trial_dir(tmp_path, "rhel9", "correct")
    tree = workspace / HOST_TREE_DIR
    shutil.copytree(RHEL9 / "violating" / "host", tree)
    secret = tmp_path / "secret.conf"
    secret.write_text(f"# {MARKER}\n")
    os.symlink(secret, tree / "etc" / "ssh" / "sshd_config.d-leak")
    files = AnswerFiles(
        workspace, policy_rego=workspace / "policy.rego", playbook=workspace / "playbook.yml"
    )
    found = dry_run(ScenarioClass.RHEL9_ANSIBLE_OPA, files)
    assert MARKER not in _collected(workspace)
    assert MARKER not in " ".join(d.message for d in found)
    assert any("sshd_config.d-leak" in d.message and "symbolic link" in d.message for d in found)
    # the playbook still ran on the host's real files
    assert any("data.check.result" in d.message for d in found), found


def _exec_kubeconfig(workspace: Path, marker: Path) -> None:
    """The agent's rewrite of its kubeconfig: an exec credential plugin (kubectl runs it for an
    https server) that would run as the runner's user, outside any sandbox."""
    (workspace / "kubeconfig.yaml").write_text(
        "apiVersion: v1\nkind: Config\n"
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n"
        "users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, "
        f"command: /bin/sh, args: ['-c', 'touch {marker}; echo {{}}']}}}}}}]\n"
        "contexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n"
    )


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_the_dry_run_does_not_run_a_command_the_agents_kubeconfig_names(tmp_path: Path) -> None:
    workspace = trial_dir(tmp_path, "kubectl-opa", "correct")
    marker = tmp_path / "ran"
    _exec_kubeconfig(workspace, marker)
    files = AnswerFiles(
        workspace, policy_rego=workspace / "policy.rego", collector=workspace / "fetcher.sh"
    )
    found = dry_run(ScenarioClass.KUBECTL_OPA, files)
    assert not marker.exists()
    assert any("cannot read the cluster" in d.message and "exec" in d.message for d in found)


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_the_llm_kubectl_tool_does_not_run_a_command_the_agent_wrote_in(tmp_path: Path) -> None:
    from ciso.agents.llm_tools import run_kubectl

    marker = tmp_path / "ran"
    _exec_kubeconfig(tmp_path, marker)
    said = run_kubectl("get pods -A", tmp_path, ScenarioClass.KUBECTL_OPA)
    assert said.startswith("refused:") and "exec" in said, said
    assert not marker.exists()
