"""Append-only JSONL transcript of a trial, with secrets scrubbed before anything touches disk."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from itbench import jsonsafe
from itbench.errors import InputError
from itbench.fsutil import append_line

#: Environment variables whose values must never be written (API keys, tokens, passwords).
_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE)
_MIN_SECRET_LEN = 8  # shorter values would redact ordinary words


def secret_values(environ: dict[str, str] | None = None) -> tuple[str, ...]:
    env = os.environ if environ is None else environ
    values = {v for k, v in env.items() if _SECRET_NAME.search(k) and len(v) >= _MIN_SECRET_LEN}
    # Longest first so a key containing another key is replaced whole.
    return tuple(sorted(values, key=len, reverse=True))


def scrub(value: Any, secrets: tuple[str, ...]) -> Any:
    """Replace every secret occurring in strings of a JSON-like value with ``***``."""
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, "***")
        return value
    if isinstance(value, dict):
        return {scrub(k, secrets): scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(v, secrets) for v in value]
    return value


class Transcript:
    """Writes one JSON object per line; each line is flushed so a killed trial keeps its history."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._secrets = secret_values()

    def record(self, event: str, **fields: Any) -> None:
        entry = {"ts": round(time.time(), 3), "event": event, **fields}
        # a lone surrogate an agent wrote (its answer's "\\ud800") has no UTF-8 form
        line = jsonsafe.writable_text(
            json.dumps(scrub(entry, self._secrets), default=str, ensure_ascii=False)
        )
        # the transcript lies in the agent's workspace: a link planted in its place is replaced,
        # never followed (it could point at any file the runner may write)
        append_line(self.path, line + "\n")

    def scrub(self, value: Any) -> Any:
        return scrub(value, self._secrets)


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """The events of a transcript; InputError naming the file and line for a line that is not a
    JSON object (the file lies in the agent's workspace: the agent may have written to it)."""
    if not path.exists():
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = jsonsafe.loads(line, f"{path}: line {number}")
        except jsonsafe.TooDeep:
            raise
        except ValueError as exc:  # JSONDecodeError, or a number longer than int() takes
            raise InputError(f"{path}: line {number}: not JSON ({exc})") from None
        if not isinstance(event, dict):
            raise InputError(f"{path}: line {number}: not a JSON object")
        events.append(event)
    return events
