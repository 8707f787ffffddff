"""The tools through ``itbench sre tool`` and through a real MCP client session against
``itbench sre mcp`` (the ``mcp`` package's stdio client), and the plugin's place in core."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests._support.cli import REPO, SHARED, run_cli
from tests._support.sre import SRE_INCIDENT as INCIDENT

ARCH = SHARED / "corpora/itbench/sre/app_topology/architecture.json"


def _env(cache: Path) -> dict[str, str]:
    return {**os.environ, "ITBENCH_CACHE_DIR": str(cache)}


def test_cli_tool_prints_the_answer_as_json(private_cache: Path):
    p = run_cli(
        ["sre", "tool", "k8s_spec_change_analysis", "--snapshot", str(INCIDENT),
         "--k8_object_name", "checkout", "--include-flat-change-items", "true"],
        env=_env(private_cache),
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["entity_order"] == ["otel-demo/Deployment/checkout"]
    items = doc["entities_with_changes"][0]["change_items"]
    assert "spec.template.spec.containers[0].image" in [i["path"] for i in items]
    assert "warnings" not in doc  # they go to stderr, not into the original's shape
    assert "k8s_objects_raw.tsv:13: Body is not a JSON object" in p.stderr


def test_cli_json_arguments_and_trace_tree(private_cache: Path):
    p = run_cli(
        ["sre", "tool", "get_trace_error_tree", "--snapshot", str(INCIDENT),
         "--pivot_time", "2025-12-12T02:20:30Z", "--delta_time", "15m", "--error_threshold_pct", "20"],
        env=_env(private_cache),
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["span_critical_paths"][0]["root_cause_suspect"]["service"] == "checkout"
    assert doc["_description"]["time_windows"]["pre"].startswith("[2025-12-12T02:05:30Z")


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["sre", "tool", "nope"], 2, "unknown tool 'nope'; available: alert_analysis"),
        (["sre", "tool", "alert_summary", "--snapshot", str(INCIDENT), "--limt", "3"], 2,
         "unknown argument of alert_summary 'limt'"),
        (["sre", "tool", "alert_summary", "--snapshot", str(INCIDENT), "--limit", "x"], 2,
         "alert_summary: limit: Input should be a valid integer"),
        (["sre", "tool", "event_analysis", "--snapshot", str(INCIDENT / "alerts")], 3,
         "alerts/k8s_events_raw.tsv: the events file is missing from the snapshot"),
        (["sre", "tool", "build_topology", "--snapshot", str(INCIDENT)], 2,
         "build_topology: arch_file: Field required"),
    ],
)  # fmt: skip
def test_cli_errors_are_one_located_message(private_cache: Path, args, code, message):
    p = run_cli(args, env=_env(private_cache))
    assert p.returncode == code
    assert message in p.stderr and "Traceback" not in p.stderr
    assert p.stdout == ""


#: arguments beyond the snapshot's files, and what each answer must contain
MCP_CALLS = {
    "alert_summary": ({}, lambda d: d[0]["alertname"] in {"RequestErrorRate", "KubeJobFailed"}),
    "alert_analysis": ({"group_by": "labels.alertname"}, lambda d: d["total_count"] == 2),
    "event_analysis": ({"filters": {"event_kind": "Warning"}}, lambda d: d["total_count"] == 3),
    "metric_analysis": ({"object_pattern": "pod/*"}, lambda d: len(d) == 3),
    "get_metric_anomalies": (
        {"k8_object_name": "pod/checkout-6f7b9c-x2k4q", "raw_content": False},
        lambda d: d["metrics"][0]["anomalies"][0]["value"] == 0.95,
    ),
    "get_trace_error_tree": (
        {"pivot_time": "2025-12-12T02:20:30Z", "delta_time": "15m"},
        lambda d: d["span_critical_paths"][0]["root_cause_suspect"]["service"] == "checkout",
    ),
    "log_analysis": ({"severity_filter": "ERROR"}, lambda d: d["patterns"][0]["count"] == 8),
    "k8s_spec_change_analysis": (
        {}, lambda d: d["entity_order"][0] == "otel-demo/Deployment/checkout",
    ),
    "get_k8_spec": (
        {"k8_object_name": "otel-demo/Deployment/checkout"},
        lambda d: "checkout-2.0.0-missing" in json.dumps(d["spec"]),
    ),
    "get_context_contract": (
        {"k8_object": "checkout"}, lambda d: d["alerts"]["items"][0]["entity"] == "checkout",
    ),
}  # fmt: skip


@pytest.mark.skipif(not ARCH.exists(), reason=f"{ARCH} is absent (../shared not mounted)")
def test_mcp_session_lists_and_calls_every_tool(private_cache: Path, tmp_path: Path):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    from sre.tools import TOOL_NAMES

    topology = tmp_path / "topology.json"
    calls = dict(MCP_CALLS)
    calls["build_topology"] = (
        {"arch_file": str(ARCH), "output_file": str(topology)}, lambda d: "- is_alias: 2" in d,
    )  # fmt: skip
    calls["topology_analysis"] = (
        {"topology_file": str(topology), "entity": "Service/checkout"},
        lambda d: d["callers"] == ["frontend"],
    )
    assert sorted(calls) == sorted(TOOL_NAMES)
    exe = (
        str(Path(REPO / ".venv/bin/itbench"))
        if (REPO / ".venv/bin/itbench").exists()
        else "itbench"
    )
    params = StdioServerParameters(
        command=exe, args=["sre", "mcp", "--snapshot", str(INCIDENT)], env=_env(private_cache)
    )

    async def session() -> tuple[list, dict, tuple]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            listed = (await s.list_tools()).tools
            answers = {}
            for name in ["build_topology", *[n for n in calls if n != "build_topology"]]:
                result = await s.call_tool(name, calls[name][0])
                assert not result.is_error, (name, result.content[0].text)
                text = result.content[0].text
                answers[name] = text if name == "build_topology" else json.loads(text)
            bad = await s.call_tool("event_analysis", {"events_file": str(tmp_path / "none.tsv")})
            return listed, answers, (bad.is_error, bad.content[0].text)

    listed, answers, bad = asyncio.run(asyncio.wait_for(session(), timeout=120))
    by_name = {t.name: t for t in listed}
    assert sorted(by_name) == sorted(TOOL_NAMES)
    # with --snapshot the file arguments are optional; the others keep the original's
    assert "events_file" not in by_name["event_analysis"].input_schema.get("required", [])
    assert by_name["get_metric_anomalies"].input_schema["required"] == ["k8_object_name"]
    assert by_name["metric_analysis"].input_schema["properties"]["limit"]["default"] == 200
    for name, (_, check) in calls.items():
        assert check(answers[name]), (name, answers[name])
    assert bad == (True, f"{tmp_path / 'none.tsv'}: the events file is missing from the snapshot")


def test_mcp_answers_in_the_original_shape_with_warnings_in_meta(private_cache: Path):
    """A client of the original server reads the text content as the original's answer
    (alert_summary: the list itself); what ours knows more rides in the result's _meta."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    from sre.mcp_server import WARNINGS_META

    exe = (
        str(Path(REPO / ".venv/bin/itbench"))
        if (REPO / ".venv/bin/itbench").exists()
        else "itbench"
    )
    params = StdioServerParameters(
        command=exe, args=["sre", "mcp", "--snapshot", str(INCIDENT)], env=_env(private_cache)
    )

    async def session():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            summary = await s.call_tool("alert_summary", {})
            outside = await s.call_tool(
                "event_analysis",
                {"start_time": "2024-01-01T00:00:00Z", "end_time": "2024-01-01 01:00:00"},
            )
            return summary, outside

    summary, outside = asyncio.run(asyncio.wait_for(session(), timeout=60))
    rows = json.loads(summary.content[0].text)
    assert isinstance(rows, list) and rows[0]["alertname"] == "RequestErrorRate"
    assert set(rows[0]) == {
        "alertname", "entity", "namespace", "severity", "state", "first_seen", "last_seen",
        "duration_min", "occurrences",
    }  # fmt: skip
    assert any("skipped, not JSON" in w for w in summary.meta[WARNINGS_META])
    empty = json.loads(outside.content[0].text)
    assert (empty["total_count"], empty["data"], empty["limit"]) == (0, [], "all")
    assert any("lies outside the events" in w for w in outside.meta[WARNINGS_META])


def test_core_never_names_the_sre_package():
    hits = subprocess.run(
        ["grep", "-rlwE", r"(import sre|from sre)", str(REPO / "itbench")],
        capture_output=True,
        text=True,
    )
    assert hits.stdout == ""


def test_domain_is_listed_through_its_entry_point(private_cache: Path):
    p = run_cli(["domains"], env=_env(private_cache))
    assert p.returncode == 0
    line = next(x for x in p.stdout.splitlines() if x.startswith("sre "))
    assert " ok " in line and "Incident diagnosis" in line


def test_every_sre_tool_command_in_the_docs_names_real_arguments():
    """The docs harness lets ``sre tool`` pass free-form ``--name value`` pairs through; this
    checks them against each tool's own argument model."""
    import shlex

    from sre.cli import parse_tool_options
    from sre.snapshot_args import validate, with_snapshot_defaults
    from sre.tools import tool_specs

    page = (REPO / "docs" / "sre" / "tools.md").read_text()
    lines = [ln for ln in page.splitlines() if ln.startswith(".venv/bin/itbench sre tool ")]
    assert len(lines) >= 3
    specs = tool_specs()
    for line in lines:
        words = shlex.split(line.split("#")[0])
        name, rest = words[3], words[4:]
        snapshot = Path(rest[rest.index("--snapshot") + 1])
        rest = rest[: rest.index("--snapshot")] + rest[rest.index("--snapshot") + 2 :]
        spec = specs[name]
        validate(spec, with_snapshot_defaults(spec, parse_tool_options(spec, rest), snapshot))
