"""Object names in manifests loaded from files (issue 26, gap 2), through the real CLI.

A real API server refuses ``Bad_Name`` (422, ``metadata.name: Invalid value``), so:

- ``itbench cluster serve`` refuses to load it: exit 3, naming the file, the object and the field;
- a user scenario whose environment holds one is skipped with a warning naming the same (live mode
  could not deploy it, and the offline cluster would not load it), the other scenarios run;
- ``itbench kyverno apply`` evaluates it as the Kyverno CLI does: a dry run over files, with no API
  server to validate names.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests._support.cli import REPO, run_cli

BAD = "CI_Deployer"
FIELD = f'metadata.name: Invalid value: "{BAD}": a lowercase RFC 1123 subdomain'


def _with_bad_name(manifest: Path) -> None:
    text = manifest.read_text()
    assert "name: ci-deployer\n" in text
    manifest.write_text(text.replace("name: ci-deployer\n", f"name: {BAD}\n", 1))


def test_cluster_serve_refuses_an_invalid_name(tmp_path: Path):
    folder = tmp_path / "manifests"
    shutil.copytree(REPO / "ciso/suite/kubernetes/cis-k8s-5.1.1-cluster-admin/violating", folder)
    _with_bad_name(folder / "rbac.yaml")
    proc = run_cli(["cluster", "serve", str(folder)], timeout=60)
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout == ""
    assert f'{folder / "rbac.yaml"}: ServiceAccount "{BAD}" is invalid: {FIELD}' in proc.stderr


@pytest.mark.slow
def test_a_scenario_with_an_invalid_name_is_skipped_with_a_reason(tmp_path: Path):
    suite = tmp_path / "suite"
    for base in ("cis-k8s-5.1.1-cluster-admin", "cis-k8s-5.2.2-privileged"):
        shutil.copytree(REPO / "ciso/suite/kubernetes" / base, suite / base)
    bad = suite / "cis-k8s-5.1.1-cluster-admin" / "violating" / "rbac.yaml"
    _with_bad_name(bad)
    out = tmp_path / "run"
    proc = run_cli(
        ["ciso", "run", "--scenarios", str(suite), "--agent", "baseline", "--output", str(out),
         "--format", "json", "--no-progress"],
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert (
        f'warning: skipped scenario: cis-k8s-5.1.1-cluster-admin: {bad}: ServiceAccount "{BAD}": '
        f"{FIELD}"
    ) in proc.stderr, proc.stderr
    ran = {r["incident_id"].rpartition(".")[0] for r in json.loads(proc.stdout)["raw_results"]}
    assert ran == {"cis-k8s-5.2.2-privileged"}, ran


def test_kyverno_apply_evaluates_it_as_the_kyverno_cli_does(tmp_path: Path):
    resource = tmp_path / "pod.yaml"
    resource.write_text(
        f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {BAD}, namespace: default}}\n"
        "spec: {containers: [{name: c, image: nginx}]}\n"
    )
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {name: labels}\nspec:\n"
        "  rules:\n  - name: app\n    match: {any: [{resources: {kinds: [Pod]}}]}\n"
        "    validate: {message: m, pattern: {metadata: {labels: {app: '?*'}}}}\n"
    )
    proc = run_cli(["kyverno", "apply", str(policy), "--resource", str(resource), "--format",
                    "json"])  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    [result] = json.loads(proc.stdout)
    assert (result["name"], result["status"]) == (BAD, "fail"), result
