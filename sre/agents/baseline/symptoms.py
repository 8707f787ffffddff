"""When each application's symptoms began: the moment its error rate, its latency or its ERROR
log lines stepped up and stayed up, read off the traces and the logs of the snapshot.

A change made after the symptoms began cannot have caused them, however close to the first
alert it lies (a routine rollout between the fault and the alert's ``for``), so the ranking
needs this moment, not only the alert's. Each series (per application, per ten seconds) gets one
change point: the split where the mean after exceeds the mean before by the most, weighted by
how many buckets each side holds (a step, not a spike). A steady background error rate, a
one-off slow request or a transient readiness failure makes no step."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from itbench.errors import ItbenchError
from sre.agents.baseline.evidence import Symptom
from sre.snapshot import SourceKind, open_source

BUCKET = timedelta(seconds=10)
#: a step counts when the share of failing spans (or ERROR lines) rises by this much
ERROR_STEP = 0.10
#: or when the typical duration at least doubles (and by at least this many milliseconds)
SLOWER = 2.0
SLOWER_MS = 20.0
#: the step must hold: at least this share of the buckets after it stay above the midpoint
HOLDS = 0.7
#: fewer buckets than this on either side say nothing about a step
MIN_SIDE = 3
#: log lines without a level read as errors when they say so
_ERROR_WORDS = ("error", "exception", "fail", "refused", "timeout", "timed out", "oom ")


def step(
    series: Sequence[tuple[datetime, float]],
) -> tuple[datetime, float, float, datetime] | None:
    """(start, mean before, mean after, latest start) of the series' one step up, if it has one.
    The latest start: a bucket before the next observation after the first one of the step (a
    sparse series, a service that logs a line a minute, leaves the onset anywhere in that gap:
    its first "after" bucket may be a background error); the start itself in a dense series."""
    values = [v for _, v in series]
    n = len(values)
    if n < 2 * MIN_SIDE:
        return None
    total, best, at = sum(values), 0.0, None
    head = 0.0
    for k in range(1, n):
        head += values[k - 1]
        if k < MIN_SIDE or n - k < MIN_SIDE:
            continue
        before, after = head / k, (total - head) / (n - k)
        score = (after - before) * math.sqrt(k * (n - k) / n)
        if score > best:
            best, at = score, k
    if at is None:
        return None
    before = sum(values[:at]) / at
    after = sum(values[at:]) / (n - at)
    middle = (before + after) / 2
    if sum(v > middle for v in values[at:]) < HOLDS * (n - at):
        return None
    start = series[at][0]
    latest = max(start, series[at + 1][0] - BUCKET) if at + 1 < n else start
    return start, before, after, latest


def _bucketed(
    rows: Iterable[tuple[str, datetime, float]],
) -> dict[str, list[tuple[datetime, float]]]:
    out: dict[str, list[tuple[datetime, float]]] = {}
    for app, at, value in rows:
        if app:
            out.setdefault(app, []).append((at, float(value)))
    return {app: sorted(series) for app, series in out.items()}


_SPANS = """
    WITH s AS (
      SELECT {who} AS app, time_bucket(INTERVAL '10 seconds', ts) AS b,
             status_code ILIKE '%error%' AS failed, duration_ns / 1e6 AS ms
      FROM data WHERE {where})
    SELECT app, b, avg(failed::INTEGER), median(ms) FROM s WHERE app IS NOT NULL
    GROUP BY app, b"""


def _traces(path: Path) -> list[Symptom]:
    src = open_source(path, SourceKind.TRACES)
    out = []
    # the calls to an application (client spans naming it) show what its callers live through,
    # a partition or a delay on its pods included; its own server spans show its own failures
    for who, where, side in (
        ("peer_service", "peer_service IS NOT NULL AND peer_service <> service_name", "calls to"),
        ("service_name", "span_kind ILIKE '%server%'", "server spans of"),
    ):
        rows = src.con.cursor().execute(_SPANS.format(who=who, where=where)).fetchall()
        errors = _bucketed((app, b, failed) for app, b, failed, _ in rows)
        latency = _bucketed((app, b, ms) for app, b, _, ms in rows)
        for app, series in errors.items():
            found = step(series)
            if found and found[2] - found[1] >= ERROR_STEP:
                out.append(Symptom(app, found[0], f"errors of {side} it {found[1]:.0%} -> "
                                                  f"{found[2]:.0%}", latest=found[3]))  # fmt: skip
        for app, series in latency.items():
            found = step(series)
            if found and found[2] >= SLOWER * found[1] and found[2] - found[1] >= SLOWER_MS:
                out.append(Symptom(app, found[0], f"latency of {side} it {found[1]:.0f} ms -> "
                                                  f"{found[2]:.0f} ms", latest=found[3]))  # fmt: skip
    return out


#: an access log's request line and its status (nginx, Envoy, ingress-nginx: ``"GET / HTTP/2"
#: 503``): a proxy logs the requests it failed at INFO, the status says it failed
_SERVER_ERROR = re.compile(r'HTTP/[\d.]+"*\s+5\d\d\b')


def is_error(level: str | None, number: int | None, body: str | None) -> bool:
    if body and _SERVER_ERROR.search(body):
        return True  # a request answered 5xx, whatever level the proxy logged it at
    if number:
        return number >= 17
    if level:
        return level.strip().lower() in ("error", "err", "fatal", "critical", "crit", "emerg")
    text = (body or "").lower()
    return any(w in text for w in _ERROR_WORDS)


def _logs(path: Path) -> list[Symptom]:
    src = open_source(path, SourceKind.LOGS)
    rows = src.con.cursor().execute(
        """SELECT service_name, time_bucket(INTERVAL '10 seconds', ts), severity_text,
                  severity_number, left(body, 300) FROM data WHERE service_name IS NOT NULL"""
    )
    counts: dict[tuple[str, datetime], list[int]] = {}
    for app, b, level, number, body in rows.fetchall():
        seen = counts.setdefault((app, b), [0, 0])
        seen[0] += 1
        seen[1] += is_error(level, number, body)
    series = _bucketed((app, b, bad / total) for (app, b), (total, bad) in counts.items())
    out = []
    for app, values in series.items():
        found = step(values)
        if found and found[2] - found[1] >= ERROR_STEP:
            out.append(Symptom(app, found[0], f"ERROR log lines {found[1]:.0%} -> {found[2]:.0%}",
                               logs=True, latest=found[3]))  # fmt: skip
        elif (began := _silent_then_failing(app, counts)) is not None:
            out.append(began)
    return out


def _silent_then_failing(app: str, counts: dict[tuple[str, datetime], list[int]]) -> Symptom | None:
    """An application that wrote nothing while the others logged, then mostly errors: a
    datastore or a broker logs only what goes wrong (PostgreSQL's ``ERROR:`` lines, Kafka's
    ``CorruptRecordException``), so the share of its error lines never steps (every line is
    one); its first line is the step, from silence."""
    logs_began = min(b for _, b in counts)
    mine = {b: seen for (a, b), seen in counts.items() if a == app}
    first = min(mine)
    total = sum(seen[0] for seen in mine.values())
    bad = sum(seen[1] for seen in mine.values())
    if first - logs_began < MIN_SIDE * BUCKET or bad < MIN_SIDE or bad < HOLDS * total:
        return None
    return Symptom(app, first, f"ERROR log lines from silence: {bad} of {total} lines",
                   logs=True, latest=first)  # fmt: skip


def unlinked(traces: Path) -> bool:
    """Whether the traces link no span to a parent: an exporter that drops the parent ids leaves
    the error tree no path to walk, so each service's own spans are all the traces say."""
    src = open_source(traces, SourceKind.TRACES)
    row = src.con.cursor().execute("SELECT count(*), count(parent_span_id) FROM data").fetchone()
    return row is not None and row[0] > 0 and row[1] == 0


def served(traces: Path) -> dict[str, list[tuple[datetime, int]]]:
    """application -> (minute, how many server spans of it began then), in time order: the
    requests it answered, failed or not, so it was reachable then."""
    src = open_source(traces, SourceKind.TRACES)
    rows = src.con.cursor().execute(
        """SELECT service_name, time_bucket(INTERVAL '1 minute', ts), count(*) FROM data
           WHERE span_kind ILIKE '%server%' AND service_name IS NOT NULL GROUP BY ALL"""
    )
    out: dict[str, list[tuple[datetime, int]]] = {}
    for app, minute, count in rows.fetchall():
        out.setdefault(str(app), []).append((minute, int(count)))
    return {app: sorted(minutes) for app, minutes in out.items()}


def find(traces: Path, logs: Path, notes: list[str]) -> list[Symptom]:
    """Every application's symptoms that began inside the snapshot (an unreadable or missing
    source is a note: its symptoms are unknown, not absent)."""
    out: list[Symptom] = []
    for what, path, read in (("traces", traces, _traces), ("logs", logs, _logs)):
        if not path.is_file():
            continue
        try:
            out += read(path)
        except ItbenchError as exc:
            notes.append(f"symptoms from {what}: {exc}")
    return out
