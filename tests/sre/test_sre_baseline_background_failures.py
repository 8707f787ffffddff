"""Another team's workload that was already failing before the incident began (a crash loop in
its own namespace, its alert firing since the alert history began) is the cluster's background:
its own failure looks strong (a container that cannot start, Warning events, an alert), but it
did not start this incident. The change the incident's alerts followed is the cause; the old
crash loop is listed, never named."""

from __future__ import annotations

import json
from datetime import datetime

from sre.agents.baseline import diagnose
from tests._support.sre_incident_files import (
    clock,
    deployment,
    firing,
    stamp,
    warning,
    write_incident,
)

T0 = datetime(2026, 9, 14, 2, 0)
APP_NS = "billing"
OTHER_NS = "data-exports"
CRASHING = "ledger-export-5f6c7d8e9-q2w3e"
_at = clock(T0)


def _settings(rate_limit: str, written: float) -> dict:
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "invoicer-settings", "namespace": APP_NS,
                         "managedFields": [{"manager": "kubectl",
                                            "time": stamp(_at(written))}]},
            "data": {"RATE_LIMIT_PER_SECOND": rate_limit}}  # fmt: skip


def _invoicer() -> dict:
    container = {"name": "invoicer", "image": "registry.example/invoicer:7",
                 "envFrom": [{"configMapRef": {"name": "invoicer-settings"}}]}  # fmt: skip
    return deployment(APP_NS, "invoicer", {"containers": [container]})


def _crash_looping_pod(restarts: int) -> dict:
    status = {"name": "ledger-export", "ready": False, "restartCount": restarts,
              "state": {"waiting": {"reason": "CrashLoopBackOff"}},
              "lastState": {"terminated": {"reason": "Error", "exitCode": 2}}}  # fmt: skip
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": CRASHING, "namespace": OTHER_NS,
                         "labels": {"app.kubernetes.io/name": "ledger-export"}},
            "spec": {"containers": [{"name": "ledger-export",
                                     "image": "registry.example/ledger-export:2"}]},
            "status": {"phase": "Running", "containerStatuses": [status]}}  # fmt: skip


def _snapshot(tmp_path, crash_since: float, alerted: bool = True):
    rounds = {
        0: [_settings("200", -900), _invoicer(), _crash_looping_pod(3)],
        # the invoicer's rate limit is cut to almost nothing
        12: [_settings("1", 12), _invoicer(), _crash_looping_pod(5)],
        24: [_settings("1", 12), _invoicer(), _crash_looping_pod(8)],
    }
    objects = [(_at(m), obj) for m, objs in rounds.items() for obj in objs]
    events = [
        warning(_at(crash_since + 1), OTHER_NS, "Pod", CRASHING, "BackOff",
                "Back-off restarting failed container ledger-export", 1),
        warning(_at(24), OTHER_NS, "Pod", CRASHING, "BackOff",
                "Back-off restarting failed container ledger-export", 9),
    ]  # fmt: skip
    crash = firing(OTHER_NS, _at(crash_since), "KubePodCrashLooping", pod=CRASHING)
    errors = firing(APP_NS, _at(14), "HighRequestErrorRate", service_name="invoicer")
    last = [crash, errors] if alerted else [errors]
    root = write_incident(tmp_path / "incident", objects, events, last, _at(25))
    # the alert history: a dump every five minutes, each with what fired by then
    for minute in range(0, 25, 5):
        dated = ((crash, crash_since), (errors, 14)) if alerted else ((errors, 14),)
        firing_then = [a for a, since in dated if since <= minute]
        answer = {"status": "success", "data": {"alerts": firing_then}}
        name = f"alerts_at_{_at(minute):%Y-%m-%dT%H-%M-%S}.json"
        (root / "alerts" / name).write_text(json.dumps(answer))
    return root


def _named(snapshot) -> list[str]:
    diagnosis = diagnose(snapshot)
    return [e["name"] for e in diagnosis.entities if e["contributing_factor"]]


def test_a_crash_loop_older_than_the_incident_is_not_its_cause(tmp_path):
    snapshot = _snapshot(tmp_path, crash_since=0)
    assert _named(snapshot) == [f"{APP_NS}/ConfigMap/invoicer-settings"]


def test_the_old_crash_loop_is_still_listed(tmp_path):
    diagnosis = diagnose(_snapshot(tmp_path, crash_since=0))
    listed = {e["name"]: e for e in diagnosis.entities}
    old = listed.get(f"{OTHER_NS}/Pod/{CRASHING}")
    assert old is not None and not old["contributing_factor"], diagnosis.entities
    assert "since before this incident" in old["reasoning"]


def test_a_crash_loop_that_began_with_the_incident_keeps_its_weight(tmp_path):
    # guard: the same crash loop, its alert firing from the incident's start, is not background
    snapshot = _snapshot(tmp_path, crash_since=14)
    assert f"{OTHER_NS}/Pod/{CRASHING}" in _named(snapshot)


def test_a_crash_loop_reported_only_by_its_older_events_is_not_the_cause(tmp_path):
    # no alert of its own: its Warning events, first reported before the incident, date it
    snapshot = _snapshot(tmp_path, crash_since=0, alerted=False)
    assert _named(snapshot) == [f"{APP_NS}/ConfigMap/invoicer-settings"]


def test_a_crash_loop_whose_events_began_with_the_incident_keeps_its_weight(tmp_path):
    snapshot = _snapshot(tmp_path, crash_since=14, alerted=False)
    assert f"{OTHER_NS}/Pod/{CRASHING}" in _named(snapshot)
