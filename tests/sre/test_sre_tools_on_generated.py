"""The tools diagnose incidents from ``itbench sre generate`` (the generator is written beside
them and agrees with them only through the formats doc): the faulty spec change is found and the
error tree points at the faulty service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests._support.cli import run_cli

generator = pytest.importorskip("sre.generator", reason="the incident generator is not installed")


def _generate(tmp_path: Path, fault: str, cache: Path) -> tuple[Path, dict]:
    import os

    out = tmp_path / "gen"
    p = run_cli(["sre", "generate", "--fault", fault, "--seed", "3", "--out", str(out)],
                env={**os.environ, "ITBENCH_CACHE_DIR": str(cache)})  # fmt: skip
    assert p.returncode == 0, p.stderr
    snapshot = next(out.iterdir())
    truth = yaml.safe_load((snapshot / "ground_truth.yaml").read_text())
    return snapshot, truth.get("spec", truth)


def test_nonexistent_image_incident_is_diagnosed(tmp_path: Path, private_cache: Path):
    from sre.tools import call

    snapshot, truth = _generate(tmp_path, "nonexistent-image", private_cache)
    root = next(g for g in truth["groups"] if g.get("root_cause") and g["kind"] == "Deployment")
    name = root["name"]
    changes = call(
        "k8s_spec_change_analysis", {"k8s_objects_file": str(snapshot / "k8s_objects_raw.tsv")}
    )
    entity = f"{root['namespace']}/Deployment/{name}"
    assert entity in changes["entity_order"]
    # the spec edit; the original's metadata windows (the resourceVersion bump) come first
    windows = changes["entities"][entity]["changes_detected"].values()
    (window,) = [w for w in windows if w["change"] == "modified"]
    assert [i["path"] for i in window["changes"]] == ["spec.template.spec.containers[0].image"]
    tree = call("get_trace_error_tree", {"trace_file": str(snapshot / "otel_traces_raw.tsv")})
    critical = [c for c in tree["span_critical_paths"] if c["severity"] == "CRITICAL"]
    assert critical and {c["root_cause_suspect"]["service"] for c in critical} == {name}
    events = call(
        "event_analysis",
        {"events_file": str(snapshot / "k8s_events_raw.tsv"), "filters": {"event_kind": "Warning"},
         "group_by": "deployment"},
    )  # fmt: skip
    assert name in [d["deployment"] for d in events["data"]]
    assert json.dumps(changes)  # the answer is plain JSON
