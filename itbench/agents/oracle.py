"""``oracle``: replays the scenario's reference answer. The harness self-check: must score 100%.

It is the one agent the runner hands the full scenario (through ``solve_with_reference``); its
plain ``solve`` gets the public view like every other agent and so has nothing to replay.
"""

from __future__ import annotations

from dataclasses import dataclass

from itbench.agents.base import AgentOptions, Task
from itbench.errors import UsageError
from itbench.models import AgentResult, AgentStatus, Scenario
from itbench.plugins.spec import Domain


@dataclass(frozen=True)
class OracleAgent:
    domain: Domain
    name: str = "oracle"

    def solve(self, task: Task) -> AgentResult:
        return AgentResult(
            status=AgentStatus.ERROR,
            reason="the oracle replays references and needs the runner's solve_with_reference",
        )

    def solve_with_reference(self, task: Task, scenario: Scenario) -> AgentResult:
        assert self.domain.write_reference is not None  # checked by the factory
        self.domain.write_reference(scenario, task.workspace)
        task.transcript.record("oracle", note="reference answer written")
        return AgentResult()


def oracle_factory(options: AgentOptions, domain: Domain) -> OracleAgent:
    if domain.write_reference is None:
        raise UsageError(f"domain {domain.name!r} has no reference answers; the oracle cannot run")
    return OracleAgent(domain)
