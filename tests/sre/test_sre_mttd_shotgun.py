"""MTTD through ``itbench sre run`` with a sandboxed command agent that blames every object of the
snapshot at once, withdraws it, and writes the real diagnosis later: naming every object names
every root cause, but the trial is scored on the final answer, and MTTD times only an earlier
answer at least as precise as that one. An honest earlier right answer still times it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._support.cli import run_cli
from tests._support.sre import generated_incident, right_answer

#: A seed no other MTTD test uses.
SEED = 5281
#: seconds the agents below think before their final answer
WAIT_S = 6


@pytest.fixture(scope="module")
def incident(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated_incident(tmp_path_factory.mktemp("mttd-shotgun") / "incidents", SEED)


#: Blames every object of the snapshot's object dump, long enough for the runner's watch to see.
_BLAME_EVERYTHING = """python3 - <<'PY'
import csv, json, sys, time
csv.field_size_limit(sys.maxsize)
names = set()
with open("k8s_objects_raw.tsv", newline="") as f:
    for row in csv.reader(f, delimiter="\\t"):
        for cell in row:
            try:
                obj = json.loads(cell)
            except ValueError:
                continue
            if isinstance(obj, dict) and isinstance(obj.get("metadata"), dict):
                meta = obj["metadata"]
                names.add(f"{meta.get('namespace', '')}/{obj.get('kind')}/{meta.get('name')}")
ents = [{"name": n, "contributing_factor": True} for n in sorted(names)]
json.dump({"entities": ents, "propagations": []}, open("agent_output.json", "w"))
print("blamed", len(ents))
PY
"""


def _trial(incident: Path, out: Path, command: str) -> dict:
    proc = run_cli(
        ["sre", "run", "--scenarios", str(incident), "--agent-cmd", command]
        + ["--output", str(out), "--format", "json", "--no-progress"],
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    (evaluation,) = [json.loads(p.read_text()) for p in out.glob("*/1/evaluation.json")]
    assert evaluation.get("error") is None, evaluation
    assert evaluation["scores"]["root_cause_entity"]["calculation_recall"] == 1.0
    return evaluation


@pytest.mark.parametrize("withdrawn", ["blanked", "left in place until the final answer"])
def test_blaming_every_object_early_does_not_time_the_diagnosis(
    incident: Path, tmp_path: Path, withdrawn: str
) -> None:
    blank = 'echo \'{"entities": [], "propagations": []}\' > agent_output.json; '
    command = (
        f"{_BLAME_EVERYTHING} sleep 1.5; {blank if withdrawn == 'blanked' else ''}"
        f"sleep {WAIT_S}; echo '{right_answer(incident)}' > agent_output.json"
    )
    evaluation = _trial(incident, tmp_path / "o", command)
    assert evaluation["scores"]["root_cause_entity"]["calculation_precision"] == 1.0
    # the honest figure (the final answer, seen after WAIT_S) or none; never the shotgun's
    assert evaluation["scores"].get("mttd_s", WAIT_S) >= WAIT_S, evaluation["details"]


def test_an_honest_earlier_right_answer_still_times_it(incident: Path, tmp_path: Path) -> None:
    """Right at once, then, after thinking, the same root cause with one more suspect: the early
    answer is as precise as the final one (more), so it times the diagnosis."""
    command = (
        f"echo '{right_answer(incident)}' > agent_output.json; sleep {WAIT_S}; "
        f"echo '{right_answer(incident, ('otel-demo/Service/no-such-suspect',))}' > agent_output.json"
    )
    evaluation = _trial(incident, tmp_path / "o", command)
    assert evaluation["scores"]["root_cause_entity"]["calculation_precision"] < 1.0
    assert evaluation["scores"]["mttd_s"] < WAIT_S, evaluation["details"]
    assert evaluation["details"]["mttd_source"] == "runner watch"
