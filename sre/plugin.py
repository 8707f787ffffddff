"""The ``sre`` domain plugin: incident snapshots and the investigation tools over them.

An entry point imported by every ``itbench`` command that loads domains, so DuckDB, the tools and
the MCP server are imported only inside the commands that use them. The judge, agents and
``run``/``eval`` come with the next issue.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itbench.plugins.spec import Domain

if TYPE_CHECKING:
    import click

    from itbench.models import Scenario
    from itbench.plugins.spec import TrialScores


def _commands():
    from sre.cli import cluster, mcp, tool  # duckdb, mcp: start-up time (module docstring)

    commands = [tool, mcp, cluster]
    # the incident generator lives in its own sub-package, written alongside these tools
    if importlib.util.find_spec("sre.generator.cli") is not None:
        from sre.generator.cli import generate

        commands.append(generate)
    return commands


def _cluster_extension():
    from sre.cluster import sre_extension  # duckdb: start-up time (module docstring)

    return sre_extension()


def _load_ground_truth(path: Path | None) -> Mapping[str, Scenario]:
    from sre.judge.hooks import load_ground_truth  # pydantic models: start-up time (docstring)

    return load_ground_truth(path)


def _evaluate(scenario: Scenario, workspace: Path) -> TrialScores:
    from sre.judge.hooks import evaluate

    return evaluate(scenario, workspace)


def _run_options() -> Sequence[click.Option]:
    from sre.judge.hooks import run_options

    return run_options()


def _configure(options: Mapping[str, Any]) -> None:
    from sre.judge.hooks import configure

    configure(options)


domain = Domain(
    name="sre",
    description=(
        "Incident diagnosis from offline snapshots: investigation tools over alerts, events, "
        "objects, traces, logs and metrics (itbench sre tool|mcp|cluster)"
    ),
    commands=_commands,
    cluster_extension=_cluster_extension,
    # the judge (sre/judge): ``itbench sre eval`` and the scores of ``sre run``
    load_ground_truth=_load_ground_truth,
    evaluate=_evaluate,
    primary_metric="root_cause_entity",
    results_config={"k": 3},
    run_options=_run_options,
    configure=_configure,
)

__all__ = ["domain"]
