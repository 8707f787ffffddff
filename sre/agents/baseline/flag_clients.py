"""Whom a feature-flag flip acts on when its flag's name does not say it.

flagd serves every service's flags from one ConfigMap, and a flag's name often names the
service that reads it (``cartFailure``) but not always: ``loadGeneratorFloodHomepage`` floods
the frontend, ``kafkaQueueProblems`` delays the consumers of a queue. The services that
evaluate the flag are the ones whose behaviour changes when it flips, so when no application the
changed flag names shows a symptom after the change, the flip acts on the applications whose
symptoms began just after it (flagd re-reads its file within seconds to a couple of minutes:
the kubelet refreshes a mounted ConfigMap on its sync period)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from sre.agents.baseline.config_content import FLAG_KEY, acting_keys
from sre.agents.baseline.evidence import Change, Symptom
from sre.agents.baseline.onset import AFTER_SYMPTOMS

#: how long after the flip its services may begin to misbehave: the kubelet's ConfigMap refresh
#: (a minute by default, plus its cache's time to live) and flagd's own re-read
FLAG_REACH = timedelta(minutes=3)


def flips_flags(change: Change) -> bool:
    """The change edited flags of a flagd document (a key under its ``flags``)."""
    return change.kind == "ConfigMap" and any(
        FLAG_KEY.search(key)
        for path, old, new in change.values
        for key in acting_keys(path, old, new)
    )


def clients_hit(
    change: Change, named: Iterable[str], symptoms: Iterable[Symptom]
) -> frozenset[str]:
    """The applications a flag flip acts on beyond those its flags name: when none of ``named``
    shows a symptom after the change, those whose symptoms began within :data:`FLAG_REACH` of
    it; else none."""
    if not flips_flags(change):
        return frozenset()
    earliest = (change.since or change.time).replace(tzinfo=None) - AFTER_SYMPTOMS
    latest = change.time.replace(tzinfo=None) + FLAG_REACH
    after = [s for s in symptoms if earliest <= s.start.replace(tzinfo=None) <= latest]
    if {s.app for s in after} & set(named):
        return frozenset()
    return frozenset(s.app for s in after)
