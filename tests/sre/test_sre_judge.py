"""The deterministic SRE judge on hand-written ground truths and outputs: matching, every metric,
output repair and every ground-truth form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from itbench.errors import InputError, UsageError
from sre.generator.ground_truth import parse_ground_truth
from sre.groundtruth import load_truths
from sre.judge import judge
from sre.judge.matching import Matcher
from sre.outputs import parse_entity, parse_text, read_diagnosis
from tests._support.sre import INFRA_OUTPUT, TRUTH
from tests._support.sre import entities as _entities


def _truth():
    return parse_ground_truth(TRUTH, "test")


def _output(tmp_path: Path, doc: dict | str, name: str = "agent_output.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


@pytest.mark.parametrize(
    ("entity", "group", "root"),
    [
        ("otel-demo/ConfigMap/flagd-config", "cfg", "cfg"),
        ("otel-demo/configmap/flagd-config", "cfg", "cfg"),  # kinds compare case-insensitively
        ("otel-demo/Service/frontend-proxy", "frontend-proxy-service-1", None),  # not frontend\b
        ("otel-demo/Service/frontend", "frontend-service-1", None),
        ("otel-demo/Pod/ad-5b8f7c9d4-x2x9q", "ad-pod-1", "ad-pod-1"),
        ("otel-demo/Service/ad", "ad-service-1", "ad-pod-1"),  # alias of a root cause
        ("otel-demo/Deployment/ad", None, None),  # no Deployment group: kinds must agree
        ("other-ns/ConfigMap/flagd-config", None, None),  # namespaces must agree
        ("flagd-config ConfigMap", "cfg", "cfg"),  # old schema: no namespace, matches any
    ],
)
def test_entity_matching(entity, group, root):
    m = Matcher(_truth()).match(parse_entity(entity))
    assert (m.group_id if m else None) == group
    assert (m.root_cause if m else None) == root


def test_each_root_cause_is_credited_once_and_verdicts_are_recorded(tmp_path):
    out = _output(
        tmp_path,
        {
            "entities": _entities(
                "otel-demo/Service/ad",
                "otel-demo/Pod/ad-5b8f7c9d4-x2x9q",  # the same root cause again
                "otel-demo/Service/frontend",
                "otel-demo/ConfigMap/flagd-config",
            )
            + _entities("otel-demo/Service/cart", contributing=False),
        },
    )
    scores = judge(_truth(), read_diagnosis(out))
    entity = scores["root_cause_entity"]
    assert [p["matches_gt"] for p in entity["predicted_entities"]] == [True, True, False, True]
    assert [p["matched_to"] for p in entity["predicted_entities"]] == [
        "ad-pod-1",
        "ad-pod-1",
        None,
        "cfg",
    ]
    assert entity["predicted_entities"][1]["credited"] is False
    assert entity["calculation_precision"] == pytest.approx(2 / 4)
    assert entity["calculation_recall"] == 1.0
    assert scores["root_cause_entity_k@1"]["calculation_recall"] == 0.5
    assert scores["root_cause_entity_k@2"]["calculation_precision"] == 0.5  # duplicate inside k
    assert scores["root_cause_entity_k@4"]["calculation_recall"] == 1.0
    assert scores["precision_at_full_recall"] == pytest.approx(0.5)
    assert "root_cause_reasoning" not in scores  # LLM-only: absent in deterministic mode


def test_missed_root_cause_scores_zero_aa_and_partial_is_deterministic_only_off_path(tmp_path):
    out = _output(
        tmp_path, {"entities": _entities("otel-demo/ConfigMap/flagd-config", "kube-system/Pod/x")}
    )
    scores = judge(_truth(), read_diagnosis(out))
    assert scores["root_cause_entity"]["calculation_recall"] == 0.5
    assert scores["precision_at_full_recall"] == 0.0
    assert "root_cause_reasoning_partial" not in scores  # a credited entity: needs reading

    off = _output(tmp_path, {"entities": _entities("kube-system/Pod/x")}, "b.json")
    assert judge(_truth(), read_diagnosis(off))["root_cause_reasoning_partial"]["calculation"] == 0
    on = _output(tmp_path, {"entities": _entities("otel-demo/Service/frontend")}, "c.json")
    assert "root_cause_reasoning_partial" not in judge(_truth(), read_diagnosis(on))


def test_propagation_chain_fault_localization_and_proximity(tmp_path):
    doc = {
        "entities": _entities("otel-demo/Service/cart"),
        "propagations": [
            # pod and service of cart are one component; an unknown object is dropped
            {"source": "otel-demo/Pod/cart-7d9f8b6c5d-abcde", "target": "otel-demo/Service/cart"},
            {"source": "otel-demo/Service/cart", "target": "otel-demo/Service/frontend"},
            {"source": "otel-demo/Service/frontend", "target": "otel-demo/Deployment/nothing-here"},
        ],
    }
    scores = judge(_truth(), read_diagnosis(_output(tmp_path, doc)))
    chain = scores["propagation_chain"]
    assert chain["details"]["contracted_model_path"] == ["otel-demo/cart", "otel-demo/frontend"]
    assert chain["details"]["gt_path_length"] == 4
    assert chain["calculation"] == pytest.approx(2 * 1.0 * 0.5 / 1.5)
    # the first failure symptom is "cart fails" -> cart, which is in the model's chain
    assert scores["fault_localization_component_identification"]["calculation"] == 1
    # cart is one hop from the config root cause; the ad root cause is off the path
    prox = scores["root_cause_proximity_no_fp"]
    assert prox["calculation_precision"] == pytest.approx(1 / 2)
    with_fp = scores["root_cause_proximity_with_fp"]
    assert with_fp["calculation_precision"] == pytest.approx(1 / (1 + 1 / 4))


def test_old_schema_with_opaque_ids_and_names(tmp_path):
    doc = {
        "entities": [
            {"id": "a1", "name": "flagd-config ConfigMap", "contributing_factor": True},
            {"id": "b2", "name": "cart (Service)", "contributing_factor": True},
        ],
        "propagations": [{"source": "a1", "target": "b2", "source_name": "flagd-config ConfigMap"}],
    }
    diagnosis = read_diagnosis(_output(tmp_path, doc))
    assert diagnosis.propagations[0].target.kind == "Service"
    assert diagnosis.propagations[0].target.name == "cart"
    assert any("old schema" in n for n in diagnosis.notes)
    scores = judge(_truth(), diagnosis)
    assert scores["root_cause_entity"]["calculation_precision"] == 0.5
    assert scores["propagation_chain"]["details"]["contracted_model_path"] == [
        "otel-demo/configmap/flagd-config",
        "otel-demo/cart",
    ]


GOOD = {"entities": [{"name": "otel-demo/ConfigMap/flagd-config", "contributing_factor": True}]}


@pytest.mark.parametrize(
    ("text", "note"),
    [
        (json.dumps(GOOD), None),
        (json.dumps("```json\n" + json.dumps(GOOD) + "\n```"), "fenced block"),  # a JSON string
        ("Here is my answer:\n```json\n" + json.dumps(GOOD) + "\n```\nthanks", "fenced block"),
        (json.dumps(GOOD)[:-1] + ",}", "trailing commas"),
        (json.dumps(GOOD)[:-3], "unclosed brackets"),  # cut off mid-way
    ],
)
def test_broken_json_is_repaired(text, note):
    doc, notes = parse_text(text, "x.json")
    assert doc["entities"][0]["name"] == "otel-demo/ConfigMap/flagd-config"
    assert notes == (() if note is None else (f"repaired: {note}",))


def test_unrecoverable_output_is_an_input_error_naming_the_file(tmp_path):
    bad = _output(tmp_path, "I could not find the root cause.")
    with pytest.raises(InputError, match="agent_output.json"):
        read_diagnosis(bad)
    wrong = _output(tmp_path, {"entities": {"name": "x"}}, "w.json")
    with pytest.raises(InputError, match="'entities' must be a list"):
        read_diagnosis(wrong)


def test_ground_truth_forms(tmp_path):
    flat = tmp_path / "Scenario-7"
    flat.mkdir()
    (flat / "ground_truth.yaml").write_text(
        yaml.safe_dump({k: v for k, v in TRUTH.items() if k != "id"})
    )
    wrapped = tmp_path / "scenario_8"
    wrapped.mkdir()
    spec = {k: v for k, v in TRUTH.items() if k != "id"}
    doc = {
        "apiVersion": "itbench.io/v1",
        "kind": "GroundTruth",
        "metadata": {"name": "scenario-8"},
        "spec": spec,
    }
    (wrapped / "groundtruth_v1.yaml").write_text(yaml.safe_dump(doc))
    v2 = tmp_path / "scenario_9"
    v2.mkdir()
    v2_doc = {
        "apiVersion": "itbench.io/v2",
        "kind": "GroundTruth",
        "spec": {
            "entities": [{"kind": "Service", "metadata": {"name": "ad", "namespace": "otel-demo"}}]
        },
    }
    (v2 / "groundtruth.yaml").write_text(yaml.safe_dump(v2_doc))
    truths = load_truths(tmp_path)
    assert sorted(truths) == ["7", "8", "9"]
    assert [g.id for g in truths["8"].truth.root_causes] == ["cfg", "ad-pod-1"]
    assert truths["9"].truth.groups[0].name == "ad" and truths["9"].truth.groups[0].root_cause

    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([TRUTH, {**TRUTH, "id": "70"}]))
    assert sorted(load_truths(listed)) == ["7", "70"]


def test_ground_truth_errors_name_file_and_field(tmp_path):
    with pytest.raises(UsageError, match="no ground truth found"):
        load_truths(tmp_path)
    bad = tmp_path / "gt.yaml"
    bad.write_text("groups: [{id: a}]\n")
    with pytest.raises(InputError, match=r"gt.yaml.*groups\.0\.kind"):
        load_truths(bad)
    broken = tmp_path / "broken.yaml"
    broken.write_text("groups: [\n")
    with pytest.raises(InputError, match=r"broken.yaml: .*line \d+, column \d+"):
        load_truths(broken)
    nolist = tmp_path / "l.json"
    nolist.write_text(json.dumps([{"groups": []}]))
    with pytest.raises(InputError, match=r"l.json\[0\]: each ground truth of a list needs an 'id'"):
        load_truths(nolist)
    regex = tmp_path / "r.yaml"
    regex.write_text(
        yaml.safe_dump({"id": "1", "groups": [{"id": "g", "kind": "Pod", "filter": ["(["]}]})
    )
    with pytest.raises(InputError, match=r"groups\[g\]\.filter\[0\]: bad regex"):
        Matcher(load_truths(regex)["1"].truth, str(regex))


def test_infrastructure_namespace_filter_drops_those_predictions_before_scoring(tmp_path):
    from sre.judge.namespaces import INFRASTRUCTURE_NAMESPACES

    diagnosis = read_diagnosis(_output(tmp_path, INFRA_OUTPUT))
    plain = judge(_truth(), diagnosis)
    assert plain["root_cause_entity"]["calculation_precision"] == pytest.approx(2 / 5)
    assert plain["root_cause_entity_k@2"]["calculation_recall"] == 0.5
    assert "namespace_filter" not in plain["root_cause_entity"]

    filtered = judge(_truth(), diagnosis, exclude_namespaces=INFRASTRUCTURE_NAMESPACES)
    entity = filtered["root_cause_entity"]
    assert [p["entity"] for p in entity["predicted_entities"]] == [
        "otel-demo/ConfigMap/flagd-config",
        "otel-demo/Service/frontend",
        "otel-demo/Pod/ad-5b8f7c9d4-x2x9q",
    ]
    assert entity["namespace_filter"]["removed_entities"] == [
        "opentelemetry-collectors/Pod/otel-collector-0",
        "kube-system/Pod/coredns-5d78c9869d-abcde",
    ]
    assert entity["calculation_precision"] == pytest.approx(2 / 3)
    assert entity["calculation_recall"] == 1.0
    # @k is taken over the filtered list: the first two are now flagd-config and frontend
    assert filtered["root_cause_entity_k@2"]["calculation_recall"] == 0.5
    assert filtered["root_cause_entity_k@3"]["calculation_recall"] == 1.0
    assert filtered["precision_at_full_recall"] == pytest.approx(2 / 3)
    # chain and proximity are not entity metrics: the original's filter leaves them alone
    assert filtered["root_cause_proximity_no_fp"] == plain["root_cause_proximity_no_fp"]


def test_namespace_filter_keeps_entities_without_a_namespace(tmp_path):
    from sre.judge.namespaces import INFRASTRUCTURE_NAMESPACES

    out = _output(tmp_path, {"entities": _entities("flagd-config ConfigMap", "Node/worker-1")})
    scores = judge(_truth(), read_diagnosis(out), exclude_namespaces=INFRASTRUCTURE_NAMESPACES)
    entity = scores["root_cause_entity"]
    assert len(entity["predicted_entities"]) == 2
    assert entity["namespace_filter"]["removed_entities"] == []


def test_eval_exclude_infra_namespaces_flag(tmp_path):
    from tests._support.cli import run_cli

    trial = tmp_path / "outputs" / "7" / "1" / "outputs"
    trial.mkdir(parents=True)
    (trial / "agent_output.json").write_text(json.dumps(INFRA_OUTPUT))
    gt = tmp_path / "gt.json"
    gt.write_text(json.dumps([TRUTH]))
    base = ["sre", "eval", "--outputs", str(tmp_path / "outputs"), "--ground-truth", str(gt)]
    results = {}
    for flag in ([], ["--exclude-infra-namespaces"]):
        # each eval its own results document: eval does not replace one unless asked
        written = ["--result-file", str(tmp_path / f"eval-{bool(flag)}.json")]
        proc = run_cli([*base, *flag, *written, "--format", "json"])
        assert proc.returncode == 0, proc.stderr
        [raw] = json.loads(proc.stdout)["raw_results"]
        results[bool(flag)] = raw["scores"]["root_cause_entity"]
    assert results[False]["calculation_precision"] == pytest.approx(2 / 5)
    assert results[True]["calculation_precision"] == pytest.approx(2 / 3)
    assert len(results[True]["namespace_filter"]["removed_entities"]) == 2


@pytest.mark.parametrize(
    ("text", "notes"),
    [
        # issue 27: damage of several kinds at once, each of which was repaired alone
        ("```json\n" + json.dumps(GOOD)[:-2] + ",]}\n```", ("fenced block", "trailing commas")),
        ("Here:\n```json\n" + json.dumps(GOOD)[:-2] + ",  ", ("fenced block", "unclosed brackets")),
        (
            "Sure.\n```json\n" + json.dumps(GOOD)[:-2] + ",]}\n```\nanything else?",
            ("fenced block", "trailing commas"),
        ),
        (json.dumps("```json\n" + json.dumps(GOOD)[:-3]), ("fenced block", "unclosed brackets")),
        (
            "Answer: " + json.dumps(GOOD)[:-2] + ",]} hope it helps",
            ("prose around the object", "trailing commas"),
        ),
    ],
)
def test_repairs_compose(text, notes):
    doc, applied = parse_text(text, "x.json")
    assert doc == GOOD
    assert applied == tuple(f"repaired: {n}" for n in notes)
