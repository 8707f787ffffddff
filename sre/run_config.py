"""What an SRE results document's ``config`` records besides the core's, computed when the
document is written from what the run was given (the domain's ``results_config``): nothing is
kept between runs. Kept free of heavy imports: the plugin module imports it at start-up."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: ``k`` of ``root_cause_entity_k``
K = 3


def results_config(scenarios: Iterable[Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """``k``; ``hide`` (``--hide``), ``task`` (``--task``) and ``cluster`` (``live`` with
    ``--kubeconfig``) of the run's options;
    ``complexity`` per scenario id of the scenarios the document covers."""
    scenarios = list(scenarios)
    config: dict[str, Any] = {"k": K}
    hide = sorted(options.get("hide") or ())
    if hide:
        config["hide"] = hide
    config["task"] = str(options.get("sre_task") or "diagnose")
    if options.get("live_kubeconfig"):  # live mode's MTTR is in wall seconds, the twin's simulated
        config["cluster"] = "live"
    complexity = complexity_by_id(scenarios)
    if complexity:
        config["complexity"] = complexity
    return config


def complexity_by_id(scenarios: Iterable[Any]) -> dict[str, Any]:
    """Each scenario's complexity (``sre.complexity``) by id, kept out of the scenario's public
    metadata: its factors (chain length, Chaos Mesh or flagd among the technologies) would tell
    the agent about the answer."""
    from sre.complexity import complexity
    from sre.generator.ground_truth import GroundTruth

    out = {}
    for s in scenarios:
        truth = s.ground_truth
        fault_type = getattr(truth, "fault_type", None)
        diagnosis = getattr(truth, "diagnosis", truth)
        if isinstance(diagnosis, GroundTruth):
            out[s.id] = complexity(diagnosis, fault_type).as_metadata()
    return out
