"""What an SRE results document's ``config`` records besides the core's: filled while a run is
configured and its scenarios loaded, read when the document is written (the domain's
``results_config``). Kept free of heavy imports: the plugin module imports it at start-up."""

from __future__ import annotations

from typing import Any

#: ``k`` of ``root_cause_entity_k``; ``hide`` (``--hide``); ``complexity`` per scenario id.
RESULTS_CONFIG: dict[str, Any] = {"k": 3}


def record(key: str, value: Any) -> None:
    """Set ``key`` for this run's document, or drop it when ``value`` is empty."""
    if value:
        RESULTS_CONFIG[key] = value
    else:
        RESULTS_CONFIG.pop(key, None)


def record_complexity(scenarios: Any) -> None:
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
    record("complexity", out)
