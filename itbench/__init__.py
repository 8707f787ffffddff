"""itbench: an offline-first benchmark and policy engine for AI agents doing IT operations work.

This package is the core. It names no domain (a test greps it): domains arrive as plugins.

- ``plugins/``: discovery through entry points, the ``Domain`` spec and the agent contract
  (``spec.py``);
- ``runner/``: the library API (``benchmark.py``: ``RunRequest``, ``run_benchmark``,
  ``evaluate_outputs``, importable from ``itbench`` itself), the run plan, trials, persistent
  workers, the local and Ray executors (``executors/``), evaluation and resuming;
- ``agents/``: the agents every domain gets (``oracle``, ``command``, ``llm``) and their
  workspace tools; ``llm/`` and ``reflection/``: model calls and the validate-and-retry loop;
- ``sandbox/``: bubblewrap confinement of agents and generated code (limits, seccomp, host tree);
- ``cluster/``: the offline Kubernetes API server, its controllers, admission, and the
  ``ClusterExtension`` hook through which a domain adds kinds or reconciles;
- ``models/``, ``scoring/``: records, metrics and the ``ResultsDocument``;
  ``report/``: reports and the leaderboard; ``cli/``: the commands every installation has;
- ``jsonsafe``, ``yamlsafe``, ``goregexp``, ``gotime``: safe readers and Go semantics shared by
  plugins; ``exitcodes``: the exit codes of the command-line contract.

User documentation: the site under ``docs/`` (``mkdocs serve``).
"""

from __future__ import annotations

__version__ = "0.1.0"

#: The library API (``docs/library.md``), imported on first use: ``import itbench.jsonsafe`` runs
#: this file too, and must not load the runner with it.
_LIBRARY = ("RunRequest", "evaluate_outputs", "run_benchmark")

__all__ = ["RunRequest", "__version__", "evaluate_outputs", "run_benchmark"]


def __getattr__(name: str) -> object:
    if name in _LIBRARY:
        from itbench.runner import benchmark

        return getattr(benchmark, name)
    raise AttributeError(f"module 'itbench' has no attribute {name!r}")
