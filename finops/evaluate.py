"""Deterministic scoring of ``root_cause_resource``.

A predicted resource matches a ground-truth one when names are equal (case-insensitive, surrounding
space ignored) and types are equal after folding case, spaces and underscores (``Instance_Family``,
``instance family``). This is the faithful, reproducible stand-in for ITBench's LLM judge.
"""

from __future__ import annotations

from collections.abc import Iterable

from finops.model import Resource
from itbench.scoring.sets import set_score


def _key(resource: Resource) -> tuple[str, str]:
    kind = resource.type.strip().lower().replace(" ", "_").replace("-", "_")
    return resource.name.strip().lower(), kind


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
