"""Deterministic scoring of ``root_cause_resource`` and ``root_cause_resource_exact``.

A predicted resource matches a ground-truth one when names are equal (case-insensitive, surrounding
space ignored) and types are equal after folding case, spaces and underscores (``Instance_Family``,
``instance family``). This is the faithful, reproducible stand-in for ITBench's LLM judge.

``root_cause_resource`` keeps ITBench's rule (1 when every true resource is among the predictions),
so predicting everything scores 1 on it; its precision and F1 say what it hides.
``root_cause_resource_exact`` is the strict metric (1 iff the prediction set equals the truth), as
CISO's ``strict_pass`` is. A truth of ``resource: []`` says the bill holds no anomaly: naming
nothing is the one exact answer to it, where ``root_cause_resource`` cannot tell (it has nothing
to find), so a no-anomaly control is read on the exact match.
"""

from __future__ import annotations

from collections.abc import Iterable

from finops.model import Resource
from itbench.scoring.sets import set_score

RESOURCE_METRIC = "root_cause_resource"
EXACT_METRIC = "root_cause_resource_exact"


def level_key(level: str) -> str:
    """A level name as answers and truths are compared: case, spaces and hyphens folded."""
    return level.strip().lower().replace(" ", "_").replace("-", "_")


def _key(resource: Resource) -> tuple[str, str]:
    return resource.name.strip().lower(), level_key(resource.type)


def score_root_cause_resource(
    predicted: Iterable[Resource], truth: Iterable[Resource]
) -> dict[str, float]:
    """``calculation`` is 1 iff every ground-truth resource is found; precision, recall and F1
    over the element sets keep "predict everything" from scoring well."""
    pred = {_key(r) for r in predicted}
    true = {_key(r) for r in truth}
    score = set_score(pred, true)
    return {
        "calculation": 1.0 if true and true <= pred else 0.0,
        **score.as_calculation(),
    }


def score_exact(predicted: Iterable[Resource], truth: Iterable[Resource]) -> float:
    """1 iff the predicted resources are exactly the true ones (after name/type folding); on an
    empty truth (no anomaly) that is naming nothing."""
    return 1.0 if {_key(r) for r in predicted} == {_key(r) for r in truth} else 0.0


def score_finops(
    predicted: Iterable[Resource], truth: Iterable[Resource]
) -> dict[str, dict[str, float] | float]:
    """Every FinOps metric of one answer, as a trial's ``scores``."""
    predicted, truth = tuple(predicted), tuple(truth)
    return {
        RESOURCE_METRIC: score_root_cause_resource(predicted, truth),
        EXACT_METRIC: score_exact(predicted, truth),
    }
