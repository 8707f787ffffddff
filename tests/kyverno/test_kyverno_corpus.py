"""Agreement with the Kyverno policy library's own tests must not drop below the recorded figure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SHARED, run_cli

from ciso.engines.kyverno.testrunner import run_tests

CORPUS = SHARED / "corpora" / "kyverno-policies"
RATCHET = json.loads((Path(__file__).parent / "corpus_ratchet.json").read_text())
CATEGORIES = [k for k in RATCHET if not k.startswith("_")]


@pytest.mark.parametrize("category", CATEGORIES)
def test_agreement_does_not_drop(category):
    if not CORPUS.exists():
        pytest.skip(f"../shared is absent: {CORPUS} not found")
    report = run_tests([CORPUS / category])
    summary = report.summary()
    assert report.agreement() >= RATCHET[category], (category, summary)
    # every expectation of these categories is met: no disagreement, no unsupported feature
    if RATCHET[category] == 1.0:
        assert summary["failed"] == summary["excluded"] == summary["errors"] == 0, summary
        not_met = [
            e
            for f in report.files
            for e in f.expectations
            if e.outcome not in ("passed", "skipped")
        ]
        assert not_met == [], not_met[:5]


def test_cli_json_shape_on_the_corpus():
    if not CORPUS.exists():
        pytest.skip(f"../shared is absent: {CORPUS} not found")
    proc = run_cli(
        ["kyverno", "test", str(CORPUS / "pod-security" / "baseline"), "--format", "json"],
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    doc = json.loads(proc.stdout)
    assert set(doc["summary"]) == {"passed", "failed", "excluded", "skipped", "errors"}
    first = doc["tests"][0]["results"][0]
    assert set(first) >= {
        "policy",
        "rule",
        "resource",
        "kind",
        "expected",
        "actual",
        "ok",
        "reason",
    }
    assert doc["summary"]["passed"] > 300 and doc["summary"]["failed"] == 0
