"""``itbench sre run --hide``: the observability ablation. The hidden sources are not in the
agent's workspace, the tools say they are hidden (not empty), the baseline sees less, and the
results document records what was hidden; for both tasks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from itbench.errors import InputError
from sre.agents.baseline.evidence import gather
from sre.generator.snapshot import write_incident
from sre.snapshot.hidden import MARKER, SourceHidden
from sre.tools import call
from sre.twin.suite import write_recipe
from tests._support.cli import run_cli


@pytest.fixture(scope="module")
def incident(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hide") / "incidents" / "Scenario-1"
    write_incident(folder, "network-delay", 7)
    return folder.parent


def _run(args: list[str], out: Path) -> dict:
    proc = run_cli(
        ["sre", "run", *args, "--output", str(out), "--format", "json", "--no-progress"],
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)


def test_hiding_traces_changes_what_the_baseline_sees(incident: Path, tmp_path: Path) -> None:
    seen = _run(["--scenarios", str(incident)], tmp_path / "all")
    hidden = _run(["--scenarios", str(incident), "--hide", "traces"], tmp_path / "no-traces")
    assert "hide" not in seen["config"]
    assert hidden["config"]["hide"] == ["traces"]

    full, ablated = tmp_path / "all" / "1" / "1", tmp_path / "no-traces" / "1" / "1"
    assert (full / "otel_traces_raw.tsv").is_file() and not (full / MARKER).exists()
    assert not (ablated / "otel_traces_raw.tsv").exists()
    assert (ablated / "otel_logs_raw.tsv").is_file()  # only what was asked is hidden
    assert json.loads((ablated / MARKER).read_text())["hidden"] == ["traces"]

    # the tools answer that the source is hidden, through the library and the CLI
    with pytest.raises(SourceHidden, match="traces are hidden in this trial"):
        call("get_trace_error_tree", {"trace_file": str(ablated / "otel_traces_raw.tsv")})
    proc = run_cli(["sre", "tool", "get_trace_error_tree", "--snapshot", str(ablated)])
    assert proc.returncode == 3 and "hidden in this trial" in proc.stderr, proc.stderr
    # a file simply missing (no marker) still says missing
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(InputError, match="missing from the snapshot"):
        call("get_trace_error_tree", {"trace_file": str(plain / "otel_traces_raw.tsv")})

    # the baseline read the trace error tree in one and was told it is hidden in the other
    with_traces, without = gather(full), gather(ablated)
    assert with_traces.paths and not without.paths
    assert any("hidden" in n for n in without.notes)
    assert not any("hidden" in n for n in with_traces.notes)


def test_hide_is_repeatable_and_checked(incident: Path, tmp_path: Path) -> None:
    doc = _run(
        ["--scenarios", str(incident), "--hide", "logs", "--hide", "metrics", "--hide", "events"],
        tmp_path / "run",
    )
    assert doc["config"]["hide"] == ["events", "logs", "metrics"]
    ws = tmp_path / "run" / "1" / "1"
    assert not (ws / "metrics").exists() and not (ws / "k8s_events_raw.tsv").exists()
    assert (ws / "otel_traces_raw.tsv").is_file()
    for tool, args in (
        ("event_analysis", {"events_file": str(ws / "k8s_events_raw.tsv")}),
        ("get_metric_anomalies", {"base_dir": str(ws / "metrics"), "k8_object_name": "cart"}),
    ):
        with pytest.raises(SourceHidden):
            call(tool, args)
    bad = run_cli(["sre", "run", "--scenarios", str(incident), "--hide", "alerts"])
    assert bad.returncode == 2 and "--hide" in bad.stderr


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_hide_applies_to_mitigation(tmp_path: Path) -> None:
    folder = tmp_path / "suite" / "Scenario-mitigate-network-policy"
    write_incident(folder, "network-policy", 42)
    write_recipe(folder, "network-policy", 42)
    doc = _run(
        ["--task", "mitigate", "--scenarios", str(folder.parent), "--hide", "traces"],
        tmp_path / "run",
    )
    assert doc["config"]["hide"] == ["traces"]
    (ws,) = [p.parent for p in (tmp_path / "run").glob("*/1/transcript.jsonl")]
    assert not (ws / "otel_traces_raw.tsv").exists() and (ws / MARKER).is_file()
