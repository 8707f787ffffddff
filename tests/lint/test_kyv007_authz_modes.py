"""KYV007 on ValidatingPolicies in Envoy or HTTP evaluation mode: they bind an authorization
request and Kyverno's envoy/http/jwt libraries, which the engine does not provide, so they are
syntax-checked only (before, every `envoy.Allowed().Response()` was reported as an unknown
function: 24 false errors over Kyverno's own test/cli policies)."""

from __future__ import annotations

import json

from tests._support.cli import run_cli

POLICY = """apiVersion: policies.kyverno.io/v1alpha1
kind: ValidatingPolicy
metadata: {name: envoy-allow}
spec:
  evaluation: {mode: MODE}
  validations:
  - expression: envoy.Allowed().Response()
"""


def test_authorization_policies_are_syntax_checked_only(tmp_path):
    for mode in ("Envoy", "HTTP"):
        path = tmp_path / f"{mode}.yaml"
        path.write_text(POLICY.replace("MODE", mode))
        proc = run_cli(["lint", "-q", "--format", "json", str(path)])
        assert json.loads(proc.stdout)["findings"] == [], (mode, proc.stdout)
        broken = tmp_path / f"{mode}-broken.yaml"
        broken.write_text(POLICY.replace("MODE", mode).replace("Response()", "Response("))
        proc = run_cli(["lint", "-q", "--format", "json", str(broken)])
        assert [f["rule"] for f in json.loads(proc.stdout)["findings"]] == ["KYV007"]
    # in Kubernetes mode the same expression is a type error
    path = tmp_path / "kubernetes.yaml"
    path.write_text(POLICY.replace("  evaluation: {mode: MODE}\n", ""))
    proc = run_cli(["lint", "-q", "--format", "json", str(path)])
    messages = [f["message"] for f in json.loads(proc.stdout)["findings"]]
    assert any("undeclared reference to 'envoy'" in m for m in messages), messages
