"""``usage.json``: how a ``command`` agent reports what it spent.

An external CLI calls its model itself, so the runner cannot count its tokens. The command may
leave ``usage.json`` in its workspace::

    {"prompt_tokens": 12000, "completion_tokens": 800, "cost_usd": 0.042, "llm_calls": 7,
     "tool_calls": 23}

Every key is optional (absent = 0); counts are integers from 0 to 10**12, ``cost_usd`` a number
from 0 to 1e9 (``MAX_COUNT``, ``MAX_COST``); other keys are refused so a typo is not silently
read as zero. The figures are the
agent's own claim: they are recorded as reported and nothing checks them.
"""

from __future__ import annotations

from pathlib import Path

from itbench import jsonsafe
from itbench.fsutil import UnsafeFile, agent_file, read_agent_text
from itbench.models import Usage

USAGE_FILE = "usage.json"
_COUNTS = ("prompt_tokens", "completion_tokens", "llm_calls", "tool_calls")


#: The largest count and cost believed. No trial spends a trillion tokens or a billion dollars,
#: and the bounds keep a run's totals far inside the 64-bit integers the results document holds
#: (a claim of 2**64 tokens once made writing results.json fail for every trial of the run).
MAX_COUNT = 10**12
MAX_COST = 1e9


def _shown(value: object) -> str:
    """``value`` for a message: a 400-digit number is cut, not echoed whole."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}… ({len(text)} characters)"


class UsageFileError(ValueError):
    """``usage.json`` is present but not as the schema above says."""


def read_usage_file(workspace: Path) -> Usage | None:
    """The usage the agent reported in its workspace, or None when it left no ``usage.json``."""
    try:
        # the agent's file: never through a link, never a FIFO or device (as every answer file)
        path = agent_file(workspace, USAGE_FILE)
        if path is None:
            return None
        data = jsonsafe.loads(read_agent_text(path), USAGE_FILE)
    except UnsafeFile as exc:
        raise UsageFileError(f"{USAGE_FILE}: not read ({exc})") from None
    except (OSError, ValueError) as exc:  # UnicodeDecodeError, JSONDecodeError, TooDeep
        raise UsageFileError(f"{USAGE_FILE}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise UsageFileError(f"{USAGE_FILE}: expected an object, got {type(data).__name__}")
    unknown = sorted(set(data) - {*_COUNTS, "cost_usd"})
    if unknown:
        raise UsageFileError(
            f"{USAGE_FILE}: unknown key {unknown[0]!r} (known: {', '.join((*_COUNTS, 'cost_usd'))})"
        )
    for key in _COUNTS:
        value = data.get(key, 0)
        if type(value) is not int or not 0 <= value <= MAX_COUNT:
            raise UsageFileError(
                f"{USAGE_FILE}: {key} must be an integer from 0 to {MAX_COUNT:,}, "
                f"got {_shown(value)}"
            )
    cost = data.get("cost_usd", 0.0)
    if isinstance(cost, bool) or not isinstance(cost, int | float) or not 0 <= cost <= MAX_COST:
        raise UsageFileError(
            f"{USAGE_FILE}: cost_usd must be a number from 0 to {MAX_COST:,.0f}, got {_shown(cost)}"
        )
    return Usage(
        prompt_tokens=data.get("prompt_tokens", 0),
        completion_tokens=data.get("completion_tokens", 0),
        cost_usd=float(cost),
        llm_calls=data.get("llm_calls", 0),
        tool_calls=data.get("tool_calls", 0),
    )
