"""``itbench sre run`` end to end with the baseline, the oracle and a sandboxed command agent, and
the baseline's diagnosis of every generated fault type (judged by the deterministic judge)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from itbench.models import PublicScenario
from sre.agents.baseline import diagnose
from sre.agents.hooks import _literal_name, validate_output, write_reference
from sre.agents.scenarios import SEED_FILE, SNAPSHOT_ENTRIES, snapshot_scenarios, suite_tag
from sre.generator.faults import FAULT_TYPES
from sre.generator.ground_truth import Group
from sre.generator.snapshot import generate_incidents
from sre.groundtruth import load_truths
from sre.judge import judge
from sre.outputs import diagnosis_from
from sre.tools import k8s_spec_change_analysis
from tests._support.cli import run_cli

#: Not a seed the baseline was developed on (its author looked at seeds 1-17).
SEED = 311


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every fault type once, as ITBench-Lite snapshot folders with ground truth."""
    root = tmp_path_factory.mktemp("sre-run") / "incidents"
    generate_incidents(root, SEED, len(FAULT_TYPES))
    return root


def _truth_root_causes(folder: Path) -> list[str]:
    ((_, loaded),) = load_truths(folder / "ground_truth.yaml").items()
    return [f"{g.kind}/{g.name}" for g in loaded.truth.groups if g.root_cause]


def _vanished(objects_file: Path) -> set[str]:
    """Kind/name of the objects an earlier dump of the snapshot holds and the last one not."""
    import csv
    import json

    last: dict[str, str] = {}
    with objects_file.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            try:
                body = json.loads(row["Body"])
            except ValueError:
                continue
            key = f"{body.get('kind')}/{(body.get('metadata') or {}).get('name')}"
            last[key] = max(last.get(key, ""), row["Timestamp"])
    newest = max(last.values(), default="")
    return {k for k, t in last.items() if t < newest and not k.startswith(("Pod/", "Event/"))}


def _public(folder: Path) -> PublicScenario:
    (scenario,) = snapshot_scenarios(folder)
    return scenario.public_view()


@pytest.mark.parametrize("index", range(1, len(FAULT_TYPES) + 1))
def test_baseline_diagnoses_each_fault_type(suite: Path, index: int) -> None:
    """The generated incidents carry competing changes (neighbours rolled out around the fault,
    the degraded service's own spec change), so the baseline is not always right: whatever it
    names must be an object that changed in the snapshot, and the judge's verdict must follow
    from whether that object is the ground truth's root cause."""
    folder = suite / f"Scenario-{index}"
    # the baseline reads a copy holding only what an agent gets: no ground truth beside it
    workspace = folder.parent.parent / f"ws-{index}"
    if not workspace.exists():
        workspace.mkdir()
        for name in SNAPSHOT_ENTRIES:
            if (folder / name).is_dir():
                shutil.copytree(folder / name, workspace / name)
            elif (folder / name).is_file():
                shutil.copy(folder / name, workspace / name)
    assert not (workspace / "ground_truth.yaml").exists()
    diagnosis = diagnose(workspace)
    named = [e["name"] for e in diagnosis.entities if e["contributing_factor"]]
    assert len(named) == 1, named
    changes = k8s_spec_change_analysis.run(
        k8s_spec_change_analysis.Args(k8s_objects_file=str(workspace / "k8s_objects_raw.tsv"))
    )
    changed = {e.split("/", e.count("/") - 1)[-1] for e in changes.answer()["entity_order"]}
    # kind/name of the answer; the namespace is the object's own
    answer = named[0].split("/", named[0].count("/") - 1)[-1]
    # (a deleted object is a change the change analysis does not list: it vanishes)
    assert answer in changed | _vanished(workspace / "k8s_objects_raw.tsv"), (
        answer,
        sorted(changed),
    )
    right = answer in _truth_root_causes(folder)
    ((_, loaded),) = load_truths(folder / "ground_truth.yaml").items()
    scores = judge(loaded.truth, diagnosis_from(diagnosis.document(), "agent_output.json"))
    assert scores["root_cause_entity"]["calculation_f1"] == float(right)
    assert scores["precision_at_full_recall"] == float(right)
    if right:
        # the chain climbs from the root cause to the alerting entry point
        assert scores["propagation_chain"]["calculation"] > 0.5
    assert diagnosis.document()["alerts_explained"], "every firing alert is accounted for"


def test_noise_is_ranked_below_the_fault(suite: Path) -> None:
    """Each incident also has a routine rollout of an unrelated service: it is listed, but never
    as a contributing factor."""
    diagnosis = diagnose(suite / "Scenario-1")
    runner_ups = [e for e in diagnosis.entities if "also changed" in e["reasoning"]]
    assert runner_ups and all(not e["contributing_factor"] for e in runner_ups)
    unrelated = [
        a for a in diagnosis.alerts_explained if a["alert"].startswith("RequestLatency on image")
    ]
    assert unrelated and not unrelated[0]["explained"]


def _run(args: list[str], out: Path) -> tuple[dict, str]:
    proc = run_cli(
        ["sre", "run", *args, "--output", str(out), "--format", "json", "--no-progress"],
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), proc.stderr


def test_sre_run_baseline_on_snapshot_directories(suite: Path, tmp_path: Path) -> None:
    doc, _ = _run(["--scenarios", str(suite), "-j", "2"], tmp_path / "run")
    by_id = {r["incident_id"]: r for r in doc["raw_results"]}
    assert sorted(by_id, key=int) == [str(i) for i in range(1, len(FAULT_TYPES) + 1)]
    f1s = []
    for sid, entry in by_id.items():
        assert "error" not in entry, (sid, entry)
        f1s.append(entry["scores"]["root_cause_entity"]["calculation_f1"])
        assert f1s[-1] in (0.0, 1.0), sid  # one contributing factor: right or wrong
        workspace = tmp_path / "run" / sid / "1"
        assert not (workspace / "ground_truth.yaml").exists()
        assert validate_output(_public(suite / f"Scenario-{sid}"), workspace) == []
    overall = doc["statistics"]["overall"]
    assert overall["root_cause_entity_f1"]["mean"] == pytest.approx(sum(f1s) / len(f1s))
    # issue 20's target for the baseline, on a seed it was not developed on
    assert overall["root_cause_entity_f1"]["mean"] >= 0.6
    # the results document is ITBench-Evaluations' and re-scores the same with `sre eval`
    proc = run_cli(
        ["sre", "eval", "--outputs", str(tmp_path / "run"), "--ground-truth", str(suite),
         "--result-file", str(tmp_path / "eval.json"), "--format", "json"],
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    again = json.loads(proc.stdout)["statistics"]["overall"]
    assert again["root_cause_entity_f1"]["mean"] == overall["root_cause_entity_f1"]["mean"]


def test_sre_run_without_arguments_generates_a_seeded_suite(tmp_path: Path) -> None:
    out = tmp_path / "fresh"
    doc, stderr = _run(["-j", "2"], out)
    folder = Path(re.search(r"--scenarios (\S+);", stderr).group(1))
    assert folder.parent == out and folder.name.startswith("incidents-")
    # the seed re-creates every ground truth: it is recorded beside the incidents (the run
    # directory, hidden from agents) and appears in no id, workspace path or task text (issue 26)
    seed = (folder / SEED_FILE).read_text().strip()
    assert f"{folder / SEED_FILE}" in stderr and seed not in stderr
    tag = suite_tag(int(seed))
    assert folder.name == f"incidents-{tag}"
    ids = sorted(r["incident_id"] for r in doc["raw_results"])
    assert ids == sorted(f"{tag}-{i}" for i in range(1, len(FAULT_TYPES) + 1))
    trials = sorted(out.glob(f"{tag}-*/1"))
    assert len(trials) == len(FAULT_TYPES)
    for trial in trials:
        assert seed not in str(trial), trial
        # nor in what the run recorded beside the agent (ids, task, events)
        assert seed not in (trial / "transcript.jsonl").read_text(), trial
    for entry in doc["raw_results"]:
        assert "error" not in entry, entry
    mean_f1 = doc["statistics"]["overall"]["root_cause_entity_f1"]["mean"]
    assert mean_f1 >= 0.6, f"seed {seed}: baseline F1 {mean_f1}"
    kinds = {
        str(
            load_truths(f / "ground_truth.yaml")[f.name.removeprefix("Scenario-")]
            .truth.fault[0]
            .fault_mechanism
        )
        for f in folder.iterdir()
        if f.is_dir()
    }
    assert len(kinds) >= 10, "the suite spans the fault types"
    # rerunning the printed command resumes the same trials instead of mixing in another seed
    again, _ = _run(["--scenarios", str(folder)], out)
    assert sorted(r["incident_id"] for r in again["raw_results"]) == ids


def test_oracle_scores_full_marks(suite: Path, tmp_path: Path) -> None:
    doc, _ = _run(["--scenarios", str(suite / "Scenario-9"), "--agent", "oracle"], tmp_path / "o")
    (entry,) = doc["raw_results"]
    assert entry["scores"]["root_cause_entity"]["calculation_f1"] == 1.0
    assert entry["scores"]["propagation_chain"]["calculation"] == 1.0


def test_reference_answer_passes_the_validator(suite: Path, tmp_path: Path) -> None:
    (scenario,) = snapshot_scenarios(suite / "Scenario-1")
    write_reference(scenario, tmp_path)
    assert validate_output(scenario.public_view(), tmp_path) == []


@pytest.mark.parametrize(
    ("pattern", "name"),
    [
        (r"recommendation\b", "recommendation"),  # an anchor, not the letter b
        (r"^frontend\-proxy-[a-z0-9]{6,10}", "frontend-proxy"),
        (r"ad\d+", "ad"),
        (r"cartx?", "cart"),  # a quantified last letter may be absent
        (r"^quote$", "quote"),
    ],
)
def test_the_oracle_names_a_group_by_its_filters_literal_head(pattern: str, name: str) -> None:
    group = Group(id="g", kind="Deployment", namespace="otel-demo", filter=[pattern])
    assert _literal_name(group) == name


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "agent_output.json is missing"),
        ('{"entities": []}', "'entities' must be a non-empty list"),
        ('{"entities": [{"name": "otel-demo/Service/cart"}]}', 'no entity has "contributing_factor"'),
        ('{"entities": [{"name": "cart", "contributing_factor": true}]}', "is not namespace/Kind/name"),
        ('{"entities": [{"name": "a/Pod/b", "contributing_factor": true}], "propagations": [{}]}',
         "propagations[0] needs 'source' and 'target'"),
        ("this is not json", "cannot be repaired"),
    ],
)  # fmt: skip
def test_validator_names_what_is_wrong(
    suite: Path, tmp_path: Path, content: str | None, expected: str
) -> None:
    if content is not None:
        (tmp_path / "agent_output.json").write_text(content, encoding="utf-8")
    problems = validate_output(_public(suite / "Scenario-1"), tmp_path)
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda root: root / "absent", "no such directory"),
        (lambda root: root, "no incident snapshot found"),
    ],
)
def test_bad_scenarios_path_is_a_usage_error(tmp_path: Path, make, message: str) -> None:
    proc = run_cli(
        ["sre", "run", "--scenarios", str(make(tmp_path)), "--output", str(tmp_path / "o")]
    )
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_snapshot_without_ground_truth_is_a_usage_error(suite: Path, tmp_path: Path) -> None:
    copy = tmp_path / "Scenario-1"
    shutil.copytree(suite / "Scenario-1", copy)
    (copy / "ground_truth.yaml").unlink()
    proc = run_cli(["sre", "run", "--scenarios", str(copy), "--output", str(tmp_path / "o")])
    assert proc.returncode == 2
    assert f"{copy}: no ground truth" in proc.stderr


def test_command_agent_gets_the_snapshot_and_prompt_but_no_ground_truth(
    suite: Path, tmp_path: Path
) -> None:
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed: the command agent refuses to run unsandboxed")
    # the answer names Scenario-1's root cause (whichever fault type comes first in name order)
    (root,) = _truth_root_causes(suite / "Scenario-1")
    answer = json.dumps({"entities": [{"name": f"otel-demo/{root}", "contributing_factor": True}]})
    command = (
        "test -d alerts && test -f otel_traces_raw.tsv && test -f k8s_objects_raw.tsv "
        "&& test ! -e ground_truth.yaml && grep -q 'itbench sre mcp --snapshot' TASK.md "
        f"&& echo '{answer}' > agent_output.json"
    )
    doc, _ = _run(
        ["--scenarios", str(suite / "Scenario-1"), "--agent-cmd", command], tmp_path / "c"
    )
    (entry,) = doc["raw_results"]
    assert "error" not in entry, entry
    assert entry["scores"]["root_cause_entity"]["calculation_f1"] == 1.0


def test_without_object_changes_the_trace_suspect_is_named(sparse_incident: Path) -> None:
    """Alerts and traces only (the hand-written fixture): no change to rank, so the deepest
    failing service of the trace error tree is the answer, and the missing files are noted."""
    diagnosis = diagnose(sparse_incident)
    assert [e["name"] for e in diagnosis.entities if e["contributing_factor"]] == [
        "otel-demo/Service/checkout"
    ]
    assert any("objects file is missing" in n for n in diagnosis.notes)
    assert diagnosis.propagations[0]["target"] == "otel-demo/Service/frontend"


def test_empty_workspace_gives_an_empty_answer_not_a_crash(tmp_path: Path) -> None:
    diagnosis = diagnose(tmp_path)
    assert diagnosis.document() == {"entities": [], "propagations": [], "alerts_explained": []}
    # objects (for changes and for states), events, alerts, traces, metrics: each named missing
    assert len(diagnosis.notes) == 6


def test_eval_repairs_a_fenced_output_with_a_trailing_comma(tmp_path: Path) -> None:
    """Issue 27: the oracle's answer in a fenced block between prose, with a trailing comma
    inside (each repair worked alone, not together), is still read by `sre eval` and scores as
    the undamaged one."""
    suite = tmp_path / "incidents"
    generate_incidents(suite, SEED, 1)
    run = tmp_path / "run"
    proc = run_cli(
        ["sre", "run", "--scenarios", str(suite), "--agent", "oracle", "--output", str(run),
         "--no-progress"],
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (output,) = run.glob("*/1/agent_output.json")
    document = json.loads(output.read_text())
    assert document["entities"], document
    text = json.dumps(document, indent=2)
    damaged = text[: text.rindex("}")].rstrip() + ",\n}"  # a trailing comma before the last brace
    output.write_text(f"Here is the diagnosis:\n```json\n{damaged}\n```\nTell me if you need more.")
    proc = run_cli(
        ["sre", "eval", "--outputs", str(run), "--ground-truth", str(suite), "--format", "json"]
    )
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    assert "error" not in entry, entry
    assert entry["scores"]["root_cause_entity"]["calculation_f1"] == 1.0
