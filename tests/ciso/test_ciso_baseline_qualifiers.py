"""What a requirement text adds to, or takes from, a control the baseline knows: a runtime class
the text keeps out rather than requires, namespaces an exemption lists by name, the one
capability a container may add back after dropping all, a digest accepted as one way of pinning
an image to a version (a tag other than latest pins it too), the group a text names before its
kind as the one holder of a role, the label an aside gives to the workloads a text is about. Each requirement and object is written for this test;
every rendered class (Kyverno, kubectl-opa Rego, opa-static Rego) is judged by the real engines
and must flag exactly the violating objects, not the near misses."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import (
    CLASSES,
    assert_flags_exactly_the_violations,
    images_spec,
    intent_of,
    labelled_namespace,
    pod_carrier,
    privileged_spec,
    secured_container,
)


def _pod_spec(runtime: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "app", "image": "registry.example/app:2.0"}]}
    if runtime is not None:
        spec["runtimeClassName"] = runtime
    return spec


#: a prohibition of one runtime class: the class named is what violates, unset complies
RUNTIME_KEPT_OUT = (
    "The experimental sandbox is being retired, so no workload may select the runtime class "
    "firecracker-beta any more.",
    [
        pod_carrier("Deployment", "legacy-sandbox", _pod_spec("firecracker-beta")),
        pod_carrier("CronJob", "nightly-sandbox", _pod_spec("firecracker-beta")),
    ],
    [
        pod_carrier("Deployment", "plain", _pod_spec()),
        pod_carrier("Pod", "other-runtime", _pod_spec("gvisor")),
    ],
)


#: an exemption stated as "the only exception is ..." names its namespace after the verb
ONE_EXCEPTION = (
    "Containers are never allowed to set securityContext.privileged to true. The sole "
    "exception is the node-tools namespace.",
    [
        labelled_namespace("node-tools", purpose="agents"),
        pod_carrier("Deployment", "rogue", privileged_spec(True), "billing"),
    ],
    [
        pod_carrier("DaemonSet", "node-agent", privileged_spec(True), "node-tools"),
        pod_carrier("Deployment", "calm", privileged_spec(False), "billing"),
    ],
)

#: an exemption listing several namespaces, none of them a built-in one
LISTED_EXCEPTIONS = (
    "In every namespace except logging and tracing, no container may run privileged "
    "(securityContext.privileged true).",
    [
        pod_carrier("Deployment", "api", privileged_spec(True), "storefront"),
        pod_carrier("Pod", "shell", privileged_spec(True), "logging-dev"),
    ],
    [
        pod_carrier("DaemonSet", "collector", privileged_spec(True), "logging"),
        pod_carrier("DaemonSet", "agent", privileged_spec(True), "tracing"),
    ],
)


def _caps(drop: list[str], add: list[str] | None = None) -> dict[str, Any]:
    capabilities: dict[str, Any] = {"drop": drop, **({"add": add} if add else {})}
    return {"containers": [secured_container(capabilities=capabilities)]}


#: drop all, and one named capability a container may add back (no "only" in the text)
ONE_ADDED_BACK = (
    "All containers have to drop every Linux capability (drop ALL). The single capability "
    "that a container may then add back is CHOWN.",
    [
        pod_carrier("Deployment", "sniffer", _caps(["ALL"], ["NET_RAW"])),
        pod_carrier("Pod", "keeps-some", _caps(["MKNOD"])),
    ],
    [
        pod_carrier("Deployment", "files", _caps(["ALL"], ["CHOWN"])),
        pod_carrier("Deployment", "bare", _caps(["ALL"])),
    ],
)


#: a version is asked for; a digest is only one way to give it
VERSION_OR_DIGEST = (
    "Every container image must carry an explicit release: an image with no tag at all, or "
    "with the tag latest, fails, while a sha256 digest reference is acceptable too.",
    [
        pod_carrier("Deployment", "floating", images_spec("mirror.example:8443/team/api")),
        pod_carrier(
            "Job", "newest", images_spec("registry.example/tools/migrate:2.3", "redis:latest")
        ),
    ],
    [
        pod_carrier("Deployment", "tagged", images_spec("mirror.example:8443/team/api:5.2.0")),
        pod_carrier("Pod", "by-digest", images_spec("registry.example/app@sha256:" + "ab" * 32)),
        pod_carrier("CronJob", "odd-name", images_spec("registry.example/latest-sync:1.0.4")),
    ],
)


def _binding(kind: str, name: str, role: str, *subjects: tuple[str, str]) -> dict[str, Any]:
    namespace = {"namespace": "ops"} if kind == "RoleBinding" else {}
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": kind,
        "metadata": {"name": name, **namespace},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
        "subjects": [
            {"kind": k, "name": n, **({"namespace": "ops"} if k == "ServiceAccount" else {})}
            for k, n in subjects
        ],
    }


#: the one allowed holder named before its kind ("the ops:root group")
HOLDER_BEFORE_KIND = (
    "The cluster-admin ClusterRole may be bound only to the ops:root group; no other user, "
    "group or service account may receive it, cluster-wide or in a single namespace.",
    [
        _binding("ClusterRoleBinding", "robot-admin", "cluster-admin", ("ServiceAccount", "ci")),
        _binding("RoleBinding", "local-admin", "cluster-admin", ("User", "dana")),
        _binding(
            "ClusterRoleBinding", "mixed", "cluster-admin", ("Group", "ops:root"), ("User", "lee")
        ),  # fmt: skip
    ],
    [
        _binding("ClusterRoleBinding", "root-group", "cluster-admin", ("Group", "ops:root")),
        _binding("ClusterRoleBinding", "editors", "edit", ("User", "dana")),
    ],
)


def _limits(**limits: str) -> dict[str, Any]:
    container = {
        "name": "svc",
        "image": "registry.example/svc:1.2",
        "resources": {"limits": limits},
    }
    return {"containers": [container]}


def _team_workload(kind: str, name: str, team: str, **limits: str) -> dict[str, Any]:
    workload = pod_carrier(kind, name, _limits(**limits))
    workload["metadata"]["labels"] = {"owner": team}
    template = workload["spec"].get("jobTemplate", {}).get("spec", workload["spec"])["template"]
    template["metadata"]["labels"]["owner"] = team
    return workload


#: the label of the workloads in scope, given in parentheses after who owns them
LABEL_IN_AN_ASIDE = (
    "Applications run by the risk desk (label owner=risk) must give every container a memory "
    "limit.",
    [
        _team_workload("Deployment", "scoring", "risk", cpu="1"),
        _team_workload("CronJob", "recalc", "risk"),
    ],
    [
        _team_workload("Deployment", "pricing", "risk", memory="1Gi"),
        _team_workload("Deployment", "wiki", "docs"),
    ],
)

CASES = {
    "runtime-kept-out": RUNTIME_KEPT_OUT,
    "one-exception": ONE_EXCEPTION,
    "listed-exceptions": LISTED_EXCEPTIONS,
    "one-added-back": ONE_ADDED_BACK,
    "version-or-digest": VERSION_OR_DIGEST,
    "holder-before-kind": HOLDER_BEFORE_KIND,
    "label-in-an-aside": LABEL_IN_AN_ASIDE,
}


@pytest.mark.parametrize("ciso_class", CLASSES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_class_flags_exactly_the_violations(case: str, ciso_class: str) -> None:
    assert_flags_exactly_the_violations(CASES[case], ciso_class)


def test_a_tag_accepted_beside_a_required_digest_keeps_the_digest_control() -> None:
    # the acceptance is of the tag written with the digest: the digest is still what is asked
    intent = intent_of(
        "Workloads must reference each image by its sha256 digest; a version tag on its own "
        "is not sufficient, though a tag kept next to the digest is fine."
    )
    assert [c.concept for c in intent.checks] == ["image-digest"]
