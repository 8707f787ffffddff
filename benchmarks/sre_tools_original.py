"""MEASUREMENT (issue 28, item 1): are our SRE tools drop-in for the original ITBench offline tools
on snapshots nobody here wrote? Every call of tests/sre/contract/calls.json is made on every
incident of the held-out sets (measurement/sre-set*/, or --root for sets kept elsewhere) twice:
by the ORIGINAL code (ITBench-SRE-Agent's sre_tools, run with its own interpreter from a folder
outside this repository; nothing of it is kept here) and by ours; the answers are compared as the
contract tests compare them (tests/sre/contract/tool_shapes.py: every key of the original's answer
present with the same JSON type). Each call falls in one category:

- same-shape: ours has the original's shape;
- both-refuse: the original answers an error sentence (a file not found ...), ours refuses
  with an error naming the problem;
- ours-answers-original-not: the original answers nothing (an empty table, "No ..." message, not
  found, or alerts misread from a file that holds none) and ours answers data;
- ours-empty-original-not: ours answers nothing where the original answers data (ours loses data);
- shape-differs / ours-raised: anything else;
- original-raised: the original fails on the call (not counted).

The values a call needs (a pod with metrics, its Deployment, a Service, a ConfigMap, the alert
window) are picked from each snapshot as a user would: the first pod metrics file, the window
from the original's alert_summary. Prints one JSON document.

Setup (outside the repository, offline; the original's uv.lock versions):
    git -C ITBench-SRE-Agent archive a3b85419ba230b2ede4f560a66418b62f94fb8ec | tar -x -C /tmp/orig-tools
    python3 -m venv /tmp/orig-venv
    /tmp/orig-venv/bin/pip install pandas==2.3.3 numpy==2.3.5 mcp==1.23.1 drain3==0.9.11
Run:
    .venv/bin/python benchmarks/sre_tools_original.py --original /tmp/orig-tools \\
        --original-python /tmp/orig-venv/bin/python [--sets sre-set2,sre-set3] [--root DIR] \\
        [--keep DIR]
--keep DIR stores the original's answers per snapshot (DIR/<set>-<snapshot>.json) and reuses them
on the next run, so a rerun after a change of ours takes only our side's time.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the repository's tests package
from tests.sre.contract.recorded import (  # noqa: E402 - after the sys.path entry
    CALLS,
    Recording,
    compare,
    filled,
    refused,
)

ARCH = REPO.parent / "shared" / "corpora" / "itbench" / "sre" / "app_topology" / "architecture.json"

#: run by the ORIGINAL's interpreter: argv = original folder, snapshot, calls.json, arch, scratch;
#: prints {"values": ..., "answers": [{id, kind, answer, written}]}
RECORDER = r"""
import asyncio, datetime as dt, glob, json, re, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import sre_tools.offline_incident_analysis.tools as T
snap, calls, arch, tmp = Path(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text()), sys.argv[4], sys.argv[5]

def run(tool, args):
    try:
        res = asyncio.run(getattr(T, "_" + tool)(args))
    except Exception as exc:
        return "text", f"<raised {type(exc).__name__}: {exc}>"
    text = "".join(getattr(r, "text", "") for r in res)
    try:
        return "json", json.loads(text)
    except Exception:
        return "text", text

objects = (snap / "k8s_objects_raw.tsv").read_text(errors="replace") if (snap / "k8s_objects_raw.tsv").exists() else ""
pods = sorted(Path(p).stem[4:] for p in glob.glob(str(snap / "metrics" / "pod_*.tsv")))
services = sorted(Path(p).stem[8:] for p in glob.glob(str(snap / "metrics" / "service_*.tsv")))
pod = pods[0] if pods else "none"
service = services[0] if services else "frontend"
deployment = "-".join(pod.split("-")[:-2]) if pod.count("-") >= 2 else service
m = re.search(r'"namespace"\s*:\s*"([^"]+)"', objects)
ns = m.group(1) if m else "otel-demo"
m = re.search(r'"kind"\s*:\s*"ConfigMap".{0,400}?"name"\s*:\s*"([^"]+)"', objects)
cm = m.group(1) if m else "flagd-config"
kind, summary = run("alert_summary", {"base_dir": str(snap)})
times = sorted(str(a[k]) for a in (summary if kind == "json" and isinstance(summary, list) else [])
               if isinstance(a, dict) for k in ("first_seen", "last_seen") if a.get(k))
def at(s):
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00").replace(" ", "T")).astimezone(dt.timezone.utc)
fmt = "%Y-%m-%dT%H:%M:%SZ"
start = at(times[0]) - dt.timedelta(minutes=5) if times else None
end = at(times[-1]) + dt.timedelta(minutes=5) if times else None
values = {
    "pod": pod, "deployment": f"{ns}/Deployment/{deployment}", "service": service,
    "configmap": f"{ns}/ConfigMap/{cm}", "service_ref": f"{ns}/Service/{service}",
    "start": start.strftime(fmt) if start else "2000-01-01T00:00:00Z",
    "end": end.strftime(fmt) if end else "2100-01-01T00:00:00Z",
    "pivot": (start + (end - start) / 2).strftime(fmt) if start else "2000-01-01T00:00:00Z",
    "outside_start": "2024-01-01T00:00:00Z", "outside_end": "2024-01-01T01:00:00Z",
    "cpu_eval": "cpu_per_mb = container_cpu_usage_seconds_total / container_memory_working_set_bytes * 1000000",
}
def fill(a):
    if isinstance(a, str):
        for k, v in {**values, "snapshot": str(snap), "tmp": tmp, "arch": arch}.items():
            a = a.replace("{" + k + "}", v)
        return a
    if isinstance(a, list):
        return [fill(x) for x in a]
    if isinstance(a, dict):
        return {k: fill(v) for k, v in a.items()}
    return a
answers = []
for c in calls["calls"]:
    args = fill(c["args"])
    kind, answer = run(c["tool"], args)
    out = Path(args["output_file"]) if "output_file" in args else None
    written = json.loads(out.read_text()) if out and out.is_file() else None
    answers.append({"id": c["id"], "tool": c["tool"], "kind": kind, "answer": answer, "written": written})
print(json.dumps({"values": values, "answers": answers}, default=str))
"""

_REFUSAL = re.compile(r"not found|^Error|No .*(file|found)|missing|required|does not exist", re.I)


def _original_holds_nothing(tool: str, answer: Any) -> bool:
    """The original's answer holds no data (or alerts misread from a file that holds none)."""
    rows = answer if isinstance(answer, list) else None
    if isinstance(answer, dict):
        if answer.get("total_count") == 0 or answer.get("found") is False:
            return True
        if isinstance(answer.get("message"), str) and answer["message"].startswith("No "):
            return True
        if any(
            k in answer and not answer[k]
            for k in ("data", "patterns", "critical_paths", "entities", "metrics")
        ):
            return True
        logs, traces = answer.get("log_patterns"), answer.get("trace_errors")
        if (isinstance(logs, dict) and logs.get("total_logs") == 0) or (
            isinstance(traces, dict) and "message" in traces
        ):
            return True
        rows = answer.get("data") if isinstance(answer.get("data"), list) else None
    if rows is not None and not rows:
        return True
    if tool.startswith("alert_") and rows:
        return all(
            isinstance(r, dict)
            and ("items" in r or r.get("alertname") == "Unknown"
                 or ("alertname" not in r and r.get("labels.alertname") in (None, "Unknown")))
            for r in rows
        )  # fmt: skip
    return False


def _category(rec: Recording, problems: list[str], refusal: bool) -> str:
    if rec.kind == "text" and str(rec.answer).startswith("<raised"):
        return "original-raised"
    if refusal:
        return "both-refuse"
    if not problems:
        return "same-shape"
    text = " ".join(problems)
    if text.startswith("raised"):
        return "ours-raised"
    if (rec.kind == "text" and ("ours dict" in text or "ours list" in text)) or (
        rec.kind == "json" and _original_holds_nothing(rec.tool, rec.answer)
    ):
        return "ours-answers-original-not"
    if "ours is empty where the original has" in text:
        return "ours-empty-original-not"
    return "shape-differs"


def _ours(rec: Recording, values: dict[str, str]) -> tuple[list[str], bool]:
    """(differences, whether both refuse) of our answer to the recorded call."""
    from itbench.errors import ItbenchError
    from sre.tools import call

    args = filled(rec.args, values)
    try:
        ours = call(rec.tool, args)
        out = Path(args["output_file"]) if "output_file" in args else None
        written = json.loads(out.read_text()) if out and out.is_file() else None
        return compare(rec, ours, written), False
    except ItbenchError as exc:
        both = refused(rec) or (rec.kind == "text" and bool(_REFUSAL.search(str(rec.answer))))
        return ([] if both else [f"raised {type(exc).__name__}: {exc}"]), both
    except Exception as exc:  # noqa: BLE001 - a failure is a difference to count
        return [f"raised {type(exc).__name__}: {exc}"], False


def measure_snapshot(
    snapshot: Path,
    name: str,
    original: Path,
    python: str,
    scratch: Path,
    keep: Path | None = None,
) -> list[dict]:
    tmp = scratch / f"tmp-{name}"
    for side in ("orig", "ours"):
        (tmp / side).mkdir(parents=True, exist_ok=True)
    kept = keep / f"{name}.json" if keep else None
    if kept is not None and kept.is_file():
        # the original's answers do not change between runs: a rerun of ours reuses them
        recorded = json.loads(kept.read_text())
    else:
        proc = subprocess.run(
            [python, "-c", RECORDER, str(original), str(snapshot),
             str(REPO / "tests/sre/contract/calls.json"), str(ARCH), str(tmp / "orig")],
            capture_output=True, text=True, timeout=1800, cwd=scratch,
        )  # fmt: skip
        if proc.returncode:
            raise SystemExit(f"the original's recorder failed on {snapshot}: {proc.stderr[-2000:]}")
        recorded = json.loads(proc.stdout)
        if kept is not None:
            kept.write_text(proc.stdout)
    values = {
        **recorded["values"],
        "snapshot": str(snapshot),
        "tmp": str(tmp / "ours"),
        "arch": str(ARCH),
    }
    template = {c["id"]: c["args"] for c in CALLS["calls"]}
    rows = []
    for a in recorded["answers"]:
        rec = Recording(id=a["id"], tool=a["tool"], snapshot=name, args=template[a["id"]],
                        kind=a["kind"], answer=a["answer"], written=a["written"])  # fmt: skip
        problems, both = _ours(rec, values)
        rows.append(
            {
                "call": a["id"],
                "category": _category(rec, problems, both),
                "differences": problems[:3],
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--original", type=Path, required=True, help="the original's source folder")
    parser.add_argument("--original-python", required=True, help="an interpreter with its deps")
    parser.add_argument(
        "--sets", default="", help="comma-separated set names (default: every sre-set*)"
    )
    parser.add_argument(
        "--root", type=Path, default=REPO / "measurement", help="where the sets are"
    )
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        help="a folder for the original's recorded answers: written on the first run, reused "
        "after (the original is slow; ours changes between runs)",
    )
    opts = parser.parse_args()
    if opts.keep:
        opts.keep.mkdir(parents=True, exist_ok=True)
    names = [n for n in opts.sets.split(",") if n] or sorted(
        (p.name for p in opts.root.glob("sre-set*") if (p / "gen.py").is_file()),
        key=lambda n: int(n.rsplit("set", 1)[1]),
    )
    figures: dict[str, Any] = {}
    total: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="itbench-original-tools-") as scratch_dir:
        scratch = Path(scratch_dir)
        for name in names:
            out = scratch / name
            subprocess.run(
                [sys.executable, str(opts.root / name / "gen.py"), str(out)],
                check=True,
                capture_output=True,
            )
            per: Counter[str] = Counter()
            details = {}
            for snap in sorted({p.parent for p in out.rglob("k8s_objects_raw.tsv")}):
                rows = measure_snapshot(
                    snap, f"{name}-{snap.name}", opts.original, opts.original_python, scratch,
                    opts.keep,
                )  # fmt: skip
                per.update(r["category"] for r in rows)
                details[snap.name] = [
                    r for r in rows if r["category"] not in ("same-shape", "both-refuse")
                ]
            total.update(per)
            figures[name] = {"categories": dict(per), **_shares(per), "not_same": details}
    print(
        json.dumps(
            {"overall": {"categories": dict(total), **_shares(total)}, "sets": figures}, indent=1
        )
    )


def _shares(c: Counter[str]) -> dict[str, Any]:
    compared = sum(v for k, v in c.items() if k != "original-raised")
    same = c["same-shape"] + c["both-refuse"]
    return {
        "compared": compared,
        "same_shape_or_both_refuse": same,
        "share": round(same / compared, 4) if compared else None,
        "ours_loses_data": c["ours-empty-original-not"],
    }


if __name__ == "__main__":
    main()
