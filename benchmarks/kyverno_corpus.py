"""Agreement with the Kyverno policy library's own tests, per category and per rule feature, and
wall time. Agreement is passed / evaluated expectations; a category whose expectations were all
skipped (the CEL-based policy kinds) reports ``"agreement": null``. Needs ../shared. Prints one
JSON document.
Run: .venv/bin/python benchmarks/kyverno_corpus.py
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import yaml

from ciso.engines.kyverno.testrunner import run_tests

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "kyverno-policies"
FEATURES = ("pattern", "anyPattern", "deny", "foreach", "podSecurity", "cel")


def _features(test_file: Path) -> set[str]:
    found = set()
    try:
        test = yaml.safe_load(test_file.read_text())
        for rel in test.get("policies") or []:
            for doc in yaml.safe_load_all((test_file.parent / rel).read_text()):
                for rule in ((doc or {}).get("spec") or {}).get("rules") or []:
                    validate = rule.get("validate") or {}
                    found |= {f for f in FEATURES if f in validate}
                    found |= {k for k in ("mutate", "generate", "verifyImages") if k in rule}
                    if rule.get("context"):
                        found.add("context")
                    if rule.get("preconditions"):
                        found.add("preconditions")
    except (OSError, yaml.YAMLError, AttributeError):
        pass
    return found


def main() -> None:
    if not CORPUS.exists():
        sys.exit(f"{CORPUS} not found: ../shared is needed")
    started = time.perf_counter()
    categories = {}
    per_feature: dict[str, Counter] = {}
    for category in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        report = run_tests([category])
        agreement = report.agreement()
        verdict = report.verdict()
        categories[category.name] = {
            **report.summary(),
            "evaluated": report.evaluated(),
            # null, not 1.0, when every expectation was skipped: nothing was measured
            "agreement": None if agreement is None else round(agreement, 4),
            "verdict": "ok" if verdict.ok else "; ".join(verdict.problems),
        }
        for f in report.files:
            for feature in _features(Path(f.file)) or {"(none)"}:
                counter = per_feature.setdefault(feature, Counter())
                for e in f.expectations:
                    counter[e.outcome] += 1
    features = {}
    for feature, counter in sorted(per_feature.items()):
        denominator = (
            counter["passed"] + counter["failed"] + counter["excluded"] + counter["errors"]
        )
        features[feature] = {
            **counter,
            "agreement": round(counter["passed"] / denominator, 4) if denominator else None,
        }
    print(
        json.dumps(
            {
                "benchmark": "kyverno_corpus",
                "wall_s": round(time.perf_counter() - started, 2),
                "categories": categories,
                "features": features,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
