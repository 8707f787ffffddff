"""`itbench stats` reproduces ITBench's own published statistics number for number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._support.cli import SHARED, run_cli

SRE = SHARED / "corpora" / "itbench" / "sre"
SAMPLES = [
    SRE / "evaluations_sample" / "evaluation_results.json",
    SRE / "agentbeats_results" / "itbench-hub-20260130-221517.json",
    SRE / "agentbeats_results" / "itbench-hub-20260131-162603.json",
]


def _assert_same(original, recomputed, path="statistics"):
    if isinstance(original, dict):
        assert isinstance(recomputed, dict), path
        assert set(original) == set(recomputed), (
            f"{path}: keys differ: {set(original) ^ set(recomputed)}"
        )
        for key in original:
            _assert_same(original[key], recomputed[key], f"{path}.{key}")
    elif isinstance(original, bool) or original is None or isinstance(original, str):
        assert recomputed == original, path
    elif isinstance(original, int | float):
        assert isinstance(recomputed, int | float), path
        assert abs(original - recomputed) <= 1e-9, f"{path}: {original} != {recomputed}"
    else:
        assert recomputed == original, path


def _statistics(doc: dict) -> list[dict]:
    if "raw_results" in doc:
        return [doc["statistics"]]
    return [r["evaluation_results"]["statistics"] for r in doc["results"]]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_recomputed_statistics_equal_the_originals(sample: Path):
    if not sample.exists():
        pytest.skip(f"../shared is absent: {sample} not found")
    original = json.loads(sample.read_text())
    before = sample.read_bytes()
    proc = run_cli(["stats", str(sample)])
    assert proc.returncode == 0, proc.stderr
    recomputed = json.loads(proc.stdout)
    originals, news = _statistics(original), _statistics(recomputed)
    assert len(originals) == len(news) >= 1
    for old, new in zip(originals, news, strict=True):
        _assert_same(old, new)
    # everything but statistics is carried through unchanged
    if "raw_results" in original:
        assert recomputed["raw_results"] == original["raw_results"]
        assert recomputed["config"] == original["config"]
    else:
        assert recomputed["participants"] == original["participants"]
    assert sample.read_bytes() == before
