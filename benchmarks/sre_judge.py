"""The deterministic SRE judge: agreement with the original LLM judge, ground-truth coverage of the
corpus, and throughput. Prints one JSON document.

- agreement: our entity verdicts against ``matches_gt`` of
  ``../shared/corpora/itbench/sre/evaluations_sample/evaluation_results.json``, every
  disagreement with its reason, and the statistics reproduced where all verdicts agree;
- ground truths: how many of the corpus's files load (44 flat, 61 repo v1 files, v2-only folders);
- throughput: trials judged per second (the sample's four real outputs, every metric, read from
  disk each time), on one core.
Run: .venv/bin/python benchmarks/sre_judge.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from sre.groundtruth import load_truths
from sre.judge import judge
from sre.judge.agreement import compare, load_results
from sre.judge.matching import Matcher
from sre.outputs import read_diagnosis

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "itbench" / "sre"
SAMPLE = CORPUS / "evaluations_sample"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    flat = load_truths(SAMPLE / "data" / "ground_truths.json")
    repo = load_truths(CORPUS / "itbench_repo_gt")
    v1 = sorted(CORPUS.glob("itbench_repo_gt/*/groundtruth_v1.yaml"))
    wrapped = sum(p.read_text().lstrip("-\n ").startswith("apiVersion") for p in v1)
    repaired = [
        f"{loaded.source}: {r}"
        for loaded in [*flat.values(), *repo.values()]
        for r in Matcher(loaded.truth, loaded.source).repaired_filters
    ]
    report = compare(
        load_results(SAMPLE / "evaluation_results.json"), flat, "evaluation_results.json"
    )
    outputs = sorted(SAMPLE.glob("data/*/*/outputs/agent_output.json"))
    trials = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for path in outputs:
            judge(flat[path.parts[-4]].truth, read_diagnosis(path))
            trials += 1
    elapsed = time.perf_counter() - start
    print(
        json.dumps(
            {
                "ground_truths": {
                    "flat_sample": len(flat),
                    "repo_v1_files": len(v1),
                    "repo_v1_wrapped": wrapped,
                    "repo_v1_flat": len(v1) - wrapped,
                    "repo_folders_loaded": len(repo),
                    "filters_read_as_globs": repaired,
                },
                "agreement": report.as_dict(),
                "throughput": {
                    "trials": trials,
                    "seconds": round(elapsed, 3),
                    "trials_per_second": round(trials / elapsed, 1),
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
