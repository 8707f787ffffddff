"""``itbench sre faults --coverage``: ITBench's 31 mechanisms, each row naming only fault types
that exist, every fault type placed (in a row or named beyond the list), the count computed from
the rows, and the docs page holding the same table."""

from __future__ import annotations

import json
from pathlib import Path

from sre.generator.coverage import BEYOND_THE_LIST, MECHANISMS, coverage_table
from sre.generator.faults import FAULT_TYPES
from tests._support.cli import run_cli

DOCS = Path(__file__).resolve().parents[2] / "docs" / "sre-faults.md"


def test_every_row_names_real_fault_types_and_every_type_is_placed():
    assert len(MECHANISMS) == 31
    named = {t for m in MECHANISMS for t in m.covered_by}
    assert named <= set(FAULT_TYPES), named - set(FAULT_TYPES)
    assert set(BEYOND_THE_LIST) <= set(FAULT_TYPES)
    assert named | set(BEYOND_THE_LIST) == set(FAULT_TYPES)
    for m in MECHANISMS:
        assert m.covered or m.note, f"{m.name}: an uncovered row says why"


def test_the_cli_reports_the_count_from_the_rows():
    proc = run_cli(["sre", "faults", "--coverage", "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["mechanisms"] == 31
    assert doc["covered"] == sum(bool(r["covered_by"]) for r in doc["rows"]) == 31
    assert doc["fault_types"] == len(FAULT_TYPES)
    text = run_cli(["sre", "faults", "--coverage"])
    assert text.returncode == 0 and text.stdout.strip().endswith("Covered: 31/31 mechanisms.")


def test_the_listing_names_every_fault_type_and_its_remedies():
    proc = run_cli(["sre", "faults", "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    rows = {r["fault_type"]: r for r in json.loads(proc.stdout)}
    assert set(rows) == set(FAULT_TYPES)
    assert rows["pod-failure"]["accepted_remedies"] == [
        "delete the chaos experiment", "pause the chaos experiment"
    ]  # fmt: skip


def test_the_docs_page_holds_the_table():
    assert coverage_table() in DOCS.read_text(encoding="utf-8")
