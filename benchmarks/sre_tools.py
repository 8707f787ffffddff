"""SRE investigation tools on a ~1 GB snapshot: index build time, then wall time and peak RSS of
alert_summary, event_analysis, k8s_spec_change_analysis, get_trace_error_tree, metric_analysis and
log_analysis (targets: <= 2 s each after the one-time index, <= 500 MB).

The snapshot is ``--snapshot DIR`` or one ``itbench sre generate --size 1gb`` writes into a
temporary folder (``--keep DIR`` keeps it). Every measurement runs in a fresh subprocess, so its
peak RSS (getrusage) is its own: first the index build of every source into an empty cache, then
each tool on the warm index (``seconds`` excludes importing the tool's modules, as in a running
MCP server; ``import_seconds`` is that import). ``--original PATH`` (a checkout of ITBench-SRE-Agent, or any folder
holding ``sre_tools/``) runs the original pandas tools with the same arguments in the same way,
for a ratio; a tool of the original that fails is reported with its error.
Run: .venv/bin/python benchmarks/sre_tools.py [--snapshot DIR] [--original PATH] [--keep DIR]
     [--tools log_analysis,...]
Prints one JSON document on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_S = 2.0
TARGET_MB = 500.0

INDEX_CHILD = """
import json, resource, sys, time
from pathlib import Path
from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import SnapshotLayout
layout = SnapshotLayout(Path(sys.argv[1]))
sources = {"events": (layout.events, SourceKind.EVENTS), "objects": (layout.objects, SourceKind.OBJECTS),
           "traces": (layout.traces, SourceKind.TRACES), "logs": (layout.logs, SourceKind.LOGS),
           "metrics": (layout.metrics, SourceKind.METRICS)}
out = {}
total = time.perf_counter()
for name, (path, kind) in sources.items():
    started = time.perf_counter()
    src = open_source(path, kind)
    out[name] = {"seconds": round(time.perf_counter() - started, 3), "rows": src.rows,
                 "malformed": src.malformed, "index_mb": round(src.database.stat().st_size / 1e6, 1)}
print(json.dumps({"seconds": round(time.perf_counter() - total, 3), "sources": out,
                  "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))
"""

TOOL_CHILD = """
import importlib, json, resource, sys, time
name, arguments = sys.argv[1], json.loads(sys.argv[2])
started = time.perf_counter()
from sre.tools import call
importlib.import_module("sre.tools." + name)  # what a running MCP server has done already
imported = time.perf_counter()
answer = call(name, arguments)
print(json.dumps({"seconds": round(time.perf_counter() - imported, 3),
                  "import_seconds": round(imported - started, 3),
                  "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                  "answer_bytes": len(json.dumps(answer))}))
"""

ORIGINAL_CHILD = """
import asyncio, json, resource, sys, time
sys.path.insert(0, sys.argv[3])
from sre_tools.offline_incident_analysis import tools as original  # imported before timing too
name, arguments = sys.argv[1], json.loads(sys.argv[2])
handler = getattr(original, "_" + name)
started = time.perf_counter()
content = asyncio.run(handler(arguments))
text = "".join(getattr(c, "text", "") for c in content)
print(json.dumps({"seconds": round(time.perf_counter() - started, 3),
                  "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                  "answer_bytes": len(text), "answer_head": text[:160]}))
"""


def tool_calls(snapshot: Path) -> dict[str, dict]:
    """The measured calls: what an agent asks first on an incident, with the original's
    argument names so the same dictionaries drive both implementations."""
    return {
        "alert_summary": {"base_dir": str(snapshot / "alerts")},
        "event_analysis": {"events_file": str(snapshot / "k8s_events_raw.tsv"), "group_by": "reason"},
        "k8s_spec_change_analysis": {"k8s_objects_file": str(snapshot / "k8s_objects_raw.tsv")},
        "get_trace_error_tree": {"trace_file": str(snapshot / "otel_traces_raw.tsv")},
        "metric_analysis": {
            "base_dir": str(snapshot / "metrics"), "object_pattern": "pod/*",
            "metric_names": ["container_cpu_usage_seconds_total"], "group_by": "deployment",
            "agg": "max",
        },
        "log_analysis": {"logs_file": str(snapshot / "otel_logs_raw.tsv")},
    }  # fmt: skip


def child(code: str, argv: list[str], env: dict[str, str], timeout: float) -> dict:
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=REPO,
            env=env, timeout=timeout, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if proc.returncode != 0:
        return {
            "error": (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1][:300]
        }
    return json.loads(proc.stdout.strip().splitlines()[-1])


def generate(out: Path) -> Path:
    proc = subprocess.run(
        [str(REPO / ".venv/bin/itbench"), "sre", "generate", "--size", "1gb", "--fault",
         "nonexistent-image", "--seed", "7", "--out", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"itbench sre generate failed: {proc.stderr.strip()[-1000:]}")
    return next(p for p in sorted(out.iterdir()) if p.is_dir())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--snapshot", type=Path, help="a snapshot folder (default: generate one)")
    parser.add_argument("--original", type=Path, help="checkout holding the original sre_tools/")
    parser.add_argument("--keep", type=Path, help="generate the snapshot here and keep it")
    parser.add_argument("--timeout", type=float, default=1800, help="per measurement, seconds")
    parser.add_argument(
        "--tools", help="comma-separated subset of the measured tools (default: all six)"
    )
    args = parser.parse_args()
    wanted = args.tools.split(",") if args.tools else None
    unknown = sorted(set(wanted or ()) - set(tool_calls(Path("."))))
    if unknown:
        parser.error(f"--tools: unknown tool(s) {', '.join(unknown)}")
    with tempfile.TemporaryDirectory(prefix="itbench-sre-bench-") as tmp:
        snapshot = args.snapshot or generate(args.keep or Path(tmp) / "snapshot")
        size = sum(p.stat().st_size for p in snapshot.rglob("*") if p.is_file())
        env = {**os.environ, "ITBENCH_CACHE_DIR": str(Path(tmp) / "cache")}
        print(f"snapshot {snapshot}: {size / 1e9:.2f} GB; building the index", file=sys.stderr)
        index = child(INDEX_CHILD, [str(snapshot)], env, args.timeout)
        tools = {}
        calls = {
            name: arguments
            for name, arguments in tool_calls(snapshot).items()
            if wanted is None or name in wanted
        }
        for name, arguments in calls.items():
            print(f"  {name}", file=sys.stderr)
            got = child(TOOL_CHILD, [name, json.dumps(arguments)], env, args.timeout)
            if "seconds" in got:
                got["meets_targets"] = (
                    got["seconds"] <= TARGET_S and got["peak_rss_mb"] <= TARGET_MB
                )
            tools[name] = got
        doc = {
            "benchmark": "sre_tools",
            "snapshot": str(snapshot),
            "snapshot_bytes": size,
            "files": {
                str(p.relative_to(snapshot)): p.stat().st_size
                for p in sorted(snapshot.iterdir())
                if p.is_file()
            },  # fmt: skip
            "targets": {"seconds": TARGET_S, "peak_rss_mb": TARGET_MB},
            "index_build": index,
            "tools": tools,
            "all_meet_targets": all(t.get("meets_targets") for t in tools.values()),
            "machine": {
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "platform": platform.platform(),
            },  # fmt: skip
        }
        if args.original:
            original = {}
            for name, arguments in calls.items():
                print(f"  original {name}", file=sys.stderr)
                got = child(
                    ORIGINAL_CHILD,
                    [name, json.dumps(arguments), str(args.original)],
                    env,
                    args.timeout,
                )
                ours = tools[name]
                if got.get("answer_head", "").startswith("Error"):
                    # the original answers failures as text ("Error: drain3 is required ...")
                    got["error"] = got["answer_head"]
                elif "seconds" in got and "seconds" in ours and ours["seconds"] > 0:
                    got["ratio_original_over_ours"] = round(got["seconds"] / ours["seconds"], 1)
                original[name] = got
            doc["original"] = {"path": str(args.original), "tools": original}
        print(json.dumps(doc, indent=2))


if __name__ == "__main__":
    main()
