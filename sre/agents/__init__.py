"""SRE agents and the run side of the domain: the deterministic ``baseline``
(``sre.agents.baseline``), the investigation tools as function-calling tools for the core ``llm``
agent (``sre.agents.llm_tools``), the scenarios of ``itbench sre run`` (``sre.agents.scenarios``)
and the output validator and reference answer (``sre.agents.hooks``)."""
