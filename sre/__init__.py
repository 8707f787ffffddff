"""The SRE domain: ITBench-Lite incident snapshots, the investigation tools over them (Python API,
``itbench sre tool``, an MCP server) and the offline cluster serving a snapshot's objects.

- ``plugin.py``: the ``Domain``; ``cli.py``: ``itbench sre tool|mcp|cluster|generate``;
- ``snapshot/``: reading a snapshot and its DuckDB index; ``tools/``: one module per
  investigation tool; ``mcp_server.py``: the tools over MCP;
- ``generator/``: synthetic incidents (``faults/``, one module per fault type);
- ``judge/``: the deterministic judge (entity matching, chains, NTAM, MTTD) and the optional LLM
  judge; ``groundtruth.py``, ``outputs.py``: reading ground truths and agent outputs;
- ``agents/``: the ``baseline`` (evidence, ranking, report), the ``llm`` agent's tools and its
  guarded kubectl; ``twin/``: the reacting cluster of ``--task mitigate`` and its verdict;
- ``complexity.py``, ``report.py``: the paper's complexity and Table-4 layout.

User documentation: docs/sre/ (``mkdocs serve``).
"""
