"""Every SRE tool answers in the original tool's shape: for each call recorded with the original
ITBench-SRE-Agent server (``recordings/``, made as ``README.md`` here says), our answer to the
same call on the same snapshot has every key the original's has, with the same JSON types
(``tool_shapes.differences``). One test per recorded call, so a failure names the tool, the
arguments and the snapshot."""

from __future__ import annotations

from pathlib import Path

import pytest

from itbench.errors import ItbenchError
from tests.sre.contract.recorded import ARCH, CALLS, compare, recordings, refused, run_ours
from tests.sre.contract.tool_shapes import differences

HERE = Path(__file__).resolve().parent

RECORDED = recordings()
#: calls the original answers (not the ones it fails on, nor those where a defect of the
#: original, named in calls.json, changes which entities it sees)
COMPARED = [
    r for r in RECORDED
    if not (r.kind == "text" and r.answer.startswith("<raised"))
    and r.name not in CALLS["original_defects"]
]  # fmt: skip


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("contract")


def test_every_tool_has_recordings_on_both_snapshots():
    from sre.tools import TOOL_NAMES

    for snapshot in CALLS["snapshots"]:
        tools = {r.tool for r in COMPARED if r.snapshot == snapshot}
        assert tools == set(TOOL_NAMES), (snapshot, set(TOOL_NAMES) - tools)


@pytest.mark.parametrize("rec", COMPARED, ids=[r.name for r in COMPARED])
def test_answer_has_the_original_shape(rec, scratch: Path):
    if rec.tool in ("build_topology", "topology_analysis") and not ARCH.exists():
        pytest.skip(f"{ARCH} is absent (../shared not mounted): build_topology needs it")
    if rec.tool == "topology_analysis":  # it reads what build_topology wrote
        build = next(
            r for r in RECORDED if r.snapshot == rec.snapshot and r.tool == "build_topology"
        )
        run_ours(build, scratch, ARCH)
    try:
        ours, written = run_ours(rec, scratch, ARCH)
    except ItbenchError:
        # the original answered "Error ...": ours refusing with an error naming why is the same
        assert refused(rec), rec.answer
        return
    assert compare(rec, ours, written) == []


def test_the_comparison_sees_a_renamed_key_a_retyped_value_and_a_re_nesting():
    original = {"total_count": 2, "data": [{"reason": "BackOff", "count": 2}], "limit": "all"}
    assert differences(original, {**original, "added": 1}) == []  # adding is allowed
    assert differences(original, {**original, "limit": 0}) == [
        "limit: the original answers string, ours number"
    ]
    renamed = {**original, "data": [{"why": "BackOff", "count": 2}]}
    assert differences(original, renamed) == ["data[].reason: missing (the original has string)"]
    assert differences([{"alertname": "A"}], {"alerts": [{"alertname": "A"}]}) == [
        "(answer): the original answers array, ours object"
    ]


def test_the_originals_nan_for_an_empty_cell_is_a_missing_value_not_a_number():
    # pandas reads an empty label cell as NaN and the original writes it so; ours writes null
    original = {"rows": [{"code": float("nan"), "v": 1}, {"code": "STATUS_CODE_ERROR", "v": 2}]}
    ours = {"rows": [{"code": None, "v": 1}, {"code": "STATUS_CODE_ERROR", "v": 2}]}
    assert differences(original, ours) == []
    # a real number where ours has text is still a difference
    numbered = {"rows": [{"code": float("nan"), "v": 1}, {"code": 503, "v": 2}]}
    assert differences(numbered, ours) == ["rows[].code: the original answers number, ours string"]
