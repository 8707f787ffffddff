"""Kubernetes controls read by field FAMILY: a numeric bound on a field of workload objects
(missed-run cut-off, finished-Job time to live, rollout history, autoscaler range, a sibling
field such as progressDeadlineSeconds), the API's default when it is unset, and presence or
value checks on every container or pod (interactive terminals, listen ports, preStop hooks on
serving containers, pull credentials, pod labels). Per family a violating object and a near
miss, through the rendered policies of all three classes. Every text and object here is written
for this test."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import assert_every_class, intent_of, pod_carrier


def _object(api: str, kind: str, name: str, spec: dict[str, Any]) -> dict:
    return {"apiVersion": api, "kind": kind, "metadata": {"name": name, "namespace": "ops"},
            "spec": spec}  # fmt: skip


def _c(name: str = "app", **fields: Any) -> dict[str, Any]:
    return {"name": name, "image": "registry.example/app:2.3", **fields}


def _cron(name: str, job: dict[str, Any] | None = None, **spec: Any) -> dict:
    template = {"spec": {"containers": [_c()], "restartPolicy": "OnFailure"}}
    return _object("batch/v1", "CronJob", name, {"schedule": "0 3 * * *", **spec,
                   "jobTemplate": {"spec": {**(job or {}), "template": template}}})  # fmt: skip


def _controller(kind: str, name: str, **spec: Any) -> dict:
    template = {"metadata": {"labels": {"app": name}}, "spec": {"containers": [_c()]}}
    return _object("apps/v1", kind, name, {"selector": {"matchLabels": {"app": name}},
                   "template": template, **spec})  # fmt: skip


# ---- numeric bounds on object fields ------------------------------------------------------------


def test_a_missed_run_may_start_at_most_the_stated_minutes_late() -> None:
    intent = intent_of(
        "When the control plane was down at the time a CronJob was due, the missed run may "
        "still start, but no later than 5 minutes after its scheduled time. A CronJob with no "
        "such cut-off starts a missed run at any delay. A Job's run-time limit is unrelated."
    )
    objects = [
        _cron("late", startingDeadlineSeconds=900),
        _cron("unset"),
        _cron("unset-with-run-limit", job={"activeDeadlineSeconds": 120}),
        _cron("edge", startingDeadlineSeconds=300),
        _cron("suspended-edge", startingDeadlineSeconds=60, suspend=True),
    ]
    assert_every_class(intent, objects, {"late", "unset", "unset-with-run-limit"})


def test_finished_jobs_are_removed_within_hours_on_jobs_and_cron_job_templates() -> None:
    intent = intent_of(
        "Completed Jobs must be deleted automatically at most 2 hours after they finish, "
        "including the Jobs CronJobs create. How many finished Jobs a CronJob keeps in its "
        "history is not this setting."
    )
    job = _object("batch/v1", "Job", "kept", {"template": {"spec": {"containers": [_c()]}}})
    short = _object("batch/v1", "Job", "short",
                    {"ttlSecondsAfterFinished": 7200, "template": {"spec": {"containers": [_c()]}}})  # fmt: skip
    objects = [
        job,
        short,
        _cron("history-only", successfulJobsHistoryLimit=1, failedJobsHistoryLimit=1),
        _cron("too-long", job={"ttlSecondsAfterFinished": 7201}),
        _cron("at-once", job={"ttlSecondsAfterFinished": 0}),
    ]
    assert_every_class(intent, objects, {"kept", "history-only", "too-long"})


def test_rollout_history_takes_the_api_default_of_ten_when_unset() -> None:
    intent = intent_of(
        "Controllers may keep no more than 5 old revisions for rolling back (Deployments, "
        "StatefulSets, DaemonSets); one that does not say keeps the API default."
    )
    objects = [
        _controller("Deployment", "unset"),
        _controller("StatefulSet", "six", revisionHistoryLimit=6),
        _controller("DaemonSet", "five", revisionHistoryLimit=5),
        _controller("Deployment", "none", revisionHistoryLimit=0),
    ]
    assert_every_class(intent, objects, {"unset", "six"})


def test_autoscaler_range_bounds_min_and_max_with_min_default_one() -> None:
    intent = intent_of(
        "A HorizontalPodAutoscaler must not let its workload drop below 3 replicas nor grow "
        "above 12; left unset, the lower bound is 1."
    )

    def hpa(name: str, **spec: Any) -> dict:
        target = {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}
        return _object("autoscaling/v2", "HorizontalPodAutoscaler", name,
                       {"scaleTargetRef": target, **spec})  # fmt: skip

    objects = [
        hpa("no-min", maxReplicas=6),
        hpa("low", minReplicas=2, maxReplicas=6),
        hpa("high", minReplicas=3, maxReplicas=13),
        hpa("edges", minReplicas=3, maxReplicas=12),
    ]
    assert_every_class(intent, objects, {"no-min", "low", "high"})


def test_a_sibling_field_of_the_family_is_read_by_its_name() -> None:
    intent = intent_of(
        "Every Deployment must set progressDeadlineSeconds to at most 300 so a stuck rollout "
        "is reported early."
    )
    objects = [
        _controller("Deployment", "default"),  # the API's 600
        _controller("Deployment", "long", progressDeadlineSeconds=301),
        _controller("Deployment", "ok", progressDeadlineSeconds=300),
    ]
    assert_every_class(intent, objects, {"default", "long"})


# ---- containers of every pod-carrying kind ------------------------------------------------------

_KINDS = ("Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob")


@pytest.mark.parametrize("kind", _KINDS)
def test_no_container_keeps_stdin_open_or_gets_a_terminal(kind: str) -> None:
    intent = intent_of(
        "Containers are not for interactive sessions: none may keep its standard input open "
        "or be given a terminal, init and debug containers included."
    )
    objects = [
        pod_carrier(kind, "tty", {"containers": [_c(), _c("side", tty=True)]}),
        pod_carrier(
            kind, "init-stdin", {"containers": [_c()], "initContainers": [_c("prep", stdin=True)]}
        ),  # fmt: skip
        pod_carrier(kind, "explicit-false", {"containers": [_c(stdin=False, tty=False)]}),
    ]
    if kind == "Pod":
        debug = {"containers": [_c()], "ephemeralContainers": [_c("dbg", stdin=True, tty=True)]}
        objects.append(pod_carrier(kind, "debug", debug))
    expected = {"tty", "init-stdin"} | ({"debug"} if kind == "Pod" else set())
    assert_every_class(intent, objects, expected)


@pytest.mark.parametrize("kind", _KINDS)
def test_no_container_port_below_the_bound(kind: str) -> None:
    intent = intent_of("No container may listen on a port below 2000; ports from 2000 up are fine.")

    def ports(*numbers: int) -> list[dict[str, Any]]:
        return [{"containerPort": n, "protocol": "UDP"} for n in numbers]

    objects = [
        pod_carrier(kind, "second-port", {"containers": [_c(ports=ports(8080, 53))]}),
        pod_carrier(kind, "sidecar", {"containers": [_c(), _c("proxy", ports=ports(1999))]}),
        pod_carrier(kind, "edge", {"containers": [_c(ports=ports(2000, 9090))]}),
        pod_carrier(kind, "no-ports", {"containers": [_c()]}),
    ]
    assert_every_class(intent, objects, {"second-port", "sidecar"})


def test_pre_stop_hook_on_containers_that_declare_ports_in_the_named_kinds_only() -> None:
    intent = intent_of(
        "Deployments only: every container that declares a port must have a preStop hook so "
        "it can finish in-flight requests; a postStart hook does not count."
    )
    port = [{"containerPort": 8443}]
    hook = {"preStop": {"sleep": {"seconds": 5}}}

    def deployment(name: str, *containers: dict) -> dict:
        return pod_carrier("Deployment", name, {"containers": list(containers)})

    objects = [
        deployment("post-start", _c(ports=port, lifecycle={"postStart": {"exec": {"command": ["true"]}}})),
        deployment("second", _c(ports=port, lifecycle=hook), _c("envoy", ports=[{"containerPort": 9901}])),
        deployment("hooked", _c(ports=port, lifecycle=hook), _c("worker")),
        pod_carrier("DaemonSet", "other-kind", {"containers": [_c(ports=port)]}),
    ]  # fmt: skip
    assert_every_class(intent, objects, {"post-start", "second"})


@pytest.mark.parametrize("kind", _KINDS)
def test_pod_spec_names_its_own_pull_secret(kind: str) -> None:
    intent = intent_of(
        "Every pod and pod template must list image pull secrets in its own spec; what a "
        "ServiceAccount carries does not count and an empty list names none."
    )
    objects = [
        pod_carrier(kind, "missing", {"containers": [_c()], "serviceAccountName": "puller"}),
        pod_carrier(kind, "empty", {"containers": [_c()], "imagePullSecrets": []}),
        pod_carrier(kind, "named", {"containers": [_c()], "imagePullSecrets": [{"name": "reg"}]}),
    ]
    assert_every_class(intent, objects, {"missing", "empty"})


@pytest.mark.parametrize("kind", _KINDS)
def test_pods_carry_the_named_labels_with_values(kind: str) -> None:
    intent = intent_of(
        "Every pod must be labelled with team.example.com/owner and app.kubernetes.io/component, "
        "both non-empty; labels on the controller do not reach its pods."
    )

    def labelled(name: str, labels: dict[str, str]) -> dict:
        carrier = pod_carrier(kind, name, {"containers": [_c()]})
        if kind == "Pod":
            carrier["metadata"]["labels"] = labels
        else:
            template = (carrier["spec"]["jobTemplate"]["spec"] if kind == "CronJob"
                        else carrier["spec"])["template"]  # fmt: skip
            template["metadata"]["labels"] = {**template["metadata"]["labels"], **labels}
            carrier["metadata"]["labels"] = {"team.example.com/owner": "x",
                                             "app.kubernetes.io/component": "y"}  # fmt: skip
        return carrier

    objects = [
        labelled("one-missing", {"team.example.com/owner": "pay"}),
        labelled("empty", {"team.example.com/owner": "pay", "app.kubernetes.io/component": ""}),
        labelled("underscore", {"team.example.com/owner": "pay", "app.kubernetes.io/component_": "x"}),
        labelled("both", {"team.example.com/owner": "pay", "app.kubernetes.io/component": "api"}),
    ]  # fmt: skip
    expected = {"one-missing", "empty", "underscore"}
    assert_every_class(intent, objects, expected)


def test_probes_required_on_the_containers_of_the_listed_kinds_and_a_discounted_one_not() -> None:
    intent = intent_of(
        "Every regular container must have a readiness check and a liveness check. This covers "
        "the containers of StatefulSets and DaemonSets; a startup probe does not count as "
        "either."
    )
    both = {"livenessProbe": {"tcpSocket": {"port": 80}},
            "readinessProbe": {"httpGet": {"path": "/ready", "port": 80}}}  # fmt: skip
    startup = {"startupProbe": {"tcpSocket": {"port": 80}}}
    objects = [
        pod_carrier("StatefulSet", "sidecar-lacks", {"containers": [_c(**both), _c("log", **startup)]}),
        pod_carrier("DaemonSet", "liveness-only", {"containers": [_c(livenessProbe=both["livenessProbe"])]}),
        pod_carrier("DaemonSet", "complete", {"containers": [_c(**both)], "initContainers": [_c("init")]}),
        pod_carrier("Deployment", "not-listed", {"containers": [_c()]}),
        pod_carrier("Pod", "bare", {"containers": [_c()]}),
    ]  # fmt: skip
    assert_every_class(intent, objects, {"sidecar-lacks", "liveness-only"})


def test_claim_size_cap_in_bytes_over_units_and_claim_templates() -> None:
    intent = intent_of(
        "A persistent volume claim may request at most 2 TiB of storage (2 x 2^40 bytes), "
        "StatefulSet claim templates included; 2 TiB itself is fine."
    )

    def claim(size: Any) -> dict[str, Any]:
        return {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": size}}}

    def pvc(name: str, size: Any) -> dict:
        return _object("v1", "PersistentVolumeClaim", name, claim(size))

    def sts(name: str, *sizes: Any) -> dict:
        templates = [{"metadata": {"name": f"d{i}"}, "spec": claim(s)} for i, s in enumerate(sizes)]
        return _controller("StatefulSet", name, volumeClaimTemplates=templates)

    objects = [
        pvc("decimal-over", "2200G"),  # 2.2e12 > 2 * 2^40 = 2.199e12
        pvc("bytes-over", 2 * 2**40 + 1),
        pvc("edge", "2Ti"),
        pvc("mebibytes-edge", "2097152Mi"),
        sts("second-template", "10Gi", "3Ti"),
        sts("small", "100Gi"),
    ]
    assert_every_class(intent, objects, {"decimal-over", "bytes-over", "second-template"})
