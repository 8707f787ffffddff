"""MTTD, the paper's mean time to diagnosis (Table 4, App. C.6.3), for one diagnosis trial.

Seconds from the trial's start to the first diagnosis that names every ground-truth root cause,
read only from what the runner recorded at its own clock in the trial's transcript (which it keeps
where the agent cannot write while the agent runs, and lays in the trial folder afterwards):

- each ``write_file`` of an ``agent_output.json`` an ``llm`` agent made, at the time its reply
  was recorded;
- each version of the answer file the runner's watch saw (``answer_seen``: its first sight of
  that content, however the agent wrote it: a command, a shell tool).

The answer file's modification time is never read: it is the agent's to set. When the final
diagnosis names the root cause and no record shows when it appeared (a transcript from before the
watch), it counts at the agent's end. A trial that never names the root cause has no MTTD (the
paper counts it infinite): the score is absent, tables show "—" and means are over the trials
that found it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from itbench.errors import InputError
from itbench.fsutil import UnsafeFile, read_agent_bytes
from itbench.runner.answer_watch import ANSWER_SEEN
from itbench.runner.layout import AGENT_OUTPUT_NAMES, TRANSCRIPT_FILE
from itbench.transcript import read_transcript
from sre.outputs import AgentDiagnosis, diagnosis_from, parse_text

WRITE_FILE = "transcript write_file"
WATCH = "runner watch"
AGENT_END = "agent end"


@dataclass(frozen=True)
class TimeToDiagnosis:
    seconds: float | None
    #: which runner record timed it: ``transcript write_file``, ``runner watch`` or ``agent end``;
    #: None when not found
    source: str | None


@dataclass(frozen=True)
class _Sighting:
    """One diagnosis the runner saw, at its clock: its text when recorded, else its digest."""

    ts: float
    text: str | None
    sha256: str | None
    source: str


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _written_outputs(event: dict[str, Any], ts: float) -> Iterator[_Sighting]:
    for call in event.get("tool_calls") or []:
        if not isinstance(call, dict) or call.get("name") != "write_file":
            continue
        args = call.get("arguments")
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                continue
        if not isinstance(args, dict) or not isinstance(args.get("content"), str):
            continue
        if PurePosixPath(str(args.get("path", ""))).name in AGENT_OUTPUT_NAMES:
            yield _Sighting(ts, args["content"], None, WRITE_FILE)


def _sightings(events: list[dict[str, Any]]) -> Iterator[_Sighting]:
    for event in events:
        ts = _number(event.get("ts"))
        if ts is None:
            continue
        if event.get("event") == "llm_response":
            yield from _written_outputs(event, ts)
        elif event.get("event") == ANSWER_SEEN:
            text = event.get("content")
            digest = event.get("sha256")
            yield _Sighting(
                ts,
                text if isinstance(text, str) else None,
                digest if isinstance(digest, str) else None,
                WATCH,
            )


def _last_attempt(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events from the last ``trial_start`` on (a transcript kept across a redo holds more)."""
    starts = [i for i, e in enumerate(events) if e.get("event") == "trial_start"]
    return events[starts[-1] :] if starts else []


def _digest(output: Path | None) -> str | None:
    if output is None:
        return None
    try:
        return hashlib.sha256(read_agent_bytes(output)).hexdigest()
    except (UnsafeFile, OSError):
        return None


def time_to_diagnosis(
    workspace: Path,
    output: Path | None,
    final: AgentDiagnosis | None,
    names_root_cause: Callable[[AgentDiagnosis], bool],
) -> TimeToDiagnosis:
    try:
        events = _last_attempt(read_transcript(workspace / TRANSCRIPT_FILE))
    except InputError:
        return TimeToDiagnosis(None, None)  # a transcript that does not read: not measurable
    start = _number(events[0].get("ts")) if events else None
    if start is None:
        return TimeToDiagnosis(None, None)
    final_right = final is not None and names_root_cause(final)
    final_digest = _digest(output) if final_right else None
    for seen in sorted(_sightings(events), key=lambda s: s.ts):
        if seen.text is not None:
            try:
                doc, _ = parse_text(seen.text, "agent_output.json (transcript)")
                right = names_root_cause(diagnosis_from(doc, "agent_output.json (transcript)"))
            except InputError:
                continue
        else:  # too large to record: known by its digest, the final answer's or not
            right = final_digest is not None and seen.sha256 == final_digest
        if right:
            return TimeToDiagnosis(round(max(seen.ts - start, 0.0), 3), seen.source)
    end = next((_number(e.get("ts")) for e in events if e.get("event") == "agent_end"), None)
    if final_right and end is not None:
        return TimeToDiagnosis(round(max(end - start, 0.0), 3), AGENT_END)
    return TimeToDiagnosis(None, None)
