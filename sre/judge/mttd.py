"""MTTD, the paper's mean time to diagnosis (Table 4, App. C.6.3), for one diagnosis trial.

Seconds from the trial's start (the transcript's ``trial_start``) to the first diagnosis that
names every ground-truth root cause. Diagnoses are read in order from the transcript — each
``write_file`` of an ``agent_output.json`` an ``llm`` agent made, at the time its reply was
recorded — and, when none of them is right, the final ``agent_output.json`` counts at its
modification time (an agent that writes the file once, the ``baseline`` or a ``command`` agent).
That time is the agent's to set, so it is clamped between the trial's start and the agent's end.
A trial that never names the root cause has no MTTD (the paper counts it infinite): the score is
absent, tables show "—" and means are over the trials that found it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from itbench import jsonsafe
from itbench.errors import InputError
from itbench.transcript import read_transcript
from sre.outputs import AgentDiagnosis, diagnosis_from, parse_text

TRANSCRIPT = "transcript.jsonl"
_OUTPUT_NAMES = ("agent_output.json", "agent_response.json")


@dataclass(frozen=True)
class TimeToDiagnosis:
    seconds: float | None
    #: ``transcript write_file`` or ``agent_output.json write time``; None when not found
    source: str | None


#: Transcript times are Unix seconds the runner wrote (``time.time()``); anything outside this
#: range (negative, past the year 5000, a 400-digit integer, inf) is no time an agent could have
#: taken, and float() of a long integer raises OverflowError rather than a parse error.
_LATEST_TS = 1e11


def _timestamp(value: Any, where: str) -> float:
    """``value`` as seconds; InputError naming ``where`` when it is no finite time in range."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{where}: 'ts' is not a number (got {value!r:.40})")
    if 0 <= value <= _LATEST_TS:  # False for NaN too
        return float(value)
    shown = f"{value!r:.40}" + ("…" if len(repr(value)) > 40 else "")
    raise InputError(f"{where}: 'ts' {shown} is not a time in seconds between 0 and 1e11")


def _written_outputs(
    events: list[tuple[int, dict[str, Any]]], where: str
) -> list[tuple[float, str]]:
    out = []
    for line, e in events:
        if e.get("event") != "llm_response":
            continue
        for call in e.get("tool_calls") or []:
            if not isinstance(call, dict) or call.get("name") != "write_file":
                continue
            args = call.get("arguments")
            if isinstance(args, str):
                try:
                    # a JSON string inside the line: the line's depth check did not see into it
                    args = jsonsafe.loads(args, f"{where}: event {line}: arguments")
                except ValueError:  # JSONDecodeError, TooDeep, an over-long number
                    continue
            if not isinstance(args, dict) or not isinstance(args.get("content"), str):
                continue
            if PurePosixPath(str(args.get("path", ""))).name in _OUTPUT_NAMES:
                ts = _timestamp(e.get("ts", 0.0), f"{where}: event {line}")
                out.append((ts, args["content"]))
    return out


def _event_time(events: list[tuple[int, dict[str, Any]]], name: str, where: str) -> float | None:
    """The time of the first ``name`` event; None when there is none or it carries no time."""
    for line, e in events:
        if e.get("event") == name:
            if e.get("ts") is None:
                return None
            return _timestamp(e["ts"], f"{where}: event {line}")
    return None


def time_to_diagnosis(
    workspace: Path,
    output: Path | None,
    final: AgentDiagnosis | None,
    names_root_cause: Callable[[AgentDiagnosis], bool],
) -> TimeToDiagnosis:
    path = workspace / TRANSCRIPT
    try:
        events = list(enumerate(read_transcript(path), start=1))
    except InputError:
        return TimeToDiagnosis(None, None)  # a transcript the agent spoiled: not measurable
    # a time no runner wrote (a 400-digit integer, inf, a string) is a forged record, refused as
    # the trial's error naming the file and line, never a crash that loses the other trials
    start = _event_time(events, "trial_start", str(path))
    end = _event_time(events, "agent_end", str(path))
    written = _written_outputs(events, str(path))
    if start is None:
        return TimeToDiagnosis(None, None)
    for ts, text in written:
        try:
            doc, _ = parse_text(text, "agent_output.json (transcript)")
            diagnosis = diagnosis_from(doc, "agent_output.json (transcript)")
        except InputError:
            continue
        if names_root_cause(diagnosis):
            return TimeToDiagnosis(round(max(ts - start, 0.0), 3), "transcript write_file")
    if output is not None and final is not None and names_root_cause(final):
        when = output.stat().st_mtime
        if end is not None:
            when = min(when, end)
        return TimeToDiagnosis(round(max(when - start, 0.0), 3), "agent_output.json write time")
    return TimeToDiagnosis(None, None)
