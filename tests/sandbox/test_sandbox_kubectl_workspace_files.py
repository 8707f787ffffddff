"""The SRE/FinOps kubectl tool reads the agent's files by relative path, really (real kubectl,
confined, against the offline cluster): the call runs in the workspace, mounted read-only, and
no other file of the machine is there, so a link that slipped past the guard leads nowhere."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from itbench.llm.tools import ToolCall, invoke
from sre.agents import kubectl_tool as tool_module
from tests._support.sandbox import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent"),
]

_MAP = "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {}, namespace: otel-demo}}\n"


def _call(workspace: Path, *args: str) -> dict:
    tools = {"kubectl": tool_module.kubectl_tool(workspace)}
    return json.loads(invoke(tools, ToolCall("1", "kubectl", json.dumps({"args": args}))))


def test_the_agents_own_files_are_read(workspace: Path):
    (workspace / "maps").mkdir()
    (workspace / "maps" / "first.yaml").write_text(_MAP.format("first-from-file"))
    (workspace / "tuning.properties").write_text("workers=4\n")
    applied = _call(workspace, "apply", "-f", "maps/first.yaml")
    assert applied.get("exit_code") == 0 and "first-from-file" in applied["stdout"], applied
    made = _call(
        workspace, "-n", "otel-demo", "create", "configmap", "tuning",
        "--from-file=tuning.properties",
    )  # fmt: skip
    assert made.get("exit_code") == 0, made
    shown = _call(
        workspace, "-n", "otel-demo", "get", "configmap", "tuning", "-o", "go-template",
        "--template={{index .data \"tuning.properties\"}}",
    )  # fmt: skip
    assert shown.get("exit_code") == 0 and shown["stdout"] == "workers=4\n", shown


def test_past_the_guard_a_link_out_of_the_workspace_leads_nowhere(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    host = tmp_path / "host-only"
    host.mkdir(mode=0o755)
    (host / "held.properties").write_text("only the host holds this line\n")
    (host / "held.properties").chmod(0o644)
    (workspace / "held.properties").symlink_to(host / "held.properties")
    refused = _call(workspace, "create", "configmap", "c", "--from-file=held.properties")
    assert "leaves your workspace" in refused.get("error", ""), refused
    # the second layer: were the guard to miss it (the link swapped in after the check), the
    # confined call still finds only the workspace
    monkeypatch.setattr(tool_module, "refusal", lambda args, workspace=None: "")
    made = _call(
        workspace, "-n", "otel-demo", "create", "configmap", "c", "--from-file=held.properties"
    )
    shown = _call(workspace, "-n", "otel-demo", "get", "configmap", "c", "-o", "json")
    assert made.get("exit_code") != 0, made
    assert "only the host holds" not in json.dumps(shown), shown


def test_a_template_file_and_an_attached_file_of_the_workspace_are_read(workspace: Path):
    (workspace / "views").mkdir()
    (workspace / "views" / "names.tmpl").write_text("{{range .items}}<{{.metadata.name}}>{{end}}")
    (workspace / "second.yaml").write_text(_MAP.format("second-attached"))
    applied = _call(workspace, "apply", "-fsecond.yaml")
    assert applied.get("exit_code") == 0 and "second-attached" in applied["stdout"], applied
    shown = _call(
        workspace, "-n", "otel-demo", "get", "configmap", "-o", "go-template-file",
        "--template=views/names.tmpl",
    )  # fmt: skip
    assert shown.get("exit_code") == 0 and "<second-attached>" in shown["stdout"], shown
