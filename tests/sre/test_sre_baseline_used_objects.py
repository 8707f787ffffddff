"""An object a workload uses, failing on its own: a claim no volume can be provisioned for.

The workload's pods wait (the scheduler holds them until the claim is bound); the claim's own
Warning events say why. The claim acts on the workloads that mount it, and its events are its
failing state: it outranks the workload edited to mount it. Image pull Secrets are a use of a
Secret like an environment variable or a volume is."""

from __future__ import annotations

from datetime import datetime

from sre.agents.baseline import diagnose
from sre.agents.baseline.states import config_users
from sre.agents.baseline.states.objects import ObjectView
from tests._support.sre_incident_files import clock, firing, stamp, warning, write_incident

T0 = datetime(2026, 6, 2, 18, 0)
WAITING = "ledger-db-7b9c6d5f4-m3n8p"
_at = clock(T0)


def _workload() -> dict:
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "ledger-db", "namespace": "books"},
            "spec": {"template": {"spec": {
                "imagePullSecrets": [{"name": "mirror-login"}],
                "containers": [{"name": "db", "image": "mirror.example/db:16"}],
                "volumes": [{"name": "pages", "persistentVolumeClaim": {"claimName": "ledger-pages"}}],
            }}}}  # fmt: skip


def test_a_claim_and_a_pull_secret_are_uses_of_the_workload():
    users = config_users.users(ObjectView.of([(_at(0), _workload())]))
    assert users["books/PersistentVolumeClaim/ledger-pages"] == {"ledger-db"}
    assert users["books/Secret/mirror-login"] == {"ledger-db"}


def _claim() -> dict:
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": "ledger-pages", "namespace": "books",
                         "creationTimestamp": stamp(_at(2))},
            "spec": {"storageClassName": "fast-ssd", "accessModes": ["ReadWriteOnce"],
                     "resources": {"requests": {"storage": "20Gi"}}},
            "status": {"phase": "Pending"}}  # fmt: skip


def _unmounted() -> dict:
    workload = _workload()
    del workload["spec"]["template"]["spec"]["volumes"]
    return workload


def test_a_claim_that_cannot_be_provisioned_outranks_the_workload_that_mounts_it(tmp_path):
    # read from the snapshot as a user runs it: the claim's users and its events are found by
    # the baseline itself, whatever its rules' signatures
    rounds = {0: [_unmounted()], 2: [_unmounted(), _claim()], 4: [_workload(), _claim()],
              10: [_workload(), _claim()]}  # fmt: skip
    snapshot = write_incident(
        tmp_path / "incident",
        [(_at(m), obj) for m, objs in rounds.items() for obj in objs],
        [
            warning(
                _at(3),
                "books",
                "PersistentVolumeClaim",
                "ledger-pages",
                "ProvisioningFailed",
                'storageclass.storage.k8s.io "fast-ssd" not found',
                5,
            ),
            warning(
                _at(5),
                "books",
                "Pod",
                WAITING,
                "FailedScheduling",
                "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims",
                3,
            ),
        ],  # fmt: skip
        [firing("books", _at(20), "KubeDeploymentReplicasMismatch", deployment="ledger-db")],
        _at(21),
    )
    diagnosis = diagnose(snapshot)
    named = [e["name"] for e in diagnosis.entities if e["contributing_factor"]]
    assert named == ["books/PersistentVolumeClaim/ledger-pages"], diagnosis.entities
    assert "ProvisioningFailed" in diagnosis.entities[0]["reasoning"]
    # the workload edited to mount it is listed, below it
    assert "books/Deployment/ledger-db" in [e["name"] for e in diagnosis.entities[1:]]
