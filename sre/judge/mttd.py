"""MTTD, the paper's mean time to diagnosis (Table 4, App. C.6.3), for one diagnosis trial.

Seconds from the trial's start to the first diagnosis that names every ground-truth root cause
at a root-cause entity precision no lower than the final answer's (the one the trial is scored
on: an answer blaming every object of the snapshot names every root cause, and withdrawn later
it would time a diagnosis the agent had not made), read only from what the runner recorded at its own clock in the trial's transcript (which it keeps
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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path, PurePosixPath
from typing import Any

from itbench import jsonsafe
from itbench.errors import InputError
from itbench.fsutil import UnsafeFile, agent_file_digest
from itbench.records import read_signed_bytes
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
    #: why the trial has no MTTD although its transcript is there: its signature does not hold, or
    #: a line, time or field no runner wrote (named with its file and line)
    note: str | None = None


@dataclass(frozen=True)
class Diagnosed:
    """What MTTD reads of one diagnosis: whether it names every ground-truth root cause, and its
    root-cause entity precision (credited root causes over the distinct entities it blames)."""

    names_every_root_cause: bool
    precision: Fraction

    def times(self, bar: Fraction) -> bool:
        """Whether an answer this good may time the diagnosis, against the final answer's
        precision ``bar``: every root cause named at no lower precision. Naming every object
        of the snapshot names every root cause; it is not the diagnosis the trial is scored on."""
        return self.names_every_root_cause and self.precision >= bar


@dataclass(frozen=True)
class _Sighting:
    """One diagnosis the runner saw, at its clock: its text when recorded, else its digest."""

    ts: float
    text: str | None
    sha256: str | None
    source: str


#: Transcript times are Unix seconds the runner wrote (``time.time()``); anything outside this
#: range (negative, past the year 5000, a 400-digit integer, inf) is no time a runner wrote, and
#: float() of a long integer raises OverflowError rather than a parse error.
_LATEST_TS = 1e11

#: a transcript event with its line number in the file
Numbered = tuple[int, dict[str, Any]]


def _timestamp(value: Any, where: str) -> float:
    """``value`` as seconds; InputError naming ``where`` when it is no finite time in range."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{where}: 'ts' is not a number (got {value!r:.40})")
    if 0 <= value <= _LATEST_TS:  # False for NaN too
        return float(value)
    shown = f"{value!r:.40}" + ("…" if len(repr(value)) > 40 else "")
    raise InputError(f"{where}: 'ts' {shown} is not a time in seconds between 0 and 1e11")


def _time_of(numbered: Numbered, where: str) -> float | None:
    """The event's time; None when it carries none. A time no runner wrote (a 400-digit integer,
    inf, a string) is a forged record: InputError naming the file and line, which costs the trial
    its MTTD only (:func:`time_to_diagnosis`), never a crash that loses the other trials of an
    ``eval``."""
    line, event = numbered
    if event.get("ts") is None:
        return None
    return _timestamp(event["ts"], f"{where}: event {line}")


def _written_outputs(numbered: Numbered, where: str) -> Iterator[_Sighting]:
    line, event = numbered
    for call in event.get("tool_calls") or []:
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
        if PurePosixPath(str(args.get("path", ""))).name in AGENT_OUTPUT_NAMES:
            ts = _time_of(numbered, where)
            if ts is not None:
                yield _Sighting(ts, args["content"], None, WRITE_FILE)


def _sightings(events: list[Numbered], where: str) -> Iterator[_Sighting]:
    for numbered in events:
        event = numbered[1]
        if event.get("event") == "llm_response":
            yield from _written_outputs(numbered, where)
        elif event.get("event") == ANSWER_SEEN:
            ts = _time_of(numbered, where)
            if ts is None:
                continue
            text = event.get("content")
            digest = event.get("sha256")
            yield _Sighting(
                ts,
                text if isinstance(text, str) else None,
                digest if isinstance(digest, str) else None,
                WATCH,
            )


def _last_attempt(events: list[Numbered]) -> list[Numbered]:
    """The events from the last ``trial_start`` on; none without one (no start to time from).
    The runner never writes two: a redo removes the trial folder and starts a new transcript.
    ``sre eval`` reads transcripts it did not write, though: one a harness kept appending to
    across attempts is timed from its last start, not from the first attempt's."""
    starts = [i for i, (_, e) in enumerate(events) if e.get("event") == "trial_start"]
    return events[starts[-1] :] if starts else []


def _digest(output: Path | None) -> str | None:
    if output is None:
        return None
    try:
        return agent_file_digest(output)[1]  # in chunks: the watch hashed it so too
    except (UnsafeFile, OSError):
        return None


def time_to_diagnosis(
    workspace: Path,
    output: Path | None,
    final: AgentDiagnosis | None,
    judge: Callable[[AgentDiagnosis], Diagnosed],
) -> TimeToDiagnosis:
    """The first moment the runner saw an answer as good as the final one (:meth:`Diagnosed.times`):
    an answer naming every object at once and withdrawn later is no diagnosis at that moment. A
    transcript the runner did not sign, or one no runner wrote as it is (a line that is no JSON
    object, a time that is no number in range), leaves it unmeasured, with a note naming the file
    (and line and field): the answer itself is still scored."""
    path = workspace / TRANSCRIPT_FILE
    if not path.exists() and not path.is_symlink():
        return TimeToDiagnosis(None, None)
    try:
        # the runner signs the transcript it lays in the trial folder: ``sre eval`` reads an
        # outputs folder anyone may have edited, and a hand-written answer_seen is no record
        read_signed_bytes(workspace, Path(TRANSCRIPT_FILE), "no transcript")
    except InputError as exc:
        return TimeToDiagnosis(None, None, f"no MTTD: {exc}")
    try:
        return _timed(path, output, final, judge)
    except InputError as exc:
        return TimeToDiagnosis(None, None, str(exc))


def _timed(
    path: Path,
    output: Path | None,
    final: AgentDiagnosis | None,
    judge: Callable[[AgentDiagnosis], Diagnosed],
) -> TimeToDiagnosis:
    where = str(path)
    events = _last_attempt(list(enumerate(read_transcript(path), start=1)))
    start = _time_of(events[0], where) if events else None
    if start is None:
        return TimeToDiagnosis(None, None)
    scored = judge(final) if final is not None else None
    bar = scored.precision if scored is not None else Fraction(0)
    final_right = scored is not None and scored.names_every_root_cause
    final_digest = _digest(output) if final_right else None
    # the diagnosis is timed from the first answer of the run of right answers that lasts to the
    # end: a right answer withdrawn for a wrong one was a guess (an agent writing one suspect
    # after another every 0.3 s once timed a diagnosis it made 10 s later)
    held: _Sighting | None = None
    for seen in sorted(_sightings(events, where), key=lambda s: s.ts):
        if seen.text is not None:
            try:
                doc, _ = parse_text(seen.text, "agent_output.json (transcript)")
                right = judge(diagnosis_from(doc, "agent_output.json (transcript)")).times(bar)
            except InputError:
                continue  # a half-written or blank file withdraws nothing
        else:  # too large to record: known by its digest, the final answer's or not
            right = final_digest is not None and seen.sha256 == final_digest
        if not right:
            held = None
        elif held is None:
            held = seen
    if held is not None:
        return TimeToDiagnosis(round(max(held.ts - start, 0.0), 3), held.source)
    end = next((_time_of(n, where) for n in events if n[1].get("event") == "agent_end"), None)
    if final_right and end is not None:
        return TimeToDiagnosis(round(max(end - start, 0.0), 3), AGENT_END)
    return TimeToDiagnosis(None, None)
