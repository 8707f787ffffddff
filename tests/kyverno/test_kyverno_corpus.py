"""Agreement with the Kyverno policy library's own tests must not drop below the recorded figure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ciso.engines.kyverno.testrunner import run_tests
from tests._support.cli import SHARED, run_cli

CORPUS = SHARED / "corpora" / "kyverno-policies"
RATCHET = json.loads((Path(__file__).parent / "corpus_ratchet.json").read_text())
CATEGORIES = [k for k in RATCHET if not k.startswith("_")]


@pytest.mark.parametrize("category", CATEGORIES)
def test_agreement_does_not_drop(category):
    if not CORPUS.exists():
        pytest.skip(f"../shared is absent: {CORPUS} not found")
    report = run_tests([CORPUS / category])
    summary = report.summary()
    if RATCHET[category] is None:
        # every expectation skipped: no figure, and the verdict says nothing was evaluated
        assert report.agreement() is None and report.evaluated() == 0, summary
        assert summary["skipped"] > 0, summary
        verdict = report.verdict()
        assert not verdict.ok and verdict.problems[0].startswith("nothing evaluated"), verdict
        assert report.verdict(allow_empty=True).ok
        return
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
    assert doc["agreement"] == 1.0 and doc["verdict"] == {
        "ok": True,
        "problems": [],
        "warnings": [],
    }
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


def test_the_benchmark_reports_null_for_a_category_with_nothing_evaluated():
    if not CORPUS.exists():
        pytest.skip(f"../shared is absent: {CORPUS} not found")
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "kyverno_corpus.py"
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=600, check=True
    )
    categories = json.loads(out.stdout)["categories"]
    for name, expected in RATCHET.items():
        if name.startswith("_"):
            continue
        if expected is None:
            assert categories[name]["agreement"] is None, (name, categories[name])
            assert categories[name]["verdict"].startswith("nothing evaluated"), name
        else:
            assert categories[name]["agreement"] >= expected, (name, categories[name])
