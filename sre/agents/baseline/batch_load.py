"""Whom a CronJob's change acts on: the applications whose symptoms began while its jobs ran.

A CronJob made to run more often, or allowed to run over its own previous runs
(``concurrencyPolicy: Allow``), adds load on what its jobs use (a database the services share)
run after run. Nothing ties it to the services that then fail: no selector, no Service, no
name; their queries simply wait behind its jobs'. What does tie them is time: its jobs run when
their errors begin. A job's pods are named after it (``<cronjob>-<run>-<suffix>``), so the
logs and the objects show when the CronJob's jobs ran. A CronJob whose schedule, concurrency,
suspension or parallelism changed (or that was created) acts on the applications whose
symptoms began after the change while its jobs ran. A one-off Job created in the window (a
schema migration a deploy hook runs) is read the same way, over its own run."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path

from sre.agents.baseline.evidence import Change, Symptom
from sre.agents.baseline.onset import AFTER_SYMPTOMS
from sre.snapshot import SourceKind, open_source

#: the fields that decide how much a CronJob runs at once
LOAD_FIELDS = (
    "spec.schedule",
    "spec.concurrencyPolicy",
    "spec.suspend",
    "spec.jobTemplate.spec.parallelism",
    "spec.jobTemplate.spec.completions",
)


#: a Job a CronJob made is named after it and its scheduled minute (``<cronjob>-29401920``): a
#: routine run of a schedule, whose own change is the CronJob's
_SCHEDULED_RUN = re.compile(r"-[0-9]{8,}$")


def raises_load(change: Change) -> bool:
    """A CronJob created, or changed in how often or how many of its jobs run; or a one-off Job
    created (a migration, a backfill a deploy hook runs): its pods load what they use as a
    CronJob's do, once."""
    if change.kind == "Job":
        return change.change == "created" and not _SCHEDULED_RUN.search(change.name)
    return change.kind == "CronJob" and (
        change.change == "created" or any(p.startswith(LOAD_FIELDS) for p in change.paths)
    )


def _run_names(change: Change) -> str:
    """A CronJob's Jobs (``<cronjob>-<run>``) and their pods (``<cronjob>-<run>-<suffix>``); a
    Job itself and its pods (``<job>-<suffix>``)."""
    if change.kind == "Job":
        return f"^{re.escape(change.name)}(-[a-z0-9]{{5}})?$"
    return f"^{re.escape(change.name)}-[0-9]+(-[a-z0-9]{{5}})?$"


def runs(
    logs: Path, objects: Path, changes: Iterable[Change]
) -> dict[str, tuple[datetime, datetime]]:
    """namespace/Kind/name of each load-raising CronJob or Job change -> the first and last time
    its jobs were seen running after the change (their pods' log lines, their Job and Pod objects);
    a CronJob whose jobs are not seen after its change is left out."""
    out: dict[str, tuple[datetime, datetime]] = {}
    for change in changes:
        if not raises_load(change):
            continue
        since = (change.since or change.time).replace(tzinfo=None)
        seen: list[datetime] = []
        pattern = _run_names(change)
        if logs.is_file():
            seen += _seen(logs, SourceKind.LOGS, "pod", pattern, since)
        if objects.is_file():
            seen += _seen(objects, SourceKind.OBJECTS, "name", pattern, since, ("Job", "Pod"))
        if seen:
            out[change.entity] = (min(seen), max(seen))
    return out


def _seen(
    source: Path,
    kind: SourceKind,
    column: str,
    pattern: str,
    since: datetime,
    kinds: tuple[str, ...] = (),
) -> list[datetime]:
    """The first and last time rows whose ``column`` matches ``pattern`` appear from ``since``
    (of the object ``kinds`` only, when given)."""
    where = f"AND kind IN ({', '.join('?' for _ in kinds)})" if kinds else ""
    first, last = (
        open_source(source, kind)
        .con.cursor()
        .execute(
            f"SELECT min(ts), max(ts) FROM data WHERE regexp_full_match({column}, ?) "
            f"AND ts >= ? {where}",
            [pattern, since, *kinds],
        )
        .fetchall()[0]
    )
    return [t for t in (first, last) if t is not None]


def hit(
    change: Change,
    job_runs: Mapping[str, tuple[datetime, datetime]],
    symptoms: Iterable[Symptom],
) -> frozenset[str]:
    """The applications whose symptoms began after ``change`` while its jobs ran."""
    window = job_runs.get(change.entity) if raises_load(change) else None
    if window is None:
        return frozenset()
    first, last = (t.replace(tzinfo=None) for t in window)
    earliest = max(first, (change.since or change.time).replace(tzinfo=None)) - AFTER_SYMPTOMS
    return frozenset(
        s.app for s in symptoms if earliest <= s.start.replace(tzinfo=None) <= last + AFTER_SYMPTOMS
    )
