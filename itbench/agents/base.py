"""The agent contract: a task in, files in the workspace and an :class:`AgentResult` out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from itbench.models import AgentResult, Scenario
from itbench.transcript import Transcript

if TYPE_CHECKING:
    from itbench.plugins.spec import Domain

TASK_FILE = "TASK.md"
TASK_ENV = "ITBENCH_TASK"


@dataclass(frozen=True)
class Task:
    """What an agent is given. ``scenario`` is the public view: ground truth and reference are
    excluded from its dumps and agents must not read them (the baseline never does)."""

    scenario: Scenario
    prompt: str
    workspace: Path
    time_limit_s: float | None
    transcript: Transcript
    #: Environment variables of the trial's live environment (``KUBECONFIG`` for a cluster);
    #: agents that run tools or external commands pass them on.
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AgentOptions:
    """Options from the command line that agent factories may use."""

    model: str | None = None
    api_base: str | None = None
    agent_cmd: str | None = None
    reflection_rounds: int = 3
    max_steps: int = 20
    temperature: float = 0.0
    llm_timeout_s: float = 120.0
    max_retries: int = 4


class Agent(Protocol):
    name: str

    def solve(self, task: Task) -> AgentResult:
        """Attempt the task, leaving the answer as files in ``task.workspace``."""
        ...


#: Builds an agent for a domain from CLI options. Called once in the parent before any trial,
#: so configuration errors (unknown model, missing API key) surface before work starts.
AgentFactory = Callable[["AgentOptions", "Domain"], Agent]


def task_prompt(scenario: Scenario) -> str:
    """The task text: the scenario's description, or its title when it has none."""
    return scenario.description.strip() or scenario.title
