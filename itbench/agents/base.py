"""The agent contract: a task in, files in the workspace and an :class:`AgentResult` out.

The contract types live in :mod:`itbench.plugins.spec` (beside ``Domain``, which refers to them)
and are re-exported here for existing imports; this module adds the task file conventions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from itbench.plugins.spec import (
    Agent,
    AgentFactory,
    AgentNetwork,
    AgentOptions,
    ConfinedAgent,
    ReferenceAgent,
    Task,
)

if TYPE_CHECKING:
    from itbench.models import PublicScenario, Scenario

__all__ = [
    "TASK_ENV",
    "TASK_FILE",
    "Agent",
    "AgentFactory",
    "AgentNetwork",
    "AgentOptions",
    "ConfinedAgent",
    "ReferenceAgent",
    "Task",
    "task_prompt",
]

TASK_FILE = "TASK.md"
TASK_ENV = "ITBENCH_TASK"


def task_prompt(scenario: Scenario | PublicScenario) -> str:
    """The task text: the scenario's description, or its title when it has none."""
    return scenario.description.strip() or scenario.title
