"""The investigation tools as :class:`itbench.llm.tools.Tool`\\ s for the core ``llm`` agent.

Each tool keeps its original name, description and arguments; the file arguments are filled from
the workspace (the snapshot), so a model never needs to know paths. They return data, never an
answer: the baseline's ranking is not among them, so an ``llm`` score measures the model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from itbench.fsutil import check_agent_path
from itbench.llm.tools import Tool
from itbench.models import PublicScenario

#: Tools whose inputs a snapshot does not hold (the architecture file; a file to write).
_NEEDS_MORE_THAN_A_SNAPSHOT = frozenset({"build_topology", "topology_analysis"})


def _parameters(spec) -> dict[str, Any]:
    """The tool's JSON schema without the file arguments the workspace fills."""
    schema = spec.args.model_json_schema()
    filled = set(spec.snapshot_paths or {})
    properties = {k: v for k, v in schema.get("properties", {}).items() if k not in filled}
    required = [r for r in schema.get("required", []) if r not in filled]
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    if "$defs" in schema:
        out["$defs"] = schema["$defs"]
    return out


def _function(spec, workspace: Path):
    from sre.snapshot_args import validate, with_snapshot_defaults
    from sre.tools._common import answer_text

    shown = set(_parameters(spec)["properties"])

    def run(**arguments: Any) -> str:
        # The tools run here as the runner's user, outside any sandbox, and open the files they
        # are given by path: a file argument the model sends itself (hidden from its schema, yet
        # accepted by the tool) would read any file of the machine, so only the shown ones pass.
        unknown = sorted(set(arguments) - shown)
        if unknown:
            raise ValueError(
                f"{', '.join(unknown)}: not an argument of {spec.name} (the snapshot's files "
                "are filled in from your workspace)"
            )
        filled = with_snapshot_defaults(spec, arguments, workspace)
        # and what the workspace holds there is opened only when no link (planted with the
        # shell tool) leads elsewhere and no FIFO blocks, on the way or anywhere below
        for field in spec.snapshot_paths or {}:
            check_agent_path(workspace, Path(filled[field]).relative_to(workspace))
        result = spec.run(validate(spec, filled))
        # the original tool's text, then our warnings after it (as an MCP client sees content
        # and _meta): the model reads what the original server would have said
        text = answer_text(result.answer())
        if result.warnings:
            text += "\n\nwarnings:\n" + "\n".join(f"- {w}" for w in result.warnings)
        return text

    return run


def sre_llm_tools(scenario: PublicScenario, workspace: Path) -> list[Tool]:
    from sre.tools import tool_specs  # duckdb: start-up time (plugin docstring)

    tools = [
        Tool(name, spec.description, _parameters(spec), _function(spec, workspace))
        for name, spec in tool_specs().items()
        if name not in _NEEDS_MORE_THAN_A_SNAPSHOT
    ]
    if scenario.scenario_class == "sre-mitigation":
        from sre.agents.kubectl_tool import kubectl_tool

        tools.append(kubectl_tool(workspace))  # the trial's cluster, guarded
    return tools
