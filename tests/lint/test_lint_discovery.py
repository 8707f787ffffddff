"""Lint finds policies by content and skips the rest; `exclude` globs in the configuration and on
the command line (issue 27, item 2: a pre-commit hook that passes every staged YAML file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ciso.lint.discovery import Exclude, classify, meant_as_policy
from ciso.lint.model import TargetKind
from tests._support.cli import REPO, run_cli

FIXTURES = REPO / "tests" / "lint" / "fixtures"
HELM_TEMPLATE = """apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "chart.fullname" . }}
{{- if .Values.extra }}
data:
  {{- toYaml .Values.extra | nindent 2 }}
{{- end }}
"""
#: a Helm template of a Kyverno policy: a template, not a policy, until Helm renders it
HELM_POLICY_TEMPLATE = """{{- if .Values.policies.enabled }}
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: {{ .Values.name }}
{{- end }}
"""
BROKEN_POLICY = "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nspec: [\n"
BROKEN_PLAYBOOK = "- hosts: all\n  tasks: [\n"


def _lint(*args: str, cwd: Path | None = None) -> tuple[int, dict]:
    proc = run_cli(["lint", "-q", "--format", "json", *args], cwd=cwd, timeout=300)
    assert proc.stdout.startswith("{"), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.parametrize(
    ("name", "text", "policy"),
    [
        ("helm template", HELM_TEMPLATE, False),
        ("helm template of a policy", HELM_POLICY_TEMPLATE, False),
        ("unrelated broken YAML", "key: [unclosed\n", False),
        ("broken Kyverno policy", BROKEN_POLICY, True),
        ("broken playbook", BROKEN_PLAYBOOK, True),
    ],
)
def test_unparsable_yaml_is_a_finding_only_when_written_as_a_policy(name, text, policy):
    assert meant_as_policy(Path("x.yaml"), text) is policy


def test_kinds_come_from_content_not_extension(tmp_path):
    cases = {
        "policy.yaml": ((FIXTURES / "kyverno-pass.yaml").read_text(), TargetKind.KYVERNO_POLICY),
        "playbook.yml": ((FIXTURES / "ansible-pass.yml").read_text(), TargetKind.ANSIBLE),
        "values.yaml": ("replicas: 2\nimage: nginx\n", TargetKind.UNKNOWN),
        "deployment.yaml": ("apiVersion: apps/v1\nkind: Deployment\n", TargetKind.UNKNOWN),
        "chart-template.yaml": (HELM_TEMPLATE, TargetKind.UNKNOWN),
    }
    for name, (text, kind) in cases.items():
        (tmp_path / name).write_text(text)
        assert classify(tmp_path / name).kind is kind, name


def test_a_helm_template_and_other_yaml_are_skipped_not_errors(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "configmap.yaml").write_text(HELM_TEMPLATE)
    (tmp_path / "templates" / "policy.yaml").write_text(HELM_POLICY_TEMPLATE)
    (tmp_path / "values.yaml").write_text("replicas: 2\n")
    (tmp_path / "good.yaml").write_text((FIXTURES / "kyverno-pass.yaml").read_text())
    (tmp_path / "broken.yaml").write_text(BROKEN_POLICY)
    # given by name, as pre-commit passes staged files
    names = ["templates/configmap.yaml", "templates/policy.yaml", "values.yaml", "good.yaml"]
    code, doc = _lint(*names, cwd=tmp_path)
    assert code == 0, doc
    assert doc["findings"] == []
    assert doc["summary"]["files"] == 1 and doc["summary"]["skipped"] == 3
    assert sorted(doc["skipped"]) == sorted(names[:3])

    code, doc = _lint(".", cwd=tmp_path)  # a folder: the same, and the broken policy is reported
    assert code == 1
    assert [(f["file"], f["rule"]) for f in doc["findings"]] == [("broken.yaml", "GEN001")]
    assert len(doc["skipped"]) == 3


def test_text_summary_counts_skipped_files(tmp_path):
    (tmp_path / "values.yaml").write_text("replicas: 2\n")
    (tmp_path / "good.yaml").write_text((FIXTURES / "kyverno-pass.yaml").read_text())
    proc = run_cli(["lint", "-q", "values.yaml", "good.yaml"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == (
        "1 file(s): 0 error(s), 0 warning(s), 0 info; 1 skipped (no policy)"
    )


@pytest.mark.parametrize(
    ("patterns", "path", "excluded"),
    [
        (("templates",), "charts/app/templates/x.yaml", True),
        (("*.tpl.yaml",), "a/b/x.tpl.yaml", True),
        (("*.tpl.yaml",), "a/b/x.yaml", False),
        (("charts/*",), "charts/app/x.yaml", True),
        (("charts/*",), "other/charts/x.yaml", False),
        (("./charts/",), "charts/x.yaml", True),
        (("policies/legacy",), "policies/legacy/old.rego", True),
        (("policies/legacy",), "policies/legacy-2/new.rego", False),
    ],
)
def test_exclude_globs(tmp_path, patterns, path, excluded):
    assert Exclude(patterns, tmp_path)(tmp_path / path) is excluded


def test_exclude_from_configuration_and_command_line(tmp_path):
    (tmp_path / "policies").mkdir()
    (tmp_path / "legacy").mkdir()
    (tmp_path / "policies" / "bad.rego").write_text("package p\n\nallow if {\n")
    (tmp_path / "legacy" / "bad.rego").write_text("package p\n\nallow if {\n")
    (tmp_path / "pyproject.toml").write_text('[tool.itbench.lint]\nexclude = ["legacy/*"]\n')
    code, doc = _lint(".", cwd=tmp_path)
    assert code == 1
    assert [f["file"] for f in doc["findings"]] == ["policies/bad.rego"]
    # a file given by name is excluded too (pre-commit passes each staged file)
    code, doc = _lint("legacy/bad.rego", "policies/bad.rego", "--exclude", "policies", cwd=tmp_path)
    assert code == 0 and doc["findings"] == [] and doc["summary"]["files"] == 0


def test_exclude_must_be_a_list_of_globs(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.itbench.lint]\nexclude = "legacy/*"\n')
    proc = run_cli(["lint", "-q", "."], cwd=tmp_path)
    assert proc.returncode == 2
    assert "exclude must be a list of glob strings" in proc.stderr
