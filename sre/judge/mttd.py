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

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

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


def _written_outputs(events: list[dict[str, Any]]) -> list[tuple[float, str]]:
    out = []
    for e in events:
        if e.get("event") != "llm_response":
            continue
        for call in e.get("tool_calls") or []:
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
            if PurePosixPath(str(args.get("path", ""))).name in _OUTPUT_NAMES:
                out.append((float(e.get("ts", 0.0)), args["content"]))
    return out


def time_to_diagnosis(
    workspace: Path,
    output: Path | None,
    final: AgentDiagnosis | None,
    names_root_cause: Callable[[AgentDiagnosis], bool],
) -> TimeToDiagnosis:
    try:
        events = read_transcript(workspace / TRANSCRIPT)
    except InputError:
        return TimeToDiagnosis(None, None)  # a transcript the agent spoiled: not measurable
    start = next((e.get("ts") for e in events if e.get("event") == "trial_start"), None)
    if not isinstance(start, int | float):
        return TimeToDiagnosis(None, None)
    end = next((e.get("ts") for e in events if e.get("event") == "agent_end"), None)
    for ts, text in _written_outputs(events):
        try:
            doc, _ = parse_text(text, "agent_output.json (transcript)")
            diagnosis = diagnosis_from(doc, "agent_output.json (transcript)")
        except InputError:
            continue
        if names_root_cause(diagnosis):
            return TimeToDiagnosis(round(max(ts - start, 0.0), 3), "transcript write_file")
    if output is not None and final is not None and names_root_cause(final):
        written = output.stat().st_mtime
        if isinstance(end, int | float):
            written = min(written, end)
        return TimeToDiagnosis(round(max(written - start, 0.0), 3), "agent_output.json write time")
    return TimeToDiagnosis(None, None)
