"""MEASUREMENT (issue 28): the project's SRE CLI, as a black box, on independently written incidents.

The incidents come from tests/sre/independent/writer.py (written without reading sre/); this
script only runs `itbench sre run` and `itbench sre tool` and reports what they answer, errors
included.  It fixes nothing.

    .venv/bin/python benchmarks/sre_independent.py [--seed N] > figures.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo's tests package
from tests.sre.independent.writer import all_specs, write_all

ITBENCH = str(Path(sys.executable).with_name("itbench"))
TOOLS = {  # tool -> extra arguments (file arguments are filled by --snapshot)
    "alert_summary": {},
    "alert_analysis": {},
    "event_analysis": {},
    "metric_analysis": {"k8_object_name": "{svc}"},
    "get_metric_anomalies": {"k8_object_name": "{svc}"},
    "get_trace_error_tree": {},
    "log_analysis": {},
    "k8s_spec_change_analysis": {},
    "get_k8_spec": {"k8_object_name": "{kind}/{name}"},
    "get_context_contract": {"k8_object": "otel-demo/{kind}/{name}"},
}


def _run(cmd: list[str], timeout: float = 300) -> tuple[int, str, str]:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "", "timeout"
    return p.returncode, p.stdout, p.stderr


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    seed = ap.parse_args().seed
    specs = all_specs()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "incidents"
        dirs = write_all(root, seed)
        rc, out, err = _run(
            [
                ITBENCH,
                "sre",
                "run",
                "--agent",
                "baseline",
                "--scenarios",
                str(root),
                "--format",
                "json",
                "--output",
                str(Path(tmp) / "run"),
            ],
            timeout=1800,
        )
        per_incident: dict[str, dict] = {}
        try:
            raw = {r["incident_id"]: r for r in json.loads(out)["raw_results"]}
        except (ValueError, KeyError):
            raw = {}
        for i, (spec, d) in enumerate(zip(specs, dirs, strict=True)):
            r = raw.get(str(i + 1)) or raw.get(d.name) or {}
            sc = r.get("scores", {})
            row = {"fault": spec.fault, "variant": spec.variant}
            if "error" in r or not sc:
                row["error"] = r.get("error", f"no result (run exit {rc}): {err[-300:]}")
            else:
                row["root_cause_entity_f1"] = sc["root_cause_entity"]["calculation_f1"]
                row["predicted"] = [
                    p["entity"] for p in sc["root_cause_entity"].get("predicted_entities", [])
                ]
                for k in ("propagation_chain", "fault_localization_component_identification"):
                    v = sc.get(k)
                    row[k] = (
                        v.get("calculation_f1", v.get("calculation")) if isinstance(v, dict) else v
                    )
            tools = {}
            for tool, extra in TOOLS.items():
                cmd = [ITBENCH, "sre", "tool", tool, "--snapshot", str(d)]
                for k, v in extra.items():
                    cmd += [f"--{k}", v.format(svc=spec.service, kind=spec.kind, name=spec.name)]
                trc, tout, terr = _run(cmd, timeout=120)
                ok = trc == 0
                try:
                    json.loads(tout)
                except ValueError:
                    ok = False
                tools[tool] = "ok" if ok else f"exit {trc}: {terr.strip()[-200:]}"
            row["tools"] = tools
            per_incident[f"{d.name} {spec.fault}/v{spec.variant}"] = row
    f1 = [r["root_cause_entity_f1"] for r in per_incident.values() if "root_cause_entity_f1" in r]
    tool_ok = sum(v == "ok" for r in per_incident.values() for v in r["tools"].values())
    tool_n = sum(len(r["tools"]) for r in per_incident.values())
    print(
        json.dumps(
            {
                "run_exit": rc,
                "incidents": len(specs),
                "mean_root_cause_entity_f1": sum(f1) / len(specs) if specs else None,
                "tool_calls_ok": f"{tool_ok}/{tool_n}",
                "per_incident": per_incident,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
