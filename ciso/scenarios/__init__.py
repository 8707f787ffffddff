"""CISO scenarios: the typed model, the three directory layouts that hold them (ours, ITBench
live bundles, ITBench-Lite), the loader, the agent-facing view and the reference answers."""
