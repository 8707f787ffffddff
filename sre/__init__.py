"""The SRE domain: ITBench-Lite incident snapshots, the investigation tools over them (Python API,
``itbench sre tool``, an MCP server) and the offline cluster serving a snapshot's objects."""
