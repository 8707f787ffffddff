"""When a change meets the incident: made just before its first alert or its first symptom,
followed by symptoms on what it acts on, or made only after the symptoms had begun (then it did
not start them, whatever it acts on). The ranking (``rank``) weighs what these say."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from sre.agents.baseline.evidence import Change, Evidence, Symptom

#: The fault comes before its first alert (rules fire after a one-minute ``for``, scraped each
#: minute); a change this long before it or later is not what set it off.
BEFORE_ONSET = timedelta(minutes=3)
AFTER_ONSET = timedelta(seconds=30)


def timed(change: Change, onset: datetime | None) -> bool:
    """Made just before the first alert: its time (or, when only observations bound it, the
    span from the observation before to the one that showed it) meets the window."""
    if onset is None:
        return False
    earliest = change.since or change.time
    return earliest <= onset + AFTER_ONSET and change.time >= onset - BEFORE_ONSET


#: a change this long after the first symptom may still be its cause: the symptom's start is
#: read to the ten seconds, a write time to the second
AFTER_SYMPTOMS = timedelta(seconds=20)


#: how soon after a change its symptoms must begin to be read as its doing
SYMPTOMS_WITHIN = timedelta(minutes=10)


def followed_by(
    change: Change, apps: frozenset[str], evidence: Evidence, blamed: Collection[str]
) -> Symptom | None:
    """The first of this incident's symptoms (on an application the other signals blame, or
    begun within :data:`SYMPTOMS_WITHIN` of the first alert) that began after ``change``, within
    :data:`SYMPTOMS_WITHIN` of it, on an application it acts on (a partition, a closed port, a
    slow datastore show in the calls to it). ``blamed``: the applications the other signals
    blame."""
    earliest = (change.since or change.time).replace(tzinfo=None)
    latest = change.time.replace(tzinfo=None)
    onset = evidence.onset.replace(tzinfo=None) if evidence.onset else None
    found = [
        s
        for s in evidence.symptoms
        if s.app in apps
        and (s.app in blamed or (onset and s.start.replace(tzinfo=None) >= onset - SYMPTOMS_WITHIN))
        and s.latest_start.replace(tzinfo=None) + AFTER_SYMPTOMS >= earliest
        and s.start.replace(tzinfo=None) <= latest + SYMPTOMS_WITHIN
    ]
    return min(found, key=lambda s: s.start) if found else None


def first_symptom(evidence: Evidence, blamed: Collection[str]) -> Symptom | None:
    """The earliest symptom of an application the other signals blame (a step in the traces or
    the logs of a service nobody blames is not this incident's)."""
    found = [s for s in evidence.symptoms if s.app in blamed]
    return min(found, key=lambda s: s.start) if found else None


def after_symptoms(change: Change, first: Symptom | None) -> Symptom | None:
    """``first`` when ``change`` was surely made after it began (its earliest possible time
    too), else None."""
    if first is None:
        return None
    earliest = (change.since or change.time).replace(tzinfo=None)
    # begun surely before it: even the latest start the observations allow
    return first if earliest > first.latest_start.replace(tzinfo=None) + AFTER_SYMPTOMS else None


def when(change: Change) -> str:
    if change.since is not None:
        return f"between {change.since:%H:%M:%S} and {change.time:%H:%M:%S}"
    return f"at {change.time:%H:%M:%S}"
