"""Whom a fault injected outside the pods acts on: a cloud experiment (``GCPChaos``,
``AWSChaos``, ``AzureChaos``) stops or restarts a machine, or detaches its disk, and selects no
pod. It acts on the applications with a pod on the node it names (GKE and AKS name a node after
its machine), else, when no pod of the snapshot runs there (the machine's pods were moved, or the
node is named otherwise), on the applications whose symptoms began just after it: the pods the
machine ran are the ones that failed when it stopped."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

from sre.agents.baseline.evidence import Change, PodLabels, Symptom
from sre.agents.baseline.onset import AFTER_SYMPTOMS

#: the fields a cloud experiment names its machine by (GCP ``instance``, AWS ``ec2Instance``,
#: Azure ``vmName``)
MACHINE_FIELDS = ("instance", "ec2Instance", "vmName")
#: how long after the machine stops its pods' callers may begin to fail: the node is marked
#: NotReady after its lease runs out (40 s by default), and calls time out before that
MACHINE_REACH = timedelta(minutes=3)


def machines(spec: Mapping[str, Any]) -> frozenset[str]:
    """The machines a cloud experiment names (a pod-less experiment names none)."""
    return frozenset(str(spec[f]) for f in MACHINE_FIELDS if isinstance(spec.get(f), str))


def victims(
    change: Change, pods: Iterable[PodLabels], symptoms: Iterable[Symptom]
) -> frozenset[str]:
    """The applications a cloud experiment acts on: those with a pod on the machine it names,
    else those whose symptoms began within :data:`MACHINE_REACH` after it."""
    names = machines(change.spec)
    if not names:
        return frozenset()
    on = frozenset(p.app for p in pods if p.node and p.node in names)
    if on:
        return on
    earliest = (change.since or change.time).replace(tzinfo=None) - AFTER_SYMPTOMS
    latest = change.time.replace(tzinfo=None) + MACHINE_REACH
    return frozenset(s.app for s in symptoms if earliest <= s.start.replace(tzinfo=None) <= latest)
