"""MEASUREMENT: the CISO ``baseline``'s Kyverno migration on held-out policies written from
Kyverno's public documentation by a measurer who never read the code (``measurement/migrate1/``).
Each case folder holds ``policy.yaml`` (one ClusterPolicy, Policy or ValidatingPolicy),
``resources.yaml`` and ``expected.json`` (``Kind/namespace/name`` -> ``fail`` or ``pass``: the
background scan's verdict, fixed before any run).

Per case: the baseline translates the policy into the other dialect (or says why it does not);
the source and the translation are scanned over the objects by the Kyverno engine the
``kyverno-migrate`` class scores with; each is compared with the measurer's verdicts, and the
translation with the source. Objects the scan flags that the case does not list (Pods and
ReplicaSets the offline cluster derives from workloads) are named, not counted. Prints one
JSON document; it fixes nothing.
Run: .venv/bin/python benchmarks/migrate_heldout.py [CASES_DIR]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable
from ciso.agents.baseline.migrate.source import translate_documents
from ciso.evaluation.kyverno_engines import ScanFailed, select_scanner
from ciso.evaluation.report_reading import failed
from itbench.cluster.state import ClusterError
from itbench.errors import InputError

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "measurement" / "migrate1" / "cases"


def _verdicts(scanner: Any, policies: list[dict], objects: list[dict], keys: list[str]) -> dict:
    flagged = {str(ref) for ref in failed(scanner.reports(policies, objects))}
    return {"got": {k: "fail" if k in flagged else "pass" for k in keys}, "extra": flagged}


def _compare(got: dict[str, str], want: dict[str, str]) -> list[str]:
    return sorted(f"{k}: expected {v}, got {got[k]}" for k, v in want.items() if got[k] != v)


def _case(folder: Path, scanner: Any) -> dict:
    policies = [d for d in yaml.safe_load_all((folder / "policy.yaml").read_text()) if d]
    objects = [d for d in yaml.safe_load_all((folder / "resources.yaml").read_text()) if d]
    expected: dict[str, str] = json.loads((folder / "expected.json").read_text())
    keys = sorted(expected)
    row: dict[str, Any] = {"objects": len(keys), "source_kind": policies[0].get("kind")}
    try:
        source = _verdicts(scanner, policies, objects, keys)
    except (InputError, ClusterError, ScanFailed) as exc:  # said, not fatal
        row["source_error"] = str(exc)
    else:
        wrong = _compare(source["got"], expected)
        row.update(source_agree=len(keys) - len(wrong), source_disagreements=wrong)
    try:
        _, target, translated = translate_documents(policies)
    except NotTranslatable as exc:
        row["not_translated"] = str(exc)
        return row
    row["target"] = target
    try:
        answer = _verdicts(scanner, translated, objects, keys)
    except (InputError, ClusterError, ScanFailed) as exc:
        row["answer_error"] = str(exc)
        return row
    wrong = _compare(answer["got"], expected)
    row.update(answer_agree=len(keys) - len(wrong), answer_disagreements=wrong)
    if "source_agree" in row:
        row["answer_same_as_source"] = sum(answer["got"][k] == source["got"][k] for k in keys)
    return row


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else CASES
    folders = sorted(p.parent for p in root.rglob("expected.json"))
    if not folders:
        raise SystemExit(f"no case (a folder with expected.json) under {root}")
    scanner = select_scanner()
    cases = {f.name: _case(f, scanner) for f in folders}

    def total(key: str, where: list[dict]) -> int:
        return sum(c.get(key, 0) for c in where)

    rows = list(cases.values())
    translated = [c for c in rows if "answer_agree" in c]
    print(json.dumps({
        "benchmark": "migrate_heldout",
        "engine": type(scanner).__name__,
        "cases": len(rows),
        "objects": total("objects", rows),
        "source_agree": total("source_agree", rows),
        "translated_cases": len(translated),
        "not_translated": {n: c["not_translated"] for n, c in cases.items() if "not_translated" in c},
        "objects_in_translated_cases": total("objects", translated),
        "answer_agree": total("answer_agree", translated),
        "answer_same_as_source": total("answer_same_as_source", translated),
        "per_case": cases,
    }, indent=2, default=sorted))  # fmt: skip


if __name__ == "__main__":
    main()
