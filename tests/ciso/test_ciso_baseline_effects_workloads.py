"""Kubernetes controls over pod-spec fields, batch objects and objects that are not pods, stated
by what the field does: the baseline reads them as one field check per family, and the rendered
policies of all three classes (Kyverno, kubectl-opa Rego, opa-static Rego) agree on each object,
every pod-template kind and init/ephemeral containers included. Every requirement and object
here is written for this test."""

from __future__ import annotations

from typing import Any

from ciso.agents.baseline.intent import FieldValueCheck
from tests._support.ciso_baseline import (
    api_object,
    assert_every_class,
    intent_of,
    labelled_namespace,
    pod_carrier,
)


def _workload(kind: str, name: str, spec: dict[str, Any]) -> dict:
    return pod_carrier(kind, name, spec)


def _c(name: str = "main", **fields: Any) -> dict[str, Any]:
    return {"name": name, "image": "registry.example/main:4.1", **fields}


def _spec(*containers: dict, **extra: Any) -> dict[str, Any]:
    return {"containers": list(containers) or [_c()], **extra}


# ---- pod-spec fields that must be absent ------------------------------------------------------


def test_static_hosts_file_entries_are_forbidden_in_every_pod_template() -> None:
    intent = intent_of(
        "Workloads must not inject their own lines into the container's /etc/hosts: name "
        "resolution goes through cluster DNS for everyone. Judge bare pods and every template."
    )
    entry = [{"ip": "10.1.2.3", "hostnames": ["legacy.db"]}]
    objects = [
        _workload("Deployment", "pinned-db", _spec(hostAliases=entry)),
        _workload("CronJob", "report", _spec(hostAliases=entry)),
        # near misses: no entries at all, and the pod's own host name
        _workload("Deployment", "empty-list", _spec(hostAliases=[])),
        _workload("Pod", "named", _spec(hostname="named-0", subdomain="svc")),
    ]
    assert_every_class(intent, objects, {"pinned-db", "report"})


def test_a_pod_placed_on_a_node_by_name_skipping_the_scheduler() -> None:
    intent = intent_of(
        "Nothing may circumvent the scheduler by naming the node a pod must run on; node "
        "affinity and node selectors remain fine. Report bare pods and workload templates."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck) and check.paths == (("nodeName",),)
    scheduled = _workload("Pod", "web-7d9-abcde", _spec(nodeName="worker-2"))
    # the scheduler wrote nodeName into this pod its ReplicaSet created: not a declaration
    scheduled["metadata"]["ownerReferences"] = [
        {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9", "uid": "u-1",
         "controller": True}
    ]  # fmt: skip
    objects = [
        _workload("Pod", "hand-placed", _spec(nodeName="worker-1")),
        _workload("StatefulSet", "store", _spec(nodeName="worker-3")),
        scheduled,
        _workload("Deployment", "by-label", _spec(nodeSelector={"kubernetes.io/hostname": "w1"})),
    ]
    assert_every_class(intent, objects, {"hand-placed", "store"})


# ---- SELinux user and role --------------------------------------------------------------------


def test_a_custom_selinux_user_or_role_anywhere_in_the_pod() -> None:
    intent = intent_of(
        "No pod may choose its own SELinux user or role, neither for the whole pod nor for any "
        "regular, init or ephemeral container; an empty value counts as not chosen."
    )
    assert {c.level for c in intent.checks} == {"pod", "container"}
    objects = [
        _workload(
            "Deployment",
            "init-role",
            _spec(
                _c(),
                initContainers=[
                    _c("prep", securityContext={"seLinuxOptions": {"role": "sysadm_r"}})
                ],
            ),
        ),  # fmt: skip
        _workload(
            "Pod", "pod-user", _spec(securityContext={"seLinuxOptions": {"user": "staff_u"}})
        ),
        _workload(
            "Pod",
            "debugged",
            _spec(
                ephemeralContainers=[
                    _c("dbg", securityContext={"seLinuxOptions": {"user": "sysadm_u"}})
                ]
            ),
        ),  # fmt: skip
        # near misses: an empty user on a second container, a level only
        _workload(
            "CronJob",
            "empty-user",
            _spec(_c(), _c("side", securityContext={"seLinuxOptions": {"user": ""}})),
        ),  # fmt: skip
        _workload(
            "StatefulSet",
            "level-only",
            _spec(securityContext={"seLinuxOptions": {"level": "s0:c1,c2"}}),
        ),  # fmt: skip
    ]
    assert_every_class(intent, objects, {"init-role", "pod-user", "debugged"})


# ---- fields of objects that are not pods ------------------------------------------------------


def test_each_service_account_turns_token_mounting_off_itself() -> None:
    intent = intent_of(
        "Every service account, the per-namespace default one included, must itself disable "
        "auto-mounting of its API token; an account that is silent mounts it. Accounts in "
        "kube-system are exempt."
    )
    assert "kube-system" in intent.scope.exempt_namespaces
    objects = [
        api_object("v1", "ServiceAccount", "default"),
        api_object("v1", "ServiceAccount", "builder", automountServiceAccountToken=True),
        api_object("v1", "ServiceAccount", "quiet", automountServiceAccountToken=False),
        api_object("v1", "ServiceAccount", "coredns", namespace="kube-system"),
    ]
    assert_every_class(intent, objects, {"default", "builder"})


def test_claims_writable_from_several_nodes_at_once() -> None:
    intent = intent_of(
        "A volume claim must never let multiple nodes write to it simultaneously; read-only "
        "sharing and single-node writers are fine, and StatefulSet claim templates count too."
    )
    claim = {"resources": {"requests": {"storage": "5Gi"}}}
    objects = [
        api_object(
            "v1",
            "PersistentVolumeClaim",
            "shared",
            spec={"accessModes": ["ReadWriteOnce", "ReadWriteMany"], **claim},
        ),  # fmt: skip
        api_object(
            "apps/v1",
            "StatefulSet",
            "cache",
            spec={
                "selector": {"matchLabels": {"app": "cache"}},
                "template": {"metadata": {"labels": {"app": "cache"}}, "spec": _spec()},
                "volumeClaimTemplates": [
                    {
                        "metadata": {"name": "a"},
                        "spec": {"accessModes": ["ReadWriteOnce"], **claim},
                    },
                    {
                        "metadata": {"name": "b"},
                        "spec": {"accessModes": ["ReadWriteMany"], **claim},
                    },
                ],
            },
        ),  # fmt: skip
        # near misses: read-only sharing, one pod, and a volume (not a claim) offering RWX
        api_object(
            "v1",
            "PersistentVolumeClaim",
            "readers",
            spec={"accessModes": ["ReadOnlyMany"], **claim},
        ),
        api_object(
            "v1",
            "PersistentVolumeClaim",
            "solo",
            spec={"accessModes": ["ReadWriteOncePod"], **claim},
        ),
        api_object(
            "v1",
            "PersistentVolume",
            "nfs-share",
            namespace="",
            spec={
                "accessModes": ["ReadWriteMany"],
                "capacity": {"storage": "5Gi"},
                "nfs": {"server": "nfs.example", "path": "/x"},
            },
        ),  # fmt: skip
    ]
    assert_every_class(intent, objects, {"shared", "cache"})


def test_released_volumes_keep_their_data() -> None:
    intent = intent_of(
        "Once a claim is released its data must be preserved: every storage class and every "
        "persistent volume has to retain what it holds rather than delete or scrub it."
    )
    objects = [
        api_object(
            "storage.k8s.io/v1", "StorageClass", "silent", namespace="", provisioner="csi.example"
        ),
        api_object(
            "storage.k8s.io/v1",
            "StorageClass",
            "wiping",
            namespace="",
            provisioner="csi.example",
            reclaimPolicy="Delete",
        ),  # fmt: skip
        api_object(
            "v1",
            "PersistentVolume",
            "scrubbed",
            namespace="",
            spec={"persistentVolumeReclaimPolicy": "Recycle", "capacity": {"storage": "1Gi"}},
        ),  # fmt: skip
        # near misses: a class that retains, a static volume that says nothing (Retain)
        api_object(
            "storage.k8s.io/v1",
            "StorageClass",
            "keeper",
            namespace="",
            provisioner="csi.example",
            reclaimPolicy="Retain",
        ),  # fmt: skip
        api_object(
            "v1", "PersistentVolume", "static", namespace="", spec={"capacity": {"storage": "1Gi"}}
        ),
    ]
    assert_every_class(intent, objects, {"silent", "wiping", "scrubbed"})


def test_scheduled_jobs_never_run_concurrently_with_themselves() -> None:
    intent = intent_of(
        "A cron job may not start a run while its previous one is still going; the late run is "
        "skipped or replaces the old one. Without a setting, Kubernetes runs them concurrently."
    )
    objects = [
        _workload("CronJob", "silent", _spec()),
        _workload("CronJob", "allowing", _spec()),
        _workload("CronJob", "skipping", _spec()),
        _workload("CronJob", "replacing", _spec()),
    ]
    for cron, policy in zip(objects[1:], ("Allow", "Forbid", "Replace"), strict=True):
        cron["spec"]["concurrencyPolicy"] = policy
    assert_every_class(intent, objects, {"silent", "allowing"})


# ---- numeric fields within bounds, with the API's default -------------------------------------


def _job(
    name: str, cron: bool = False, spec_template: dict | None = None, **job_fields: Any
) -> dict:
    job_spec = {"template": {"spec": spec_template or _spec(restartPolicy="Never")}, **job_fields}
    if cron:
        return api_object("batch/v1", "CronJob", name,
                       spec={"schedule": "0 1 * * *", "jobTemplate": {"spec": job_spec}})  # fmt: skip
    return api_object("batch/v1", "Job", name, spec=job_spec)


def test_a_stop_window_bounded_on_both_sides_with_the_default_inside() -> None:
    intent = intent_of(
        "Every pod must get between 15 and 90 seconds of grace period to shut down cleanly; "
        "a pod that states none gets 30, which is fine."
    )
    objects = [
        _workload("Pod", "instant", _spec(terminationGracePeriodSeconds=0)),
        _workload("StatefulSet", "slow", _spec(terminationGracePeriodSeconds=300)),
        _workload("CronJob", "short", _spec(terminationGracePeriodSeconds=14)),
        # near misses: unset (30) and both edges
        _workload("Deployment", "unset", _spec()),
        _workload("Deployment", "low-edge", _spec(terminationGracePeriodSeconds=15)),
        _workload("DaemonSet", "high-edge", _spec(terminationGracePeriodSeconds=90)),
    ]
    assert_every_class(intent, objects, {"instant", "slow", "short"})


def test_every_job_needs_a_deadline_no_longer_than_the_limit() -> None:
    intent = intent_of(
        "Batch jobs need a time limit: each Job, and each Job a CronJob creates, must be stopped "
        "once it has been active for no more than 2 hours (7200 seconds)."
    )
    objects = [
        _job("endless"),
        _job("day-long", cron=True, activeDeadlineSeconds=86400),
        # only the pods are bounded, not the Job
        _job("pod-only", cron=True, spec_template=_spec(activeDeadlineSeconds=600)),
        # near misses: exactly the limit, a CronJob's Job bounded, a long-running service
        _job("edge", activeDeadlineSeconds=7200),
        _job("nightly", cron=True, activeDeadlineSeconds=1800, startingDeadlineSeconds=99999),
        _workload("Deployment", "service", _spec()),
    ]
    assert_every_class(intent, objects, {"endless", "day-long", "pod-only"})


def test_job_retries_capped_where_the_api_default_is_above_the_cap() -> None:
    intent = intent_of(
        "No Job, including those CronJobs start, may retry failed pods more than 2 times; "
        "Kubernetes retries 6 times when a Job says nothing."
    )
    objects = [
        _job("silent"),
        _job("stubborn", cron=True, backoffLimit=8),
        _job("silent-cron", cron=True),
        # near misses: zero and the cap itself
        _job("once", backoffLimit=0),
        _job("capped", cron=True, backoffLimit=2),
    ]
    assert_every_class(intent, objects, {"silent", "stubborn", "silent-cron"})


def test_a_replica_minimum_only_in_namespaces_carrying_a_label() -> None:
    intent = intent_of(
        "Deployments and StatefulSets in namespaces labelled tier=critical must run at least 3 "
        "replicas; an object that gives no count gets 1. Other namespaces are not judged."
    )

    def scaled(kind: str, name: str, namespace: str, replicas: int | None) -> dict:
        obj = _workload(kind, name, _spec())
        obj["metadata"]["namespace"] = namespace
        if replicas is not None:
            obj["spec"]["replicas"] = replicas
        return obj

    objects = [
        labelled_namespace("core", tier="critical"),
        labelled_namespace("lab", tier="critical-lab"),
        scaled("Deployment", "unset", "core", None),
        scaled("StatefulSet", "pair", "core", 2),
        scaled("Deployment", "parked", "core", 0),
        # near misses: enough replicas, a namespace whose label only contains the value, a DaemonSet
        scaled("Deployment", "trio", "core", 3),
        scaled("Deployment", "lab-single", "lab", 1),
        scaled("DaemonSet", "agent", "core", None),
    ]
    assert_every_class(intent, objects, {"unset", "pair", "parked"})


def test_config_maps_frozen_only_in_labelled_namespaces() -> None:
    intent = intent_of(
        "In namespaces labelled stage=live every ConfigMap has to be created immutable; a "
        "ConfigMap that does not say so can be edited in place. The kube-root-ca.crt ConfigMap "
        "is exempt."
    )

    def config(name: str, namespace: str, **body: Any) -> dict:
        return api_object("v1", "ConfigMap", name, namespace=namespace, data={"k": "v"}, **body)

    objects = [
        labelled_namespace("live", stage="live"),
        labelled_namespace("test", stage="test"),
        config("silent", "live"),
        config("editable", "live", immutable=False),
        config(
            "annotated",
            "live",
            metadata={
                "name": "annotated",
                "namespace": "live",
                "annotations": {"example.io/immutable": "true"},
            },
        ),  # fmt: skip
        # near misses: frozen, the published CA bundle, another stage
        config("frozen", "live", immutable=True),
        config("kube-root-ca.crt", "live"),
        config("draft", "test"),
    ]
    assert_every_class(intent, objects, {"silent", "editable", "annotated"})


def test_externally_reachable_services_keep_the_client_source_address() -> None:
    intent = intent_of(
        "Pods behind a Service exposed outside the cluster must see the original client IP, "
        "so external traffic may only go to endpoints on the node it arrived at."
    )

    def service(name: str, **spec: Any) -> dict:
        return api_object("v1", "Service", name, spec={"ports": [{"port": 443}], **spec})

    objects = [
        service("lb-default", type="LoadBalancer"),
        service("np-cluster", type="NodePort", externalTrafficPolicy="Cluster"),
        service("lb-internal-only", type="LoadBalancer", internalTrafficPolicy="Local"),
        # near misses: a kept address, and Services reachable only inside the cluster
        service("lb-local", type="LoadBalancer", externalTrafficPolicy="Local"),
        service("inside", internalTrafficPolicy="Local"),
        service("headless", clusterIP="None"),
    ]
    assert_every_class(intent, objects, {"lb-default", "np-cluster", "lb-internal-only"})


def test_who_may_mint_account_tokens_is_an_rbac_right_not_the_accounts_mount_setting() -> None:
    """A text about creating tokens on the serviceaccounts/token subresource names "service
    accounts" and "token" too; it is read as the RBAC right, and the mount table stays out."""
    intent = intent_of(
        "Issuing tokens for service accounts is reserved: report every Role or ClusterRole whose "
        "rules grant create on the serviceaccounts/token subresource, by name or by a wildcard."
    )
    assert [check.concept for check in intent.checks] == ["service-account-token-creation"]
