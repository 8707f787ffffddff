"""Tools an LLM agent may call: a name, a JSON-schema of its arguments, and a Python function."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from itbench import jsonsafe


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: Mapping[str, Any]
    function: Callable[..., Any] = field(repr=False)

    def spec(self) -> dict[str, Any]:
        """The OpenAI-style function spec litellm forwards to every provider."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": dict(self.parameters),
            },
        }


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    #: Raw argument text as the model sent it (may be malformed JSON).
    arguments: str


def invoke(tools: Mapping[str, Tool], call: ToolCall, max_chars: int = 20000) -> str:
    """Run one tool call and return its result as text for the model.

    Model mistakes (unknown tool, malformed JSON, wrong arguments, a tool raising) become an error
    message the model can correct, never an exception that ends the trial.
    """
    tool = tools.get(call.name)
    if tool is None:
        return f"error: unknown tool {call.name!r}; available: {', '.join(sorted(tools))}"
    try:
        args = jsonsafe.loads(call.arguments, "arguments") if call.arguments.strip() else {}
    except jsonsafe.TooDeep as exc:
        return f"error: {exc}; resend the call"
    except json.JSONDecodeError as exc:
        return f"error: arguments are not valid JSON ({exc.msg} at position {exc.pos}); resend the call"
    if not isinstance(args, dict):
        return "error: arguments must be a JSON object"
    try:
        result = tool.function(**args)
    except TypeError as exc:
        return f"error: bad arguments for {call.name}: {exc}"
    except Exception as exc:  # a tool failing on model input is feedback, not a crash
        # (imported here: the sandbox package is heavy for a CLI start that never fails so)
        from itbench.sandbox.availability import SandboxUnavailable

        if isinstance(exc, SandboxUnavailable):
            raise  # the machine's fault, not the model's: the trial cannot run confined
        return f"error: {call.name} failed: {type(exc).__name__}: {exc}"
    text = result if isinstance(result, str) else json.dumps(result, default=str)
    if len(text) > max_chars:
        text = text[:max_chars] + f"\n... (truncated, {len(text)} characters in all)"
    return text
