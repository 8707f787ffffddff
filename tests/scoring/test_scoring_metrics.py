"""Set, ranking, pass@k, chain and proximity metrics on hand-worked examples."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from itbench.scoring.chains import chain_score, contract, lcs_length
from itbench.scoring.passk import mean_pass_at_k, pass_at_k
from itbench.scoring.proximity import proximity_score
from itbench.scoring.ranking import precision_at_full_recall
from itbench.scoring.sets import set_score, set_score_at_k


def test_set_score_by_hand():
    s = set_score(["a", "b", "c"], ["a", "d"])  # tp 1: P 1/3, R 1/2, F1 2*(1/6)/(5/6) = 0.4
    assert (s.true_positives, s.precision, s.recall) == (1, 1 / 3, 0.5)
    assert math.isclose(s.f1, 0.4)
    empty = set_score([], ["a"])
    assert (empty.precision, empty.recall, empty.f1) == (0.0, 0.0, 0.0)
    assert set_score(["a", "a"], ["a"]).precision == 1.0  # duplicates count once


def test_set_score_at_k_uses_first_distinct_items():
    s = set_score_at_k(["x", "x", "a", "b"], ["a", "b"], 2)  # first two distinct: x, a
    assert (s.precision, s.recall) == (0.5, 0.5)
    with pytest.raises(ValueError):
        set_score_at_k(["a"], ["a"], 0)


def test_precision_at_full_recall():
    assert precision_at_full_recall(["a", "b", "c", "d"], ["a", "b"]) == 0.5
    assert precision_at_full_recall(["a", "c"], ["a", "b"]) == 0.0  # b missed
    assert precision_at_full_recall([], []) == 0.0


def test_pass_at_k_by_hand():
    assert pass_at_k(5, 0, 1) == 0.0
    assert pass_at_k(5, 5, 3) == 1.0
    assert math.isclose(pass_at_k(4, 1, 1), 0.25)
    # 1 - C(2,2)/C(4,2) = 1 - 1/6
    assert math.isclose(pass_at_k(4, 2, 2), 5 / 6)
    assert mean_pass_at_k([(4, 1), (4, 3)], 1) == 0.5
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)


@settings(derandomize=True, max_examples=200)
@given(
    st.integers(1, 9).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n)))
)
def test_pass_at_k_equals_enumeration_of_subsets(nck):
    n, c, k = nck
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    brute = sum(any(outcomes[i] for i in s) for s in subsets) / len(subsets)
    assert math.isclose(pass_at_k(n, c, k), brute, abs_tol=1e-12)


def test_chain_score_contracts_and_uses_lcs():
    assert contract(["a", "a", "b", "a"]) == ["a", "b", "a"]
    assert lcs_length("abcbdab", "bdcaba") == 4
    component = {"svc-a": "A", "pod-a": "A", "svc-b": "B", "svc-c": "C"}.get
    s = chain_score(["pod-a", "svc-a", "svc-c"], ["svc-a", "svc-b", "svc-c"], component)
    # predicted A C, expected A B C: LCS 2 -> P 1, R 2/3
    assert (s.precision, s.true_positives) == (1.0, 2)
    assert math.isclose(s.recall, 2 / 3)


def test_proximity_scores_hops_along_the_path():
    path = ["A", "B", "C", "D"]
    s = proximity_score(["B", "X"], ["A"], path)  # B is 1 hop from A: 1/2; X off path: 0
    assert (s.precision, s.recall) == (0.25, 0.5)
    fp = proximity_score(["B"], ["A"], path, with_fp=True)  # 1/(1 + 1/4) = 0.8
    assert math.isclose(fp.precision, 0.8) and math.isclose(fp.recall, 0.8)
    exact = proximity_score(["A"], ["A"], path)
    assert (exact.precision, exact.recall, exact.f1) == (1.0, 1.0, 1.0)
