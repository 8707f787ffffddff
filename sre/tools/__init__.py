"""The investigation tools over an incident snapshot: the original ITBench MCP server's names,
arguments, defaults and return shapes (``../shared/reference/itbench-formats.md`` §3), one module
per tool, each with a pydantic ``Args`` and ``Result`` and a ``run(args)``.

>>> from sre.tools import event_analysis
>>> event_analysis.run(event_analysis.Args(events_file="snap/k8s_events_raw.tsv", group_by="reason"))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sre.tools._common import ToolAnswer, ToolSpec

#: every tool, in the order the original server lists them
TOOL_NAMES = (
    "build_topology", "topology_analysis", "metric_analysis", "get_metric_anomalies",
    "event_analysis", "get_trace_error_tree", "log_analysis", "get_context_contract",
    "k8s_spec_change_analysis", "get_k8_spec", "alert_analysis", "alert_summary",
)  # fmt: skip


def tool_specs() -> dict[str, ToolSpec]:
    """name -> spec; explicit, no registration by import side effect."""
    return {name: importlib.import_module(f"sre.tools.{name}").SPEC for name in TOOL_NAMES}


def run_tool(name: str, arguments: dict) -> ToolAnswer:
    """Run a tool by name on plain arguments: its answer in the original tool's shape and, apart,
    the warnings ours adds."""
    from itbench.errors import unknown_name
    from sre.tools._common import ToolAnswer

    if name not in TOOL_NAMES:
        raise unknown_name("tool", name, list(TOOL_NAMES))
    spec = importlib.import_module(f"sre.tools.{name}").SPEC
    result = spec.run(spec.args.model_validate(arguments))
    return ToolAnswer(result.answer(), tuple(result.warnings))


def call(name: str, arguments: dict) -> Any:
    """Run a tool by name and return its JSON-ready answer, in the original tool's shape."""
    return run_tool(name, arguments).body
