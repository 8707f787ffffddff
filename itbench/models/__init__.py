"""Typed, frozen records that cross module boundaries: scenarios, trials, agent results, evaluations."""

from __future__ import annotations

from itbench.models.records import (
    AgentResult,
    AgentStatus,
    Evaluation,
    PublicScenario,
    Scenario,
    ScoreValue,
    Trial,
    Usage,
)

__all__ = [
    "AgentResult",
    "AgentStatus",
    "Evaluation",
    "PublicScenario",
    "Scenario",
    "ScoreValue",
    "Trial",
    "Usage",
]
