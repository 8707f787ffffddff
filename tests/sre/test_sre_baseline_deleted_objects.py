"""An object deleted under the workload that uses it, reported by a watch export's DELETED event.

The reader keeps a removal apart from the observations (table ``deletions``: the object is not
there any more, but its removal is a change); the baseline reads each removal of an object a
workload needs (a pull Secret, a ConfigMap, a Service, a claim, ...) as a ``deleted`` change dated
by the event. A pull Secret deleted before the workload's next pod is created leaves that pod in
``ImagePullBackOff``: the deletion is the cause, not the workload whose pod fails, nor a rollout of
another service made after it. Two observations of one object stamped with the same second are
ordered by its resourceVersion (the API server numbers its writes), not by where the rows fall."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from sre.agents.baseline import diagnose
from sre.snapshot import SourceKind, open_source
from sre.tools import run_tool
from tests._support.sre_incident_files import (
    clock,
    deployment,
    firing,
    stamp,
    warning,
    watch,
    write_incident,
    write_rows,
)

T0 = datetime(2026, 7, 14, 9, 0)
NS = "billing"
OLD_POD = "invoice-6d8f7b9c4-q2w7x"
NEW_POD = "invoice-6d8f7b9c4-z9k3m"
_at = clock(T0)


def _deployment(name: str, image: str, version: str, pull: str | None = None) -> dict:
    spec: dict = {"containers": [{"name": name, "image": image}]}
    if pull:
        spec["imagePullSecrets"] = [{"name": pull}]
    return deployment(NS, name, spec, resourceVersion=version)


def _pull_secret() -> dict:
    return {"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/dockerconfigjson",
            "metadata": {"name": "vault-pull", "namespace": NS, "resourceVersion": "300"},
            "data": {".dockerconfigjson": "e30="}}  # fmt: skip


def _pod(name: str, waiting: str | None) -> dict:
    state = {"waiting": {"reason": waiting}} if waiting else {"running": {}}
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": NS,
                         "labels": {"app.kubernetes.io/name": "invoice"}},
            "spec": {"imagePullSecrets": [{"name": "vault-pull"}],
                     "containers": [{"name": "invoice", "image": "mirror.example/invoice:3"}]},
            "status": {"phase": "Pending" if waiting else "Running",
                       "containerStatuses": [{"name": "invoice", "ready": not waiting,
                                              "restartCount": 0, "state": state}]}}  # fmt: skip


def _objects() -> list[tuple[datetime, dict]]:
    invoice = _deployment("invoice", "mirror.example/invoice:3", "200", pull="vault-pull")
    ledger = _deployment("ledger", "mirror.example/ledger:7", "210")
    return [
        (_at(0), watch("ADDED", invoice)),
        (_at(0), watch("ADDED", ledger)),
        (_at(0), watch("ADDED", _pull_secret())),
        (_at(0), watch("ADDED", _pod(OLD_POD, None))),
        (_at(6), watch("DELETED", _pull_secret())),
        # a routine rollout of another service, after the deletion and before the alert
        (_at(9), watch("MODIFIED", _deployment("ledger", "mirror.example/ledger:8", "420"))),
        (_at(12), watch("DELETED", _pod(OLD_POD, None))),
        (_at(12), watch("ADDED", _pod(NEW_POD, "ImagePullBackOff"))),
    ]


def _events() -> list[tuple[datetime, dict]]:
    return [
        warning(_at(12), NS, "Pod", NEW_POD, "FailedToRetrieveImagePullSecret",
                'Unable to retrieve some image pull secrets (vault-pull)', 6),
        warning(_at(13), NS, "Pod", NEW_POD, "Failed",
                'Failed to pull image "mirror.example/invoice:3": unauthorized', 4),
        warning(_at(14), NS, "Pod", NEW_POD, "BackOff",
                'Back-off pulling image "mirror.example/invoice:3"', 9),
    ]  # fmt: skip


def _as_json_lines(path: Path, rows: list[tuple[datetime, dict]]) -> Path:
    """The same watch events as a JSON-lines export: each line the event and its time."""
    path.write_text(
        "".join(json.dumps({"timestamp": stamp(at), **body}) + "\n" for at, body in rows)
    )
    return path


@pytest.mark.parametrize("encoding", ["tsv", "json-lines"])
def test_a_removal_is_kept_apart_from_the_observations(tmp_path, encoding):
    rows = _objects()
    if encoding == "tsv":
        path = write_rows(tmp_path / "k8s_objects_raw.tsv", rows)
    else:
        path = _as_json_lines(tmp_path / "k8s_objects.jsonl", rows)
    src = open_source(path, SourceKind.OBJECTS)
    assert src.malformed == 0, src.warnings()
    removed = src.query(
        "SELECT kind, name, namespace, ts::VARCHAR FROM deletions ORDER BY ts, kind, name"
    )
    assert removed == [
        ("Secret", "vault-pull", NS, "2026-07-14 09:06:00"),
        ("Pod", OLD_POD, NS, "2026-07-14 09:12:00"),
    ]
    # the removed objects are not observations of objects that are there
    last = src.query(
        "SELECT kind, name, max(ts)::VARCHAR FROM data WHERE name IN (?, ?) GROUP BY ALL "
        "ORDER BY 1",
        ["vault-pull", OLD_POD],
    )
    assert last == [("Pod", OLD_POD, "2026-07-14 09:00:00"),
                    ("Secret", "vault-pull", "2026-07-14 09:00:00")]  # fmt: skip


def test_a_deleted_pull_secret_is_the_cause_of_the_pods_that_cannot_pull(tmp_path):
    snapshot = write_incident(
        tmp_path / "incident",
        _objects(),
        _events(),
        [firing(NS, _at(15), "KubePodNotReady", pod=NEW_POD)],
        _at(20),
    )
    diagnosis = diagnose(snapshot)
    named = [e["name"] for e in diagnosis.entities if e["contributing_factor"]]
    assert named == [f"{NS}/Secret/vault-pull"], diagnosis.entities
    assert "ImagePullBackOff" in diagnosis.entities[0]["reasoning"]


def test_same_second_observations_follow_the_resource_version(tmp_path):
    # an exporter that writes one second's rows in no particular order: the newer version first
    older = _deployment("ledger", "mirror.example/ledger:7", "510")
    newer = _deployment("ledger", "mirror.example/ledger:8", "511")
    path = write_rows(
        tmp_path / "k8s_objects_raw.tsv",
        [(_at(0), _deployment("ledger", "mirror.example/ledger:6", "505")),
         (_at(5), newer), (_at(5), older)],
    )  # fmt: skip
    got = run_tool(
        "get_k8_spec", {"k8s_objects_file": str(path), "k8_object_name": f"{NS}/Deployment/ledger"}
    ).body
    containers = got["spec"]["spec"]["template"]["spec"]["containers"]
    assert containers[0]["image"] == "mirror.example/ledger:8", got
