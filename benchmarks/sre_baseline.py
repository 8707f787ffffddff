"""The SRE ``baseline`` agent over freshly generated incidents, scored by the deterministic judge.

Every run draws a new seed (printed on stderr and recorded; ``--seed`` repeats a run), generates
``--n`` incidents cycling through the 17 fault types into a temporary folder, diagnoses each from
a copy holding only the snapshot (no ground truth beside it) and judges it: root_cause_entity F1
and the ITBench-AA score (``precision_at_full_recall``) per fault type and overall, plus the
propagation chain F1 and the time per diagnosis.
Run: .venv/bin/python benchmarks/sre_baseline.py [--n 100] [--seed S]
Prints one JSON document on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

#: Published figures on the real ITBench-AA SRE tasks (formats doc §3), for scale only: those are
#: real snapshots and frontier models; these incidents are synthetic (docs/sre/index.md).
PUBLISHED_AA = {"Claude Opus 4.7": 0.47, "GPT-5.5": 0.46, "open models": "0.37-0.42"}
TARGETS = {"root_cause_entity_f1": 0.6, "precision_at_full_recall": 0.5}


def _snapshot_only(folder: Path, workspace: Path) -> None:
    from sre.snapshot_entries import SNAPSHOT_ENTRIES

    workspace.mkdir()
    for name in SNAPSHOT_ENTRIES:
        source = folder / name
        if source.is_dir():
            shutil.copytree(source, workspace / name)
        elif source.is_file():
            shutil.copy(source, workspace / name)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, help="default: a fresh one")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    print(f"sre_baseline: seed {seed}, {args.n} incidents", file=sys.stderr)

    from sre.agents.baseline import diagnose
    from sre.generator.snapshot import generate_incidents
    from sre.groundtruth import load_truths
    from sre.judge import judge
    from sre.outputs import diagnosis_from

    per_type: dict[str, list[dict]] = defaultdict(list)
    misses = []
    timings = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        written = generate_incidents(root / "incidents", seed, args.n)
        for w in written:
            workspace = root / "ws" / w.path.name
            workspace.parent.mkdir(exist_ok=True)
            _snapshot_only(w.path, workspace)
            started = time.perf_counter()
            diagnosis = diagnose(workspace)
            timings.append(time.perf_counter() - started)
            ((_, loaded),) = load_truths(w.path / "ground_truth.yaml").items()
            scores = judge(loaded.truth, diagnosis_from(diagnosis.document(), str(workspace)))
            row = {
                "seed": w.seed,
                "f1": scores["root_cause_entity"]["calculation_f1"],
                "aa": scores["precision_at_full_recall"],
                "chain_f1": scores["propagation_chain"]["calculation"],
            }
            per_type[w.fault_type].append(row)
            if row["f1"] < 1.0:
                named = [e["name"] for e in diagnosis.entities if e["contributing_factor"]]
                truth = [f"{g.kind}/{g.name}" for g in loaded.truth.groups if g.root_cause]
                misses.append({"fault_type": w.fault_type, "seed": w.seed, "named": named,
                               "truth": truth})  # fmt: skip
            shutil.rmtree(workspace)

    def summary(rows: list[dict]) -> dict:
        return {
            "n": len(rows),
            "root_cause_entity_f1": round(statistics.fmean(r["f1"] for r in rows), 4),
            "precision_at_full_recall": round(statistics.fmean(r["aa"] for r in rows), 4),
            "propagation_chain_f1": round(statistics.fmean(r["chain_f1"] for r in rows), 4),
        }

    every = [r for rows in per_type.values() for r in rows]
    overall = summary(every)
    doc = {
        "benchmark": "sre_baseline",
        "seed": seed,
        "incidents": args.n,
        "judge": "deterministic (sre.judge)",
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "overall": overall,
        "targets_met": {k: overall[k] >= v for k, v in TARGETS.items()},
        "per_fault_type": {kind: summary(rows) for kind, rows in sorted(per_type.items())},
        "misses": misses,
        "seconds_per_diagnosis": {
            "mean": round(statistics.fmean(timings), 3),
            "max": round(max(timings), 3),
        },
        "published_itbench_aa_real_tasks": PUBLISHED_AA,
    }
    print(
        f"F1 {overall['root_cause_entity_f1']}, AA {overall['precision_at_full_recall']}, "
        f"chain F1 {overall['propagation_chain_f1']}, {len(misses)} miss(es)",
        file=sys.stderr,
    )
    print(json.dumps(doc, indent=2))


if __name__ == "__main__":
    main()
