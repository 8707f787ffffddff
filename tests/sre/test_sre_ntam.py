"""NTAM (paper App. C.6.3) on small hand-made graphs, with expected values computed by hand from
the stated hyper-parameters, and its two scores in every diagnosis evaluation."""

from __future__ import annotations

import json
import math

import pytest

from sre.generator.ground_truth import parse_ground_truth
from sre.judge import judge, ntam
from sre.judge.ntam import Item, Topology
from sre.outputs import read_diagnosis
from tests._support.sre import flagd_truth

# a -> b -> c -> e -> f (calls; each depends on the next): sub-trees 5, 4, 3, 2, 1
A, B, C, E, F, Z = (("app", n) for n in "abcefz")
LINE = Topology(tuple((s, t, "calls") for s, t in ((A, B), (B, C), (C, E), (E, F))))


def _fl(*predicted):
    return ntam.ntam(LINE, [Item(n, 0) for n in predicted], [Item(C, 0)], positional=False)[
        "calculation"
    ]


def test_hyper_parameters_are_the_ones_the_readme_states():
    assert ntam.EDGE_COST == {"owns": 0.5, "calls": 1.0, "propagates": 1.0}
    assert (ntam.DISTANCE_DECAY, ntam.SUBTREE_WEIGHT) == (0.5, 0.25)
    assert (ntam.CHAIN_DECAY, ntam.POSITION_DECAY, ntam.LENGTH_PENALTY) == (0.7, 0.8, 0.5)


def test_exact_match_scores_one_and_nothing_scores_zero():
    assert _fl(C) == 1.0
    assert _fl() == 0.0


def test_near_beats_far_beats_unrelated():
    near = _fl(E)  # one call away, sub-tree {e, f}
    far = _fl(A)  # two calls away, sub-tree of five
    assert near == pytest.approx(math.exp(-0.5) / (1 + 0.25 * math.log(2)), abs=1e-6)
    assert far == pytest.approx(math.exp(-1.0) / (1 + 0.25 * math.log(5)), abs=1e-6)
    assert _fl(Z) == 0.0  # not connected at all
    assert near > far > _fl(Z)


def test_the_smaller_subtree_at_the_same_distance_scores_higher():
    # b and e are both one call from c; b depends on c, e, f (sub-tree 4), e only on f (2)
    assert _fl(E) > _fl(B)
    assert _fl(B) == pytest.approx(math.exp(-0.5) / (1 + 0.25 * math.log(4)), abs=1e-6)


def test_a_longer_prediction_is_penalised():
    assert _fl(C, F) == pytest.approx(math.exp(-0.5), abs=1e-6)  # |2 - 1| / 1
    assert _fl(C, F) < _fl(C)


def test_the_chain_read_root_first_beats_its_reverse():
    truth = [Item(C, 0), Item(B, 1), Item(A, 2)]  # c fails, b and then a see it
    same = ntam.ntam(LINE, truth, truth, positional=True)["calculation"]
    reverse = ntam.ntam(LINE, [Item(A, 0), Item(B, 1), Item(C, 2)], truth, positional=True)[
        "calculation"
    ]
    assert same == 1.0
    # weights 1, 0.7, 0.49; b keeps its place, c and a are two places off (0.8 ** 2)
    assert reverse == pytest.approx((0.64 * 1 + 1 * 0.7 + 0.64 * 0.49) / 2.19, abs=1e-6)
    assert reverse < same


def test_the_pod_for_the_deployment_is_an_owns_step():
    score = ntam.ntam(LINE, [Item(C, 0, "Pod")], [Item(C, 0, "Deployment")], positional=False)
    assert score["calculation"] == pytest.approx(math.exp(-0.25), abs=1e-6)


TRUTH = flagd_truth(
    {"id": "cart-service-1", "kind": "Service", "namespace": "otel-demo", "name": "cart"},
    {
        "id": "frontend-service-1",
        "kind": "Service",
        "namespace": "otel-demo",
        "name": "frontend",
    },
    propagations=[
        {"source": "cfg", "target": "cart-service-1", "condition": "flag", "effect": "errors"},
        {
            "source": "cart-service-1",
            "target": "frontend-service-1",
            "condition": "x",
            "effect": "errors",
        },
    ],
)


def _judge(tmp_path, entities, propagations=()):
    path = tmp_path / "agent_output.json"
    doc = {
        "entities": [{"name": n, "contributing_factor": True} for n in entities],
        "propagations": [{"source": s, "target": t} for s, t in propagations],
    }
    path.write_text(json.dumps(doc))
    return judge(parse_ground_truth(TRUTH, "test"), read_diagnosis(path))


def test_every_diagnosis_evaluation_has_both_ntam_scores(tmp_path):
    right = _judge(
        tmp_path,
        ["otel-demo/ConfigMap/flagd-config"],
        [
            ("otel-demo/ConfigMap/flagd-config", "otel-demo/Service/cart"),
            ("otel-demo/Pod/cart-7d9f8b6c5d-abcde", "otel-demo/Service/frontend"),
        ],
    )
    assert right["ntam_fault_localisation"]["calculation"] == 1.0
    assert right["ntam_propagation_chain"]["calculation"] == 1.0
    # naming cart (one propagation from the ConfigMap; cart depends on its callees) scores less
    # than the root cause, more than frontend (two steps; depends on nearly the whole demo)
    cart = _judge(tmp_path, ["otel-demo/Service/cart"])["ntam_fault_localisation"]["calculation"]
    front = _judge(tmp_path, ["otel-demo/Service/frontend"])["ntam_fault_localisation"][
        "calculation"
    ]
    assert 0 < front < cart < 1
    # a reversed chain scores less than the right one, an empty one 0
    rev = _judge(
        tmp_path,
        ["otel-demo/ConfigMap/flagd-config"],
        [
            ("otel-demo/Service/frontend", "otel-demo/Service/cart"),
            ("otel-demo/Service/cart", "otel-demo/ConfigMap/flagd-config"),
        ],
    )
    assert 0 < rev["ntam_propagation_chain"]["calculation"] < 1
    no_chain = _judge(tmp_path, ["otel-demo/Service/cart"])
    assert no_chain["ntam_propagation_chain"]["calculation"] == 0.0
