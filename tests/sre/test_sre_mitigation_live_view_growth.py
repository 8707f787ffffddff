"""``itbench sre run --task mitigate``: the live view appends to the workspace's object dump only
the objects a write changed (their resourceVersion), and stops past its budget, saying so in the
trial's details. Through the real CLI, kubectl and a sandboxed command agent."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from sre.generator.snapshot import write_incident
from sre.twin.suite import write_recipe
from tests._support.cli import run_cli

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is absent: command agents refuse to run"
)

#: the agent's large object: a ConfigMap of some 900 KB, created once
BIG = 900_000
#: writes the agent makes after it
WRITES = 45

_CREATE_BIG = f"""python3 -c "import json; print(json.dumps({{'apiVersion': 'v1', 'kind': 'ConfigMap',
 'metadata': {{'name': 'ballast', 'namespace': 'default'}}, 'data': {{'k': 'z' * {BIG}}}}}))" > big.json
kubectl create -f big.json >/dev/null
kubectl create configmap ticker -n default --from-literal=a=b >/dev/null
stat -c %s k8s_objects_raw.tsv > size_before.txt
"""


@pytest.fixture(scope="module")
def incident(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("live-view")
    folder = root / "Scenario-growth"
    write_incident(folder, "nonexistent-image", 43)
    write_recipe(folder, "nonexistent-image", 43)
    return folder


def _trial(incident: Path, out: Path, annotated: str) -> tuple[dict, Path]:
    command = (
        _CREATE_BIG
        + f"for i in $(seq 1 {WRITES}); do kubectl annotate configmap {annotated} -n default "
        + "--overwrite tick=$i >/dev/null; done; stat -c %s k8s_objects_raw.tsv > size_after.txt"
    )
    proc = run_cli(
        ["sre", "run", "--task", "mitigate", "--scenarios", str(incident), "--agent-cmd",
         command, "--output", str(out), "--timeout", "300"], timeout=400,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    (trial,) = [p.parent for p in out.glob("*/1/evaluation.json")]
    evaluation = json.loads((trial / "evaluation.json").read_text())
    assert evaluation.get("error") is None, evaluation
    return evaluation, trial


def _rows_naming(dump: Path, name: str) -> int:
    """Rows of the dump whose object is named ``name`` (the TSV doubles the JSON's quotes)."""
    needle = re.compile(rb'"+name"+:\s*"+' + re.escape(name.encode()) + rb'"')
    with dump.open("rb") as f:
        return sum(1 for line in f if needle.search(line))


@needs_kubectl
@needs_bwrap
def test_writes_elsewhere_do_not_export_the_large_object_again(
    incident: Path, tmp_path: Path
) -> None:
    evaluation, trial = _trial(incident, tmp_path / "o", "ticker")
    dump = trial / "k8s_objects_raw.tsv"
    grown = int((trial / "size_after.txt").read_text()) - int(
        (trial / "size_before.txt").read_text()
    )
    assert _rows_naming(dump, "ballast") == 1  # exported once, when it was made
    assert _rows_naming(dump, "ticker") == WRITES + 1  # each of its versions, once
    assert grown < 2 * 1024 * 1024, grown  # was WRITES x the whole cluster (over 100 MB)
    assert "notes" not in evaluation["details"] or not any(
        "live view" in n for n in evaluation["details"]["notes"]
    )


@needs_kubectl
@needs_bwrap
def test_past_its_budget_the_view_stops_and_says_so(incident: Path, tmp_path: Path) -> None:
    """Each write changes the large object itself: every version is new, and past the budget
    the view stops appending."""
    from sre.twin.live_view import BUDGET_BYTES

    evaluation, trial = _trial(incident, tmp_path / "o", "ballast")
    dump = trial / "k8s_objects_raw.tsv"
    start = (incident / "k8s_objects_raw.tsv").stat().st_size
    assert dump.stat().st_size - start <= BUDGET_BYTES
    assert _rows_naming(dump, "ballast") < WRITES + 1
    assert any("live view stopped" in n for n in evaluation["details"]["notes"]), evaluation
