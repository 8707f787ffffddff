"""The tools as an MCP server over stdio (the ``mcp`` package's low-level server), with the
original server's tool names, descriptions' intent and argument names. With a snapshot directory
the file arguments become optional and default to the snapshot's files."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

from itbench.errors import ItbenchError
from sre.snapshot_args import validate, with_snapshot_defaults
from sre.tools import tool_specs
from sre.tools._common import answer_text

#: the key of the result's ``_meta`` holding our warnings (namespaced, as MCP asks of _meta keys)
WARNINGS_META = "itbench.dev/warnings"


def input_schema(spec, snapshot: Path | None) -> dict[str, Any]:
    schema = spec.args.model_json_schema()
    schema.pop("title", None)
    schema["type"] = "object"
    if snapshot is not None:
        optional = set(spec.snapshot_paths or {})
        if spec.name == "topology_analysis":
            optional.add("topology_file")
        schema["required"] = [r for r in schema.get("required", []) if r not in optional]
    return schema


def build_server(snapshot: Path | None) -> Server:
    specs = tool_specs()

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=s.name, description=s.description, input_schema=input_schema(s, snapshot)
                )
                for s in specs.values()
            ]
        )

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        spec = specs.get(params.name)
        if spec is None:
            return _error(f"unknown tool {params.name!r}; available: {', '.join(sorted(specs))}")
        try:
            args = validate(
                spec, with_snapshot_defaults(spec, dict(params.arguments or {}), snapshot)
            )
            # DuckDB queries block; a worker thread keeps the session answering pings
            result = await asyncio.to_thread(spec.run, args)
        except ItbenchError as exc:
            return _error(str(exc))
        except Exception as exc:  # an unforeseen failure is the tool's answer, not a dead server
            return _error(f"{spec.name} failed: {type(exc).__name__}: {exc}")
        # the text is the original server's answer, byte-compatible in shape; what ours knows
        # more (skipped rows, a window outside the data) rides in _meta, which clients of the
        # original ignore
        meta = {WARNINGS_META: list(result.warnings)} if result.warnings else None
        return types.CallToolResult(
            content=[types.TextContent(text=answer_text(result.answer()))], _meta=meta
        )

    return Server("itbench-sre", on_list_tools=list_tools, on_call_tool=call_tool)


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def serve(snapshot: Path | None) -> None:
    server = build_server(snapshot)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    asyncio.run(main())
