"""Agents: what attempts a scenario. Core offers ``oracle``, ``command`` and ``llm`` for every
domain; domains add their own (``baseline`` at least); third parties come through ``itbench.agents``."""
