"""SRE agents: the deterministic ``baseline`` (``sre.agents.baseline``), the investigation tools
as function-calling tools for the core ``llm`` agent (``sre.agents.llm_tools``) and the Domain
hooks ``itbench sre run`` is built from (``sre.agents.hooks``)."""
