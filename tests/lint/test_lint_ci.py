"""`itbench lint` in CI: misspelt kinds, findings in file and line order, whole messages, lines
for the Ansible rules (SARIF regions and GitHub annotations need them)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests._support.cli import run_cli

POLICY = """apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {{name: p}}
spec:
  rules:
    - name: r
      match:
        any:
          - resources:
              kinds:
{kinds}
      validate:
        message: m
        pattern: {{metadata: {{name: "?*"}}}}
"""
CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}]
"""


def _policy(kinds: list[str]) -> str:
    return POLICY.format(kinds="\n".join(f"                - {k}" for k in kinds))


def _lint(*args: str) -> tuple[int, list[dict]]:
    proc = run_cli(["lint", "-q", "--format", "json", *args], timeout=300)
    assert proc.stdout.startswith("{"), proc.stderr
    return proc.returncode, json.loads(proc.stdout)["findings"]


def test_misspelt_kinds_get_a_did_you_mean_over_builtins_and_crds_in_the_tree(tmp_path):
    (tmp_path / "crd.yaml").write_text(CRD)
    kinds = ["Pdo", "pod", "apps/v1/Deploymnet", "Widgte", "Widget", "Pod/exec", "batch/*/Job"]
    (tmp_path / "policy.yaml").write_text(_policy(kinds))
    code, findings = _lint(str(tmp_path), "--enable", "KYV009")
    # errors (issue 27): the rule would match nothing, and `kyverno test` still exits 0
    assert code == 1
    got = {(f["line"], f["severity"], f["message"]) for f in findings}
    head = "r: kind {!r} is not a Kubernetes kind (did you mean {!r}?)"
    assert got == {
        (11, "error", head.format("Pdo", "Pod")),
        (12, "error", head.format("pod", "Pod")),
        (13, "error", head.format("apps/v1/Deploymnet", "Deployment")),
        (14, "error", head.format("Widgte", "Widget")),
    }


def test_an_unknown_kind_without_its_crd_is_only_an_info(tmp_path):
    (tmp_path / "policy.yaml").write_text(_policy(["Widget"]))
    code, findings = _lint(str(tmp_path), "--enable", "KYV009", "--fail-level", "warning")
    assert code == 0
    (finding,) = findings
    assert finding["severity"] == "info" and finding["line"] == 11
    assert "'Widget' is not a Kubernetes kind nor a CRD in the linted files" in finding["message"]


def test_findings_are_sorted_by_file_then_line(tmp_path):
    # b.yaml comes first on the command line; a.yaml mixes a per-file rule (KYV004, line 15)
    # with a batch rule reported after every file (KYV009, line 11)
    (tmp_path / "b.yaml").write_text(_policy(["Pdo"]))
    broken = _policy(["Pdo"]).replace("message: m", 'message: "{{ request.object.[x }}"')
    (tmp_path / "a.yaml").write_text(broken)
    code, findings = _lint(str(tmp_path / "b.yaml"), str(tmp_path / "a.yaml"))
    assert code == 1
    order = [(Path(f["file"]).name, f["line"], f["rule"]) for f in findings]
    assert order == [("a.yaml", 11, "KYV009"), ("a.yaml", 13, "KYV004"), ("b.yaml", 11, "KYV009")]
    text = run_cli(["lint", "-q", str(tmp_path / "b.yaml"), str(tmp_path / "a.yaml")]).stdout
    lines = [line.split(": ")[0] for line in text.splitlines()[:-1]]
    assert lines == [f"{tmp_path}/a.yaml:11", f"{tmp_path}/a.yaml:13", f"{tmp_path}/b.yaml:11"]


@pytest.mark.parametrize(
    ("expression", "explained"),
    [
        ("request.object.spec.[containers", "the expression ends too early (at column 32)"),
        ("a.b ||| c", "invalid token '|' at column 7"),
    ],
)
def test_kyv004_messages_are_whole(tmp_path, expression, explained):
    policy = _policy(["Pod"]).replace("message: m", f'message: "{{{{ {expression} }}}}"')
    (tmp_path / "p.yaml").write_text(policy)
    code, findings = _lint(str(tmp_path / "p.yaml"), "--enable", "KYV004")
    assert code == 1
    (finding,) = findings
    assert finding["message"] == f"r: invalid JMESPath {expression!r}: {explained}"


def _sandbox_problem() -> str | None:
    from itbench.sandbox.availability import SandboxUnavailable, bwrap_path

    try:
        bwrap_path()
    except SandboxUnavailable as exc:
        return str(exc)
    return None


def test_ansible_findings_carry_their_line(tmp_path):
    if reason := _sandbox_problem():
        pytest.skip(f"ANS001/ANS002 run in the bubblewrap sandbox: {reason}")
    (tmp_path / "conflict.yml").write_text(
        "- name: harden\n  hosts: all\n  tasks:\n    - name: set\n"
        "      ansible.builtin.lineinfile: {path: /etc/x, line: y}\n      notakeyword: 3\n"
    )
    code, findings = _lint(str(tmp_path / "conflict.yml"))
    assert code == 1
    (syntax,) = findings
    assert syntax["rule"] == "ANS001" and syntax["line"] == 4, syntax
    if (
        shutil.which("ansible-lint") is None
        and not (Path(sys.executable).parent / "ansible-lint").exists()
    ):
        pytest.skip("ANS002 needs ansible-lint, which is not installed")
    (tmp_path / "conflict.yml").unlink()
    (tmp_path / "unnamed.yml").write_text(
        "- hosts: all\n  tasks:\n    - shell: echo hi\n      changed_when: false\n"
    )
    code, findings = _lint(str(tmp_path / "unnamed.yml"))
    by_check = {f["message"].split(" ", 1)[0]: f["line"] for f in findings}
    assert by_check["[name[play]]"] == 1  # ansible-lint gives this one as positions.begin
    assert by_check["[fqcn[action-core]]"] == 3
    assert all(f["line"] is not None for f in findings), findings
