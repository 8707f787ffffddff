"""An object a workload uses, failing on its own: a claim no volume can be provisioned for.

The workload's pods wait (the scheduler holds them until the claim is bound); the claim's own
Warning events say why. The claim acts on the workloads that mount it, and its events are its
failing state: it outranks the workload edited to mount it. Image pull Secrets are a use of a
Secret like an environment variable or a volume is."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from sre.agents.baseline.evidence import AlertGroup, Change, Evidence, WarningEvent
from sre.agents.baseline.rank import rank
from sre.agents.baseline.states import config_users, event_failures
from sre.agents.baseline.states.objects import ObjectView

T0 = datetime(2026, 6, 2, 18, 0)
WAITING = "ledger-db-7b9c6d5f4-m3n8p"


def _at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


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


def test_a_claim_that_cannot_be_provisioned_outranks_the_workload_that_mounts_it():
    claim = Change(namespace="books", kind="PersistentVolumeClaim", name="ledger-pages",
                   time=_at(0), change="created", paths=(), spec={})  # fmt: skip
    mount = Change(namespace="books", kind="Deployment", name="ledger-db", time=_at(4),
                   change="modified", paths=("spec.template.spec.volumes[0].persistentVolumeClaim",),
                   spec={})  # fmt: skip
    evidence = Evidence(
        changes=(claim, mount),
        warnings=(WarningEvent("books", "PersistentVolumeClaim", "ledger-pages",
                               "ProvisioningFailed", 5, 'storage class "fast-ssd" not found'),
                  WarningEvent("books", "Pod", WAITING, "FailedScheduling", 3,
                               "pod has unbound immediate PersistentVolumeClaims")),
        alerts=(AlertGroup("KubeDeploymentReplicasMismatch", "ledger-db", "books", _at(20),
                           "firing"),),
        onset=_at(20), paths=(),
        config_users={"books/PersistentVolumeClaim/ledger-pages": frozenset({"ledger-db"})},
    )  # fmt: skip
    states = event_failures.find(
        evidence, {("books", "ledger-db"): "Deployment"}, evidence.config_users
    )
    assert any(s.kind == "PersistentVolumeClaim" for s in states), states
    ranked = [c.change.entity for c in rank(replace(evidence, states=tuple(states)))]
    assert ranked[0] == "books/PersistentVolumeClaim/ledger-pages", ranked
