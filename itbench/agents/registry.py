"""Resolve an agent name: core kinds, the domain's own agents, then ``itbench.agents`` plugins."""

from __future__ import annotations

from itbench.agents.base import AgentFactory
from itbench.errors import unknown_name
from itbench.plugins import AGENT_GROUP, discover, load
from itbench.plugins.spec import Domain


def core_agents() -> dict[str, AgentFactory]:
    from itbench.agents.command import command_factory
    from itbench.agents.llm import llm_factory
    from itbench.agents.oracle import oracle_factory

    return {"oracle": oracle_factory, "command": command_factory, "llm": llm_factory}


def available_agents(domain: Domain) -> list[str]:
    names = set(core_agents()) | set(domain.agents) | {r.name for r in discover(AGENT_GROUP)}
    return sorted(names)


def resolve_agent(name: str, domain: Domain) -> AgentFactory:
    if name in domain.agents:
        return domain.agents[name]
    core = core_agents()
    if name in core:
        return core[name]
    for record in discover(AGENT_GROUP):
        if record.name == name:
            factory = load(record)
            if not callable(factory):
                raise unknown_name("agent", name, available_agents(domain))
            return factory
    raise unknown_name("agent", name, available_agents(domain))
