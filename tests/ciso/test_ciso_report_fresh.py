"""The class table cannot be misread: a baseline run on the built-in suite is labelled as written
with that suite in view and shows its fresh-seed figure beside the built-in one."""

from __future__ import annotations

from ciso.report import BASELINE_FRESH, BASELINE_LABEL, FRESH_SEEDS, class_table


def _document(agent: str, ids: list[str]) -> dict:
    return {
        "config": {"agent": agent, "scenario_classes": {}},
        "raw_results": [
            {"incident_id": i, "scores": {"itbench_pass": 1, "strict_pass": 1}, "duration_s": 1.0}
            for i in ids
        ],
    }


BUILTIN = [
    "cis-k8s-5.2.2-privileged.kyverno",
    "cis-k8s-5.2.2-privileged.opa-static",
    "cis-k8s-5.2.2-privileged.kyverno-migrate",
]


def test_the_baseline_on_the_builtin_suite_is_labelled_with_its_fresh_figure() -> None:
    table = class_table(_document("baseline", BUILTIN))
    lines = table.splitlines()
    assert lines[0] == BASELINE_LABEL
    assert "fresh-seed ITBench / strict %" in lines[1]
    kyverno = next(line for line in lines if line.startswith("kyverno"))
    itbench, strict = BASELINE_FRESH["kyverno"]
    assert f"{itbench:.2f} / {strict:.2f}" in kyverno
    assert strict < 100
    assert "not a competitor" in table
    # measured on seeds nobody looked at while improving the baseline, and the note says which
    seeds = ", ".join(map(str, FRESH_SEEDS))
    assert f"seeds {seeds}, never looked at" in table
    migrate = next(line for line in lines if line.startswith("kyverno-migrate"))
    assert BASELINE_FRESH["kyverno-migrate"][1] > 0, migrate


def test_other_agents_and_fresh_runs_get_the_plain_table() -> None:
    for document in (
        _document("oracle", BUILTIN),
        _document("baseline", ["cis-k8s-5.2.2-privileged-0123456789.kyverno"]),
    ):
        table = class_table(document)
        assert BASELINE_LABEL not in table
        assert "fresh-seed" not in table
