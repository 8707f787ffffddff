"""KYV006 (info) names, per context entry kind, what a Kyverno CLI Test may give offline in place of
the cluster or registry (values, apiCallResponses, clusterResources, globalContextEntries)."""

from __future__ import annotations

import json

import pytest

from tests._support.cli import run_cli


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            "apiCall: {urlPath: /api/v1/pods}",
            "r: context.apiCall needs the test's values, apiCallResponses or clusterResources offline",
        ),
        (
            "imageRegistry: {reference: nginx}",
            "r: context.imageRegistry needs the test's values offline",
        ),
        (
            "globalReference: {name: g}",
            "r: context.globalReference needs the test's values or globalContextEntries offline",
        ),
    ],
)
def test_each_context_entry_names_what_stands_in_for_it_offline(tmp_path, entry, message):
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {name: p}\nspec:\n  rules:\n"
        "    - name: r\n      match: {any: [{resources: {kinds: [Pod]}}]}\n"
        f"      context: [{{name: x, {entry}}}]\n"
        "      validate: {message: m, deny: {}}\n"
    )
    proc = run_cli(["lint", "--format", "json", str(policy)])
    infos = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "KYV006"]
    assert [(f["severity"], f["message"], f["line"]) for f in infos] == [("info", message, 6)]
