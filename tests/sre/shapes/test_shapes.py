"""The baseline and the SRE tools on snapshots that differ from our generator's (issue 28, items
2 and 3): faults whose evidence is a state or a metric rather than a change, and every source in
the shapes other exporters write. The snapshots are the hand-written shop of ``world.py``; each
case and shape is asserted on its own."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
from pathlib import Path

import pytest

from sre.tools.k8s_spec_change_analysis import METADATA_CHANGES
from tests._support.cli import REPO, run_cli
from tests.sre.shapes.world import CASES, Shape, pod_name, write

#: every encoding, one shape each (several sources differ at once where they are independent)
SHAPES = {
    "v0.2 TSV": Shape(),
    "OTLP JSON traces, JSON-lines logs and events, Alertmanager v2 alerts": Shape(
        traces="otlp", logs="jsonl", events="jsonl", alerts="alertmanager"
    ),
    "OTLP JSON lines, gzip logs, Alertmanager groups": Shape(
        traces="otlp-lines", logs="jsonl-gz", alerts="alertmanager-groups"
    ),
    "Jaeger JSON traces, plain-text logs": Shape(traces="jaeger", logs="text"),
    "traces without a ParentSpanId column": Shape(traces="tsv-no-parent"),
    "traces whose roots name a parent never exported": Shape(traces="tsv-orphan-roots"),
    "Jaeger traces naming callees by cluster DNS name": Shape(
        traces="jaeger", peer="server.address"
    ),
    "OTLP traces naming callees by host:port": Shape(traces="otlp", peer="net.peer.name"),
    "objects as one kubectl List (times from managedFields)": Shape(objects="list-json"),
}


def _root_causes(snapshot: Path) -> tuple[list[str], tuple[str, ...]]:
    from sre.agents.baseline import diagnose

    diagnosis = diagnose(snapshot)
    return [e["name"] for e in diagnosis.entities if e["contributing_factor"]], diagnosis.notes


@pytest.mark.parametrize("case", sorted(CASES))
def test_baseline_names_the_root_cause(private_cache: Path, tmp_path: Path, case: str):
    got, _ = _root_causes(write(tmp_path / case, CASES[case]))
    assert got == [CASES[case].expected]


@pytest.mark.parametrize("case", sorted(CASES))
def test_baseline_without_any_visible_change(private_cache: Path, tmp_path: Path, case: str):
    """Objects observed once, after the fault: no change to rank, only the states they show
    (the waiting pod, the OOMKilled last state, replicas 0, the wrong targetPort, the closed
    policy, the flag switched on) and the throttling metrics."""
    snapshot = write(tmp_path / case, CASES[case], Shape(single_observation=True))
    got, _ = _root_causes(snapshot)
    assert got == [CASES[case].expected]


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("case", ["bad-image", "network-policy", "cpu-throttling"])
def test_baseline_reads_every_encoding(private_cache: Path, tmp_path: Path, case: str, shape: str):
    got, notes = _root_causes(write(tmp_path / "snap", CASES[case], SHAPES[shape]))
    assert got == [CASES[case].expected], notes


def test_bad_image_blames_the_failing_pod_not_its_callers(private_cache: Path, tmp_path: Path):
    from sre.agents.baseline import diagnose

    diagnosis = diagnose(write(tmp_path / "snap", CASES["bad-image"]))
    root = diagnosis.entities[0]
    assert root["name"] == "shop/Deployment/basket"
    assert "ImagePullBackOff" in root["evidence"]
    # the caller is on the chain, not a root cause
    assert {"name": "shop/Service/web", "contributing_factor": False}.items() <= {
        k: v for e in diagnosis.entities if e["name"] == "shop/Service/web" for k, v in e.items()
    }.items()


def test_bad_image_from_events_when_the_objects_hold_no_pods(private_cache: Path, tmp_path: Path):
    shape = Shape(pods_in_objects=False, traces="otlp")
    got, _ = _root_causes(write(tmp_path / "snap", CASES["bad-image"], shape))
    assert got == ["shop/Deployment/basket"]


def test_throttling_without_metrics_names_the_slow_service_and_says_why(
    private_cache: Path, tmp_path: Path
):
    snapshot = write(tmp_path / "snap", CASES["cpu-throttling"], Shape(metrics=False))
    got, notes = _root_causes(snapshot)
    assert got == ["shop/Service/catalog"]  # the trace tree's slow service, no more
    assert any("metrics" in n and "missing" in n for n in notes), notes


def test_a_routine_deny_policy_is_not_blamed_when_nothing_fails_behind_it(
    private_cache: Path, tmp_path: Path
):
    """A closed NetworkPolicy whose application answers is not a root cause (the throttling
    incident with such a policy on web still names catalog)."""
    from dataclasses import replace

    from tests.sre.shapes.world import _policy

    case = replace(CASES["cpu-throttling"], objects_before=(_policy("web-quiet", "store"),))
    case = replace(case, objects_after=case.objects_before)
    got, _ = _root_causes(write(tmp_path / "snap", case))
    assert got == ["shop/Deployment/catalog"]


# ---- the tools ---------------------------------------------------------------------------------


def _tool(name: str, snapshot: Path, **arguments):
    from sre.snapshot_args import with_snapshot_defaults
    from sre.tools import run_tool, tool_specs

    return run_tool(name, with_snapshot_defaults(tool_specs()[name], arguments, snapshot))


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_tool_reads_every_encoding(private_cache: Path, tmp_path: Path, shape: str):
    snapshot = write(tmp_path / "snap", CASES["target-port"], SHAPES[shape])
    tree = _tool("get_trace_error_tree", snapshot, pivot_time="2026-03-01T10:15:00Z").body
    suspects = {
        (c.get("root_cause_suspect") or {}).get("service") for c in tree["span_critical_paths"]
    }
    assert "basket" in suspects, tree["span_critical_paths"]
    logs = _tool("log_analysis", snapshot).body
    assert logs["total_logs"] == 240  # 4 services x 60 half-minutes
    events = _tool("event_analysis", snapshot).body
    assert events["total_count"] == 4
    assert not any("uid" in json.dumps(r) for r in events["data"])
    alerts = _tool("alert_summary", snapshot).body
    assert [(a["alertname"], a["entity"], a["state"]) for a in alerts] == [
        ("HighErrorRate", "web", "firing")
    ]
    assert alerts[0]["first_seen"] == "2026-03-01 10:20:00"
    assert _tool("alert_analysis", snapshot).body["total_count"] == 2
    spec = _tool("get_k8_spec", snapshot, k8_object_name="Service/basket").body
    assert spec["spec"]["spec"]["selector"] == {"app.kubernetes.io/name": "basket"}
    changes = _tool("k8s_spec_change_analysis", snapshot).body
    if SHAPES[shape].objects == "tsv":
        # spec changes only: the original's resourceVersion/deletion changes say any write
        spec_changed = [
            e["entity"] for e in changes["entities_with_changes"]
            if any(c["change"] not in METADATA_CHANGES for c in e["changes"])
        ]  # fmt: skip
        assert spec_changed == ["shop/Service/basket"]
    else:  # one observation: nothing to compare, every object is listed as observed
        assert changes["total_entities_observed"] == 12
    metrics = _tool("metric_analysis", snapshot, k8_object_name=f"pod/{pod_name('basket')}").body
    assert {m["metric_name"] for m in metrics} >= {"container_cpu_cfs_periods_total"}
    contract = _tool("get_context_contract", snapshot, k8_object="shop/Service/basket").body
    assert contract["entity"] == "shop/Service/basket"


def test_metric_tools_say_the_metrics_are_missing(private_cache: Path, tmp_path: Path):
    from itbench.errors import InputError

    snapshot = write(tmp_path / "snap", CASES["target-port"], Shape(metrics=False))
    with pytest.raises(InputError, match="metrics folder is missing from the snapshot"):
        _tool("metric_analysis", snapshot, k8_object_name="basket")
    # metrics for some services only: the others' absence is said, not an empty answer alone
    snapshot = write(tmp_path / "zero", CASES["scaled-to-zero"])
    answer = _tool("get_metric_anomalies", snapshot, k8_object_name="catalog")
    assert answer.body == "No metric files found for catalog"  # the original's sentence
    assert answer.warnings == (f"no metrics file for 'catalog' in {snapshot / 'metrics'}",)


def test_a_pod_labelled_alert_blames_the_pods_application(private_cache: Path, tmp_path: Path):
    from sre.agents.baseline.evidence import gather
    from sre.agents.baseline.rank import blame

    signals = blame(gather(write(tmp_path / "snap", CASES["bad-image"])))
    assert signals["basket"]["alert"] == f"alert KubePodNotReady on {pod_name('basket')}"


def _env(cache: Path) -> dict[str, str]:
    return {**os.environ, "ITBENCH_CACHE_DIR": str(cache)}


def test_cli_reads_jaeger_traces_and_refuses_what_it_cannot_read(
    private_cache: Path, tmp_path: Path
):
    snapshot = write(tmp_path / "snap", CASES["scaled-to-zero"], Shape(traces="jaeger"))
    p = run_cli(
        ["sre", "tool", "get_trace_error_tree", "--snapshot", str(snapshot),
         "--pivot_time", "2026-03-01T10:15:00Z"],
        env=_env(private_cache),
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    paths = {c["path"]: c["severity"] for c in json.loads(p.stdout)["span_critical_paths"]}
    assert paths["web → catalog"] == "CRITICAL"
    (snapshot / "jaeger_traces.json").write_text(json.dumps({"spans": [{"id": 1}]}))
    p = run_cli(
        ["sre", "tool", "get_trace_error_tree", "--snapshot", str(snapshot)],
        env=_env(private_cache),
    )
    assert p.returncode == 3
    assert "jaeger_traces.json: JSON, but neither OTLP (resourceSpans), Jaeger" in p.stderr
    assert "Traceback" not in p.stderr


def test_mcp_reads_otlp_traces(private_cache: Path, tmp_path: Path):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    snapshot = write(tmp_path / "snap", CASES["network-policy"], Shape(traces="otlp"))
    exe = str(REPO / ".venv/bin/itbench") if (REPO / ".venv/bin/itbench").exists() else "itbench"
    params = StdioServerParameters(
        command=exe, args=["sre", "mcp", "--snapshot", str(snapshot)], env=_env(private_cache)
    )

    async def session() -> dict:
        async with stdio_client(params) as (read, write_), ClientSession(read, write_) as s:
            await s.initialize()
            result = await s.call_tool(
                "get_trace_error_tree", {"pivot_time": "2026-03-01T10:15:00Z"}
            )
            assert not result.is_error, result.content[0].text
            return json.loads(result.content[0].text)

    tree = asyncio.run(asyncio.wait_for(session(), timeout=120))
    bad = [c for c in tree["span_critical_paths"] if c["path"] == "web → basket"]
    assert bad and bad[0]["sample_errors"] == ["dial tcp 10.1.2.3:80: i/o timeout"]


# ---- sre run on Scenario-N folders in other shapes, with flat ground truth ----------------------


def _flat_truth(entity: str) -> str:
    namespace, kind, name = entity.split("/")
    return (
        "groups:\n"
        f"  - {{id: root, kind: {kind}, namespace: {namespace}, name: {name}, root_cause: true}}\n"
        "aliases: []\npropagations: []\nfault: []\nalerts: []\n"
    )


def test_sre_run_scores_scenario_folders_in_other_shapes(private_cache: Path, tmp_path: Path):
    suite = tmp_path / "suite"
    chosen = {
        "Scenario-1": ("bad-image", Shape(traces="otlp", logs="text", single_observation=True)),
        "Scenario-2": ("network-policy", Shape(traces="jaeger", metrics=False)),
        "Scenario-3": ("flag-flip", Shape(events="jsonl", alerts="alertmanager")),
    }
    for folder, (case, shape) in chosen.items():
        snapshot = write(suite / folder, CASES[case], shape)
        (snapshot / "ground_truth.yaml").write_text(_flat_truth(CASES[case].expected))
    from sre.agents.scenarios import snapshot_scenarios

    scenarios = snapshot_scenarios(suite)
    assert "traces.otlp.json" in scenarios[0].inputs
    assert "jaeger_traces.json" in scenarios[1].inputs
    assert all("ground_truth.yaml" not in s.inputs for s in scenarios)
    p = run_cli(
        ["sre", "run", "--agent", "baseline", "--scenarios", str(suite), "--format", "json",
         "--output", str(tmp_path / "run")],
        env=_env(private_cache), timeout=600,
    )  # fmt: skip
    assert p.returncode in (0, 1), p.stderr
    raw = {r["incident_id"]: r for r in json.loads(p.stdout)["raw_results"]}
    for scenario in scenarios:
        scores = raw[scenario.id]["scores"]
        assert scores["root_cause_entity"]["calculation_f1"] == 1.0, (scenario.id, scores)


# ---- the converter on its own ------------------------------------------------------------------


def test_plain_text_logs_keep_continuation_lines(tmp_path: Path):
    from sre.snapshot.foreign import canonical

    log = tmp_path / "cart.log"
    log.write_text(
        "2026-03-01T10:00:00Z ERROR boom\n  at Foo.bar(Foo.java:1)\n"
        "2026-03-01 10:00:01,250 INFO [cart] ok\n"
    )
    out = canonical(log, "logs", tmp_path)
    rows = [line.split("\t") for line in out.path.read_text().splitlines()]
    assert rows[1][0] == "2026-03-01 10:00:00" and rows[1][6] == "boom at Foo.bar(Foo.java:1)"
    assert rows[1][5] == "cart"  # the file's name names the service
    assert rows[2][0] == "2026-03-01 10:00:01.250" and rows[2][3] == "INFO"
    assert out.shape == "plain-text log lines"


def test_unreadable_sources_are_refused_with_the_file_and_line(tmp_path: Path):
    from itbench.errors import InputError
    from sre.snapshot.foreign import canonical

    events = tmp_path / "events.jsonl"
    events.write_text('{"reason": "A", "lastTimestamp": "2026-03-01T10:00:00Z"}\n{oops\n')
    with pytest.raises(InputError, match=r"events.jsonl:2: not a JSON line"):
        canonical(events, "events", tmp_path)
    text = tmp_path / "traces.txt"
    text.write_text("no spans here\n")
    with pytest.raises(InputError, match="not readable as traces: expected a TSV"):
        canonical(text, "traces", tmp_path)
    timeless = tmp_path / "objects.json"
    timeless.write_text(json.dumps([{"kind": "Pod", "metadata": {"name": "p"}}]))
    with pytest.raises(InputError, match="objects record Pod/p has no time"):
        canonical(timeless, "objects", tmp_path)
    empty = tmp_path / "traces.json"
    empty.write_text('{"resourceSpans": []}')
    with pytest.raises(InputError, match="read as OTLP JSON traces, but it holds no traces"):
        canonical(empty, "traces", tmp_path)


def test_a_gzip_tsv_is_read_as_the_tsv(tmp_path: Path):
    from sre.snapshot.foreign import canonical

    tsv = "Timestamp\tBody\n2026-03-01 10:00:00\t{}\n"
    source = tmp_path / "k8s_events_raw.tsv.gz"
    source.write_bytes(gzip.compress(tsv.encode()))
    out = canonical(source, "events", tmp_path)
    assert out.path.read_text() == tsv and out.shape == "gzip TSV"
    plain = tmp_path / "plain.tsv"
    plain.write_text(tsv)
    assert canonical(plain, "events", tmp_path).path == plain  # never copied


def test_hiding_a_source_hides_it_in_every_shape(private_cache: Path, tmp_path: Path):
    """``sre run --hide traces`` on a snapshot whose traces are OTLP JSON leaves them out too."""
    from sre.agents.scenarios import snapshot_scenarios, without_hidden
    from sre.snapshot.hidden import MARKER

    snapshot = write(tmp_path / "suite" / "Scenario-1", CASES["target-port"], Shape(
        traces="otlp", logs="text", events="jsonl"))  # fmt: skip
    (snapshot / "ground_truth.yaml").write_text(_flat_truth(CASES["target-port"].expected))
    scenarios = snapshot_scenarios(tmp_path / "suite")
    assert {"traces.otlp.json", "app_logs.txt", "k8s_events.jsonl"} <= set(scenarios[0].inputs)
    (hidden,) = without_hidden(scenarios, frozenset({"traces", "logs"}), tmp_path / "run")
    assert sorted(hidden.inputs) == sorted(
        ["alerts", "metrics", "k8s_objects_raw.tsv", "k8s_events.jsonl", MARKER]
    )
