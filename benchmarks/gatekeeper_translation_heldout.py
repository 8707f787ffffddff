"""MEASUREMENT: the CISO baseline's Gatekeeper → Kyverno migration
(``ciso/agents/baseline/migrate/from_rego.py``) on held-out Gatekeeper cases written by a measurer
who never read it, in the layout ``benchmarks/gatekeeper_heldout.py`` reads (``template.yaml``,
``resources.yaml``, ``expected.json``: ``Kind/namespace/name`` -> ``fail`` or ``pass``, fixed
before any run). For each case and each target dialect (ClusterPolicy, ValidatingPolicy): whether
the baseline translates the templates or stops with its reason, and for a translation the objects
whose verdict under the Kyverno engine agrees with the measurer's and with the Gatekeeper source's
own (the project's Gatekeeper evaluator). Prints one JSON document; it fixes nothing.
Run: .venv/bin/python benchmarks/gatekeeper_translation_heldout.py CASES_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from ciso.agents.baseline.migrate.from_rego import from_gatekeeper
from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable
from ciso.evaluation.kyverno_engines import ScanFailed, select_scanner
from ciso.evaluation.kyverno_migrate import flagged_pairs
from itbench.cluster.state import ClusterError
from itbench.errors import InputError

TARGETS = ("cluster-policy", "validating-policy")


def _case(folder: Path, target: str) -> dict:
    template_file = folder / "template.yaml"
    sources = [d for d in yaml.safe_load_all(template_file.read_text()) if d]
    objects = [d for d in yaml.safe_load_all((folder / "resources.yaml").read_text()) if d]
    expected: dict[str, str] = json.loads((folder / "expected.json").read_text())
    try:
        answer = from_gatekeeper(template_file, sources, target)
    except NotTranslatable as exc:
        return {"objects": len(expected), "translated": False, "reason": str(exc)}
    try:
        ((by_source, by_answer),) = flagged_pairs(
            select_scanner("itbench"), sources, answer, [(folder.name, objects)]
        )
    except (InputError, ClusterError, ScanFailed) as exc:  # a case it cannot take: said, not fatal
        return {"objects": len(expected), "translated": True, "error": str(exc)}
    source_flags, answer_flags = {str(r) for r in by_source}, {str(r) for r in by_answer}
    got = {key: "fail" if key in answer_flags else "pass" for key in expected}
    source = {key: "fail" if key in source_flags else "pass" for key in expected}
    return {
        "objects": len(expected),
        "translated": True,
        "agree": sum(got[k] == v for k, v in expected.items()),
        "same_as_source": sum(got[k] == source[k] for k in expected),
        "disagreements": sorted(
            f"{k}: expected {v}, got {got[k]}" for k, v in expected.items() if got[k] != v
        ),
    }


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit("usage: gatekeeper_translation_heldout.py CASES_DIR")
    root = Path(sys.argv[1])
    folders = sorted(p.parent for p in root.rglob("expected.json"))
    if not folders:
        raise SystemExit(f"no case (a folder with expected.json) under {root}")
    report: dict = {"benchmark": "gatekeeper_translation_heldout", "cases": len(folders)}
    for target in TARGETS:
        cases = {str(f.relative_to(root)): _case(f, target) for f in folders}
        done = [c for c in cases.values() if c["translated"] and "error" not in c]
        report[target] = {
            "translated": len(done),
            "objects_in_translated": sum(c["objects"] for c in done),
            "agree": sum(c["agree"] for c in done),
            "same_as_source": sum(c["same_as_source"] for c in done),
            "objects_all_cases": sum(c["objects"] for c in cases.values()),
            "per_case": cases,
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
