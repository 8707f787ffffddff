"""The investigation tools over an incident snapshot: the original ITBench MCP server's names,
arguments, defaults and return shapes (``../shared/reference/itbench-formats.md`` §3), one module
per tool, each with a pydantic ``Args`` and ``Result`` and a ``run(args)``.

>>> from sre.tools import event_analysis
>>> event_analysis.run(event_analysis.Args(events_file="snap/k8s_events_raw.tsv", group_by="reason"))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sre.tools._common import ToolSpec

#: every tool, in the order the original server lists them
TOOL_NAMES = (
    "build_topology", "topology_analysis", "metric_analysis", "get_metric_anomalies",
    "event_analysis", "get_trace_error_tree", "log_analysis", "get_context_contract",
    "k8s_spec_change_analysis", "get_k8_spec", "alert_analysis", "alert_summary",
)  # fmt: skip


def tool_specs() -> dict[str, ToolSpec]:
    """name -> spec; explicit, no registration by import side effect."""
    return {name: importlib.import_module(f"sre.tools.{name}").SPEC for name in TOOL_NAMES}


def call(name: str, arguments: dict) -> dict:
    """Run a tool by name on plain arguments and return its JSON-ready answer (the CLI and the
    MCP server's one entry point)."""
    from itbench.errors import unknown_name

    if name not in TOOL_NAMES:
        raise unknown_name("tool", name, list(TOOL_NAMES))
    spec = importlib.import_module(f"sre.tools.{name}").SPEC
    args = spec.args.model_validate(arguments)
    return spec.run(args).model_dump(mode="json", by_alias=True)
