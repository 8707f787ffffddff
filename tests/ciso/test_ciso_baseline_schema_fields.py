"""Kubernetes requirements that name a field no concept table of the baseline knows: the schema
reader (``knowledge/k8s_schema_fields``) finds the field in the API schema, reads what the text
says of it (a bound, a value, a list of values, a presence, the default of an unset field) and
the rendered policies of all three classes (Kyverno, kubectl-opa Rego, opa-static Rego) agree
on each object. Every requirement and object here is written for this test."""

from __future__ import annotations

from typing import Any

from ciso.agents.baseline.bound_checks import FieldBoundCheck
from ciso.agents.baseline.family_checks import ContainerNumberBoundCheck, QuantityBoundCheck
from ciso.agents.baseline.intent import FieldValueCheck
from tests._support.ciso_baseline import (
    api_object,
    assert_every_class,
    intent_of,
    labelled_namespace,
    pod_carrier,
)


def _c(name: str = "main", **fields: Any) -> dict[str, Any]:
    return {"name": name, "image": "registry.example/main:2.3", **fields}


# ---- a value the field must hold, with the default an unset field takes --------------------


def test_an_enumerated_value_required_where_the_unset_default_is_another() -> None:
    intent = intent_of(
        "Every PodDisruptionBudget must set unhealthyPodEvictionPolicy to AlwaysAllow; an "
        "unset unhealthyPodEvictionPolicy counts as IfHealthyBudget."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert check.paths == (("spec", "unhealthyPodEvictionPolicy"),)

    def budget(name: str, **spec: Any) -> dict:
        selector = {"matchLabels": {"app": name}}
        return api_object("policy/v1", "PodDisruptionBudget", name,
                       spec={"selector": selector, "maxUnavailable": 1, **spec})  # fmt: skip

    objects = [
        budget("healthy-only", unhealthyPodEvictionPolicy="IfHealthyBudget"),
        budget("silent"),
        # near miss: the value required
        budget("drainable", unhealthyPodEvictionPolicy="AlwaysAllow"),
    ]
    assert_every_class(intent, objects, {"healthy-only", "silent"})


def test_a_number_or_percentage_that_must_be_zero_under_one_parent_only() -> None:
    # maxUnavailable is a Deployment's, a DaemonSet's, a StatefulSet's and a budget's field:
    # the text names the Deployment
    intent = intent_of(
        "A Deployment's maxUnavailable must be 0 so that no serving pod stops before its "
        "replacement is ready; an unset maxUnavailable counts as 25%."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck) and check.kinds == ("Deployment",)

    def deployment(name: str, **rolling: Any) -> dict:
        obj = pod_carrier("Deployment", name, {"containers": [_c()]})
        if rolling:
            obj["spec"]["strategy"] = {"type": "RollingUpdate", "rollingUpdate": rolling}
        return obj

    budget = api_object("policy/v1", "PodDisruptionBudget", "budget",
                     spec={"selector": {"matchLabels": {"app": "x"}}, "maxUnavailable": 2})  # fmt: skip
    objects = [
        deployment("one-down", maxUnavailable=1),
        deployment("tenth-down", maxUnavailable="10%"),
        deployment("defaulted"),
        # near misses: zero as a number and as a percentage, and another kind's field
        deployment("zero", maxUnavailable=0, maxSurge=1),
        deployment("zero-percent", maxUnavailable="0%"),
        budget,
    ]
    assert_every_class(intent, objects, {"one-down", "tenth-down", "defaulted"})


def test_the_parent_the_text_names_decides_between_kinds_it_does_not_name() -> None:
    # no kind named: "update strategy" is the DaemonSet's and StatefulSet's updateStrategy, not
    # a Deployment's strategy nor a PodDisruptionBudget
    intent = intent_of("The update strategy's maxUnavailable must be 1; leaving it unset fails.")

    def rolled(kind: str, name: str, field: str, value: Any) -> dict:
        obj = pod_carrier(kind, name, {"containers": [_c()]})
        if value is not None:
            obj["spec"][field] = {
                "type": "RollingUpdate",
                "rollingUpdate": {"maxUnavailable": value},
            }
        return obj

    objects = [
        rolled("DaemonSet", "agents", "updateStrategy", 3),
        rolled("StatefulSet", "ring", "updateStrategy", "50%"),
        rolled("DaemonSet", "silent", "updateStrategy", None),
        # near misses: the value required, a Deployment's strategy, a budget
        rolled("DaemonSet", "one-by-one", "updateStrategy", 1),
        rolled("Deployment", "web", "strategy", 3),
        api_object(
            "policy/v1",
            "PodDisruptionBudget",
            "budget",
            spec={"selector": {"matchLabels": {"app": "x"}}, "maxUnavailable": 3},
        ),  # fmt: skip
    ]
    assert_every_class(intent, objects, {"agents", "ring", "silent"})


def test_a_list_of_allowed_values_for_a_field_of_an_object() -> None:
    intent = intent_of(
        "Every Service's ipFamilyPolicy must be one of SingleStack or PreferDualStack; leaving "
        "it unset is fine."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert set(check.allowed) == {"SingleStack", "PreferDualStack"} and not check.must_be_set

    def service(name: str, **spec: Any) -> dict:
        return api_object("v1", "Service", name,
                       spec={"selector": {"app": name}, "ports": [{"port": 80}], **spec})  # fmt: skip

    objects = [
        service("dual-only", ipFamilyPolicy="RequireDualStack"),
        # near misses: the allowed values, and none
        service("single", ipFamilyPolicy="SingleStack"),
        service("prefer", ipFamilyPolicy="PreferDualStack"),
        service("unset"),
    ]
    assert_every_class(intent, objects, {"dual-only"})


# ---- a value the field must not hold --------------------------------------------------------


def test_a_forbidden_value_in_a_list_of_the_pod_spec() -> None:
    intent = intent_of(
        "No pod may declare a topology spread constraint whose whenUnsatisfiable is "
        "ScheduleAnyway: a constraint that the scheduler may ignore is no constraint."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck) and check.level == "pod"

    def spread(kind: str, name: str, mode: str | None) -> dict:
        spec: dict[str, Any] = {"containers": [_c()]}
        if mode is not None:
            spec["topologySpreadConstraints"] = [
                {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
                 "whenUnsatisfiable": mode, "labelSelector": {"matchLabels": {"app": name}}}
            ]  # fmt: skip
        return pod_carrier(kind, name, spec)

    objects = [
        spread("Deployment", "soft", "ScheduleAnyway"),
        spread("CronJob", "nightly", "ScheduleAnyway"),
        # near misses: the hard mode, and no constraint at all
        spread("StatefulSet", "hard", "DoNotSchedule"),
        spread("Pod", "free", None),
    ]
    assert_every_class(intent, objects, {"soft", "nightly"})


def test_a_forbidden_boolean_of_an_object() -> None:
    intent = intent_of("No Service may set publishNotReadyAddresses to true.")

    def service(name: str, **spec: Any) -> dict:
        return api_object("v1", "Service", name,
                       spec={"selector": {"app": name}, "ports": [{"port": 53}], **spec})  # fmt: skip

    objects = [
        service("early", publishNotReadyAddresses=True),
        # near misses: false, and unset
        service("ready-only", publishNotReadyAddresses=False),
        service("plain"),
    ]
    assert_every_class(intent, objects, {"early"})


# ---- bounds ------------------------------------------------------------------------------------


def test_a_bound_on_a_dotted_path_with_the_default_the_text_states() -> None:
    intent = intent_of(
        "A Job may run at most 4 pods at the same time: its spec.parallelism must not exceed 4 "
        "(an unset parallelism counts as 1)."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldBoundCheck) and check.maximum == 4 and check.default == 1

    def job(kind: str, name: str, parallelism: int | None) -> dict:
        obj = pod_carrier(kind, name, {"containers": [_c()], "restartPolicy": "Never"})
        spec = obj["spec"]["jobTemplate"]["spec"] if kind == "CronJob" else obj["spec"]
        if parallelism is not None:
            spec["parallelism"] = parallelism
        return obj

    objects = [
        job("Job", "wide", 8),
        job("CronJob", "fan-out", 5),
        # near misses: the bound itself, and unset
        job("Job", "four", 4),
        job("Job", "single", None),
    ]
    assert_every_class(intent, objects, {"wide", "fan-out"})


def test_a_container_bound_under_the_parent_the_text_names() -> None:
    # failureThreshold is a field of every probe: the text names the startup probe
    intent = intent_of(
        "The failureThreshold of every container's startup probe must be at most 30, so that "
        "a hung start is noticed within minutes."
    )
    (check,) = intent.checks
    assert isinstance(check, ContainerNumberBoundCheck)
    assert check.path == ("startupProbe", "failureThreshold") and check.maximum == 30

    def probed(kind: str, name: str, **probes: Any) -> dict:
        return pod_carrier(kind, name, {"containers": [_c(**probes)]})

    probe = {"httpGet": {"path": "/healthz", "port": 8080}}
    objects = [
        probed("Deployment", "patient", startupProbe={**probe, "failureThreshold": 120}),
        probed("Pod", "slow", startupProbe={**probe, "failureThreshold": 31}),
        # near misses: within the bound, and a liveness probe above it
        probed("StatefulSet", "brisk", startupProbe={**probe, "failureThreshold": 30}),
        probed("Deployment", "lively", livenessProbe={**probe, "failureThreshold": 90}),
    ]
    assert_every_class(intent, objects, {"patient", "slow"})


def test_a_quantity_bound_in_every_pod_carrying_kind() -> None:
    intent = intent_of("Every pod's emptyDir sizeLimit must not exceed 2Gi.")

    def scratch(kind: str, name: str, limit: str | None) -> dict:
        empty = {"sizeLimit": limit} if limit else {}
        spec = {"containers": [_c()], "volumes": [{"name": "tmp", "emptyDir": empty}]}
        return pod_carrier(kind, name, spec)

    objects = [
        scratch("Deployment", "huge", "4Gi"),
        scratch("CronJob", "decimal", "3G"),
        # near misses: the bound in another unit, and below it
        scratch("StatefulSet", "exact", "2048Mi"),
        scratch("Pod", "small", "500M"),
    ]
    assert_every_class(intent, objects, {"huge", "decimal"})


def test_a_bound_only_in_namespaces_carrying_a_label() -> None:
    intent = intent_of(
        "In namespaces labelled tier=batch, a Job's spec.parallelism must be at most 2. "
        "Other namespaces are not judged."
    )

    def job(name: str, namespace: str, parallelism: int) -> dict:
        obj = pod_carrier("Job", name, {"containers": [_c()], "restartPolicy": "Never"},
                          namespace=namespace)  # fmt: skip
        obj["spec"]["parallelism"] = parallelism
        return obj

    objects = [
        labelled_namespace("crunch", tier="batch"),
        labelled_namespace("web", tier="frontend"),
        job("crowd", "crunch", 6),
        # near misses: within the bound, and outside the labelled namespaces
        job("pair", "crunch", 2),
        job("elsewhere", "web", 6),
    ]
    assert_every_class(intent, objects, {"crowd"})


# ---- presence --------------------------------------------------------------------------------


def test_a_container_field_that_must_not_be_declared() -> None:
    intent = intent_of(
        "No container may declare a resizePolicy: resources change only through a new rollout."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck) and check.any_value

    resize = [{"resourceName": "cpu", "restartPolicy": "NotRequired"}]
    objects = [
        pod_carrier("Deployment", "elastic", {"containers": [_c(resizePolicy=resize)]}),
        pod_carrier(
            "Job",
            "init-resize",
            {
                "containers": [_c()],
                "initContainers": [_c("prep", resizePolicy=resize)],
                "restartPolicy": "Never",
            },
        ),  # fmt: skip
        # near misses: an empty list, and none
        pod_carrier("Deployment", "empty", {"containers": [_c(resizePolicy=[])]}),
        pod_carrier("Pod", "fixed", {"containers": [_c()]}),
    ]
    assert_every_class(intent, objects, {"elastic", "init-resize"})


def test_an_object_field_that_must_be_set() -> None:
    intent = intent_of(
        "Every StatefulSet must set spec.persistentVolumeClaimRetentionPolicy, so that what "
        "happens to its claims is decided on purpose."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck) and check.must_be_set

    def stateful(name: str, **spec: Any) -> dict:
        obj = pod_carrier("StatefulSet", name, {"containers": [_c()]})
        obj["spec"].update(spec)
        return obj

    policy = {"whenDeleted": "Retain", "whenScaled": "Delete"}
    objects = [
        stateful("undecided"),
        # near misses: the field set, and a Deployment (another kind)
        stateful("decided", persistentVolumeClaimRetentionPolicy=policy),
        pod_carrier("Deployment", "stateless", {"containers": [_c()]}),
    ]
    assert_every_class(intent, objects, {"undecided"})


# ---- a field named only in words, and the default that makes unset violate -------------------


def test_a_field_named_in_words_whose_unset_default_is_the_forbidden_value() -> None:
    intent = intent_of(
        "Every StatefulSet's pod management policy must not be OrderedReady, so that replicas "
        "start together. An unset pod management policy counts as OrderedReady."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert check.paths == (("spec", "podManagementPolicy"),) and check.forbidden == (
        "OrderedReady",
    )

    def stateful(name: str, policy: str | None) -> dict:
        obj = pod_carrier("StatefulSet", name, {"containers": [_c()]})
        if policy is not None:
            obj["spec"]["podManagementPolicy"] = policy
        return obj

    objects = [
        stateful("in-order", "OrderedReady"),
        stateful("defaulted", None),
        # near misses: the parallel policy, and a Deployment (another kind)
        stateful("together", "Parallel"),
        pod_carrier("Deployment", "stateless", {"containers": [_c()]}),
    ]
    assert_every_class(intent, objects, {"in-order", "defaulted"})


def test_a_field_that_must_be_left_unset() -> None:
    intent = intent_of("Every Service must leave spec.healthCheckNodePort unset.")

    def service(name: str, **spec: Any) -> dict:
        return api_object("v1", "Service", name,
                       spec={"selector": {"app": name}, "ports": [{"port": 443}], **spec})  # fmt: skip

    objects = [
        service(
            "probed", type="LoadBalancer", externalTrafficPolicy="Local", healthCheckNodePort=32000
        ),  # fmt: skip
        # near misses: the same Service without the port, and a plain one
        service("local", type="LoadBalancer", externalTrafficPolicy="Local"),
        service("inner"),
    ]
    assert_every_class(intent, objects, {"probed"})


# ---- a key of a map field the text spells after the map's path --------------------------------


def _sized(kind: str, name: str, key: str, where: str, value: str | None) -> dict:
    resources = {where: {key: value}} if value else {}
    return pod_carrier(kind, name, {"containers": [_c(resources=resources)]})


def test_a_quantity_bound_on_a_key_of_a_containers_resource_map() -> None:
    intent = intent_of(
        "Scheduling fairness: a container may ask for at most 3Gi of memory up front; its "
        "resources.requests.memory, where given, must be no more than 3Gi. Containers that ask "
        "for nothing are judged by another rule."
    )
    (check,) = intent.checks
    assert isinstance(check, QuantityBoundCheck)
    assert check.maximum == 3 * 1024**3
    assert ("Deployment", ("spec", "template", "spec", "containers", "*", "resources",
                           "requests", "memory")) in check.fields  # fmt: skip
    objects = [
        _sized("Deployment", "greedy", "memory", "requests", "4Gi"),
        _sized("Job", "decimal", "memory", "requests", "3500M"),
        # near misses: at the bound in another unit, a limit (another map), no request at all
        _sized("StatefulSet", "exact", "memory", "requests", "3072Mi"),
        _sized("Pod", "limited", "memory", "limits", "8Gi"),
        _sized("DaemonSet", "unset", "memory", "requests", None),
    ]
    assert_every_class(intent, objects, {"greedy", "decimal"})


def test_a_cap_on_a_limit_a_concept_would_only_require() -> None:
    # the ephemeral-storage concept asks for the limit to be set; this text caps its value
    intent = intent_of(
        "Node disks are shared: where a container limits its scratch space "
        "(resources.limits.ephemeral-storage), that limit must not exceed 512Mi. A container "
        "with no such limit is out of scope here."
    )
    (check,) = intent.checks
    assert isinstance(check, QuantityBoundCheck)
    assert check.maximum == 512 * 1024**2
    objects = [
        _sized("Deployment", "wide", "ephemeral-storage", "limits", "1Gi"),
        _sized("CronJob", "bytes", "ephemeral-storage", "limits", "600000000"),
        _sized("Pod", "fits", "ephemeral-storage", "limits", "500Mi"),
        _sized("ReplicaSet", "no-limit", "ephemeral-storage", "limits", None),
    ]
    assert_every_class(intent, objects, {"wide", "bytes"})
