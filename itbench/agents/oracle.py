"""``oracle``: replays the scenario's reference answer. The harness self-check: must score 100%."""

from __future__ import annotations

from dataclasses import dataclass

from itbench.agents.base import AgentOptions, Task
from itbench.errors import UsageError
from itbench.models import AgentResult
from itbench.plugins.spec import Domain


@dataclass(frozen=True)
class OracleAgent:
    domain: Domain
    name: str = "oracle"

    def solve(self, task: Task) -> AgentResult:
        assert self.domain.write_reference is not None  # checked by the factory
        self.domain.write_reference(task.scenario, task.workspace)
        task.transcript.record("oracle", note="reference answer written")
        return AgentResult()


def oracle_factory(options: AgentOptions, domain: Domain) -> OracleAgent:
    if domain.write_reference is None:
        raise UsageError(f"domain {domain.name!r} has no reference answers; the oracle cannot run")
    return OracleAgent(domain)
