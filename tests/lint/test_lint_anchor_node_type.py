"""KYV002 on anchors of the wrong node type (issue 27): an existence anchor on a map, which
Kyverno then applies by failing compliant Pods, with a message that names the field only."""

from __future__ import annotations

import json
from pathlib import Path

from tests._support.cli import REPO, run_cli

FIXTURE = REPO / "tests" / "lint" / "fixtures" / "kyverno-fail-anchor-existence-map.yaml"
COMPLIANT = """apiVersion: v1
kind: Pod
metadata: {name: ok, namespace: default}
spec:
  containers: [{name: c, image: nginx, securityContext: {privileged: false}}]
"""


def test_existence_anchor_on_a_map_is_an_error_and_on_a_list_is_not() -> None:
    proc = run_cli(["lint", "-q", "--format", "json", str(FIXTURE)])
    assert proc.returncode == 1, proc.stderr
    (finding,) = json.loads(proc.stdout)["findings"]  # ^(initContainers) holds a list: fine
    assert (finding["rule"], finding["line"]) == ("KYV002", 19)
    assert "existence anchor '^(securityContext)' takes a list" in finding["message"]
    assert "'=(securityContext)'" in finding["message"]


def test_the_engine_fails_a_compliant_pod_with_it(tmp_path: Path) -> None:
    """Why it is an error: applied, the policy fails a Pod that complies."""
    (tmp_path / "pod.yaml").write_text(COMPLIANT)
    proc = run_cli(
        ["kyverno", "apply", str(FIXTURE), "--resource", str(tmp_path / "pod.yaml"),
         "--format", "json"],
    )  # fmt: skip
    (result,) = json.loads(proc.stdout)
    assert result["status"] == "fail", result
    assert "failed at path /spec/containers/0/securityContext/" in result["message"]
