"""``oracle``: replays the scenario's reference answer. The harness self-check: must score 100%.

It is the one agent the runner hands the full scenario (through ``solve_with_reference``); its
plain ``solve`` gets the public view like every other agent and so has nothing to replay.
"""

from __future__ import annotations

from dataclasses import dataclass

from itbench.agents.base import AgentOptions, Task
from itbench.errors import UsageError
from itbench.models import AgentResult, AgentStatus, Scenario
from itbench.plugins.spec import DomainRun


@dataclass(frozen=True)
class OracleAgent:
    #: The run's session, whose ``write_reference`` writes the answers.
    run: DomainRun
    name: str = "oracle"

    def solve(self, task: Task) -> AgentResult:
        return AgentResult(
            status=AgentStatus.ERROR,
            reason="the oracle replays references and needs the runner's solve_with_reference",
        )

    def solve_with_reference(self, task: Task, scenario: Scenario) -> AgentResult:
        assert self.run.write_reference is not None  # checked by the factory
        self.run.write_reference(scenario, task.workspace)
        task.transcript.record("oracle", note="reference answer written")
        return AgentResult()


def oracle_factory(options: AgentOptions, run: DomainRun) -> OracleAgent:
    if run.write_reference is None:
        name = run.domain.name
        raise UsageError(f"domain {name!r} has no reference answers; the oracle cannot run")
    return OracleAgent(run)
