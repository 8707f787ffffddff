"""The ``sre`` domain plugin: incident snapshots and the investigation tools over them.

An entry point imported by every ``itbench`` command that loads domains, so DuckDB, the tools and
the MCP server are imported only inside the commands that use them; so are the judge
(``sre/judge``) and the scenarios and agents of ``sre run`` (``sre/agents``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import TYPE_CHECKING

from itbench.plugins.hooks import hook
from itbench.plugins.spec import Domain
from sre.run_config import results_config

if TYPE_CHECKING:
    import click

    from itbench.plugins.spec import Agent, AgentOptions, DomainRun


def _commands():
    from sre.cli import cluster, mcp, tool  # duckdb, mcp: start-up time (module docstring)

    commands = [tool, mcp, cluster]
    # the incident generator lives in its own sub-package, written alongside these tools
    if importlib.util.find_spec("sre.generator.cli") is not None:
        from sre.generator.cli import generate
        from sre.generator.faults_cli import faults

        commands.append(generate)
        commands.append(faults)
    return commands


def _baseline(options: AgentOptions, run: DomainRun) -> Agent:
    from sre.agents.baseline import BaselineAgent  # the tools, duckdb: start-up time

    return BaselineAgent()


def _run_options() -> Sequence[click.Option]:
    from sre.judge.hooks import run_options
    from sre.live.environment import live_options  # --kubeconfig ...: the live mode

    return [*run_options(), *live_options()]


domain = Domain(
    name="sre",
    description=(
        "Incident diagnosis from offline snapshots: investigation tools over alerts, events, "
        "objects, traces, logs and metrics (itbench sre tool|mcp|cluster)"
    ),
    commands=_commands,
    cluster_extension=hook("sre.cluster:sre_extension"),
    # the judge (sre/judge): ``itbench sre eval`` and the scores of ``sre run``
    load_ground_truth=hook("sre.judge.hooks:load_ground_truth"),
    # the diagnosis judge; the session (sre/session.py) picks the evaluator of the run's task
    evaluate=hook("sre.judge.hooks:evaluate_diagnosis"),
    primary_metric="root_cause_entity",
    # ITBench-AA's headline (sre.judge.metrics.AA_METRIC, named here so loading the plugin
    # imports no judge code): a repeat that misses a root cause scores 0, else its precision
    protocol_metrics={"itbench-aa": "precision_at_full_recall"},
    # k, the ablation (--hide), the task and each scenario's complexity: what the run measured
    results_config=results_config,
    # the paper's Table-4 layout beside gpt-4o's published row, then the generic tables
    render_table=hook("sre.report:render"),
    run_options=_run_options,
    # the run's settings (task, --hide, --judge, live mode, its directory) in its session
    session=hook("sre.session:open_run"),
    # the run side (sre/agents): scenarios, the baseline, the llm agent's prompt (its tools,
    # validator and the oracle's references come with the run's session)
    load_scenarios=hook("sre.agents.scenarios:load_scenarios"),
    agents={"baseline": _baseline},
    llm_prompt_template=hook("sre.agents.hooks:prompt_template"),
    # ``--task mitigate``: the incident's offline cluster (sre/twin) around each trial
    trial_environment=hook("sre.twin.environment:trial_environment"),
)

__all__ = ["domain"]
