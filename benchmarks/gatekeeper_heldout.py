"""MEASUREMENT: the Gatekeeper evaluator of ``kyverno-migrate`` (``ciso/evaluation/gatekeeper.py``)
on held-out cases written from Gatekeeper's public documentation by a measurer who never read it
(``measurement/gatekeeper1/``). Each case folder holds ``template.yaml`` (ConstraintTemplates and
constraints), ``resources.yaml`` and ``expected.json`` (``Kind/namespace/name`` -> ``fail`` or
``pass``, fixed before any run). Per case: the objects whose verdict agrees, the disagreements by
name, and the objects the evaluator flags that the case does not list (Pods and ReplicaSets the
offline cluster derives from workloads). Prints one JSON document; it fixes nothing.
Run: .venv/bin/python benchmarks/gatekeeper_heldout.py [CASES_DIR]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from ciso.evaluation import gatekeeper
from itbench.cluster.state import ClusterError
from itbench.errors import InputError

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "measurement" / "gatekeeper1"


def _case(folder: Path) -> dict:
    template_file = folder / "template.yaml"
    sources = [d for d in yaml.safe_load_all(template_file.read_text()) if d]
    objects = [d for d in yaml.safe_load_all((folder / "resources.yaml").read_text()) if d]
    expected: dict[str, str] = json.loads((folder / "expected.json").read_text())
    try:
        templates = gatekeeper.parse(template_file, sources)
        flagged = {str(ref) for ref in gatekeeper.violations(templates, objects)}
    except (InputError, ClusterError) as exc:  # a case the evaluator cannot take: said, not fatal
        return {"error": str(exc), "objects": len(expected), "agree": 0}
    got = {key: "fail" if key in flagged else "pass" for key in expected}
    wrong = sorted(f"{k}: expected {v}, got {got[k]}" for k, v in expected.items() if got[k] != v)
    return {
        "objects": len(expected),
        "agree": len(expected) - len(wrong),
        "disagreements": wrong,
        "flagged_not_listed": sorted(flagged - set(expected)),
    }


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else CASES
    folders = sorted(p.parent for p in root.rglob("expected.json"))
    if not folders:
        raise SystemExit(f"no case (a folder with expected.json) under {root}")
    cases = {str(f.relative_to(root)): _case(f) for f in folders}
    objects = sum(c["objects"] for c in cases.values())
    agree = sum(c["agree"] for c in cases.values())
    whole = sum(1 for c in cases.values() if "error" not in c and not c["disagreements"])
    print(json.dumps({
        "benchmark": "gatekeeper_heldout",
        "cases": len(cases),
        "cases_all_agree": whole,
        "objects": objects,
        "objects_agree": agree,
        "rate": round(agree / objects, 3) if objects else None,
        "errors": sorted(k for k, c in cases.items() if "error" in c),
        "per_case": cases,
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
