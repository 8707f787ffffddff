"""The baseline carries five classes of reading to requirement texts it was not written with:
an exemption sentence that says why the exempted objects need the setting (its words name no
control), the default namespace limited to what runs containers (and a manifest with no
namespace read as living in default), roles set apart by a bare name, load-balancer ranges
open to the whole internet said in words, and bindings to callers without credentials behind
"nothing ... may" with the built-in binding accepted by name. Each sentence and object is
written for this test; the rendered policies are judged by the real engines (Kyverno scanner,
Rego) in all three Kubernetes classes, and the opa-static fetch.sh runs as written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from ciso.agents.baseline.effect_checks import LoadBalancerSourcesCheck
from ciso.agents.baseline.intent import (
    BindingCheck,
    ContainerFieldCheck,
    DefaultNamespaceCheck,
)
from ciso.agents.baseline.render import render
from tests._support.ciso_baseline import (
    api_object,
    assert_every_class,
    intent_of,
    pod_carrier,
    rego_flags,
    role,
)

# ---- an exemption sentence names no control ----------------------------------------------------

PRIVILEGED_TEXT = (
    "No container anywhere may run in privileged mode, sidecars and init containers included. "
    "The single exception is the observability namespace, where the flow exporter reads the "
    "node's network interfaces."
)


def test_an_exemption_sentence_does_not_choose_the_control() -> None:
    intent = intent_of(PRIVILEGED_TEXT)
    assert isinstance(intent.checks[0], ContainerFieldCheck)
    assert intent.checks[0].concept == "privileged"
    assert intent.scope.exempt_namespaces == ("observability",)
    privileged = {"name": "s", "image": "x", "securityContext": {"privileged": True}}
    objects = [
        pod_carrier(
            "Deployment",
            "sidecar-priv",
            {"containers": [{"name": "a", "image": "x"}, privileged]},
            "shop",
        ),  # fmt: skip
        pod_carrier("DaemonSet", "flow-exporter", {"containers": [privileged]}, "observability"),
        pod_carrier("Deployment", "plain", {"containers": [{"name": "a", "image": "x"}]}, "shop"),
    ]
    assert_every_class(intent, objects, {"sidecar-priv"})


# ---- the default namespace, limited to what runs containers ------------------------------------

DEFAULT_NS_TEXT = (
    "Keep workloads out of the default namespace: no Pod, and no controller that starts pods, "
    "may be placed there."
)


def test_default_namespace_limited_to_what_runs_containers() -> None:
    intent = intent_of(DEFAULT_NS_TEXT)
    check = intent.checks[0]
    assert isinstance(check, DefaultNamespaceCheck)
    assert "ConfigMap" not in check.kinds and "Job" in check.kinds
    container = {"containers": [{"name": "a", "image": "x"}]}
    objects = [
        pod_carrier("StatefulSet", "queue", container, "default"),
        pod_carrier("Job", "migrate-once", container, "default"),
        api_object("v1", "ConfigMap", "feature-flags", "default", data={"a": "b"}),
        api_object("v1", "Secret", "tls-pair", "default", data={}),
        pod_carrier("Deployment", "elsewhere", container, "default-apps"),
    ]
    assert_every_class(intent, objects, {"queue", "migrate-once"})
    # every kind stays in scope when the text does not speak of containers
    plain = intent_of("Nothing of ours should be created in the default namespace.")
    assert isinstance(plain.checks[0], DefaultNamespaceCheck)
    assert "ConfigMap" in plain.checks[0].kinds
    # workloads named beside other kinds: the other kinds stay in scope
    listed = intent_of(
        "Keep the default namespace unused: any workload, Service, ConfigMap or Secret placed "
        "there is reported, apart from what the cluster itself creates."
    )
    assert isinstance(listed.checks[0], DefaultNamespaceCheck)
    assert {"Secret", "Service", "Deployment"} <= set(listed.checks[0].kinds)


def _fetched(intent: Any, manifests: list[dict[str, Any]], tmp_path: Path) -> list[dict]:
    """The items the opa-static fetch.sh collects from ``manifests`` (run with this Python's
    ``python3`` and PyYAML first on PATH)."""
    (tmp_path / "static-resources").mkdir()
    (tmp_path / "static-resources" / "all.yaml").write_text(yaml.safe_dump_all(manifests))
    script = tmp_path / "fetch.sh"
    script.write_text(render(intent, "opa-static").files["fetch.sh"])
    python_dir = tmp_path / "bin"
    python_dir.mkdir()
    (python_dir / "python3").symlink_to(sys.executable)
    env = {**os.environ, "PATH": f"{python_dir}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["bash", str(script)], cwd=tmp_path, env=env, check=True)
    return json.loads((tmp_path / "collected_data.json").read_text())["items"]


def test_a_manifest_without_namespace_is_read_as_living_in_default(tmp_path: Path) -> None:
    intent = intent_of(DEFAULT_NS_TEXT)
    container = {"containers": [{"name": "a", "image": "x"}]}
    manifests = [
        pod_carrier("CronJob", "applied-without-n", container, namespace=""),
        pod_carrier("Deployment", "placed", container, "payments"),
    ]
    items = _fetched(intent, manifests, tmp_path)
    assert {i["metadata"]["name"]: i["metadata"]["namespace"] for i in items} == {
        "applied-without-n": "default",
        "placed": "payments",
    }
    assert rego_flags(intent, items, "opa-static") == {"applied-without-n"}


# ---- roles set apart by a bare name ------------------------------------------------------------

WILDCARD_TEXT = (
    'No Role or ClusterRole may use "*" among its verbs or its resources. Built-in roles '
    "(system:*) as well as cluster-admin and platform-breakglass are out of scope; so is the "
    "kube-system namespace."
)


def test_roles_set_apart_by_a_bare_name_are_exempt() -> None:
    intent = intent_of(WILDCARD_TEXT)
    assert intent.scope.exempt_builtin_rbac
    assert set(intent.scope.exempt_role_names) == {"cluster-admin", "platform-breakglass"}
    every = [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]
    objects = [
        role("ClusterRole", "cluster-admin", every),
        role("ClusterRole", "platform-breakglass", every),
        role("ClusterRole", "system:controller:cleaner", every),
        role(
            "ClusterRole",
            "release-bot",
            [
                {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]},
                {"apiGroups": ["apps"], "resources": ["*"], "verbs": ["get"]},
            ],
        ),  # fmt: skip
        role(
            "Role",
            "viewer",
            [{"apiGroups": [""], "resources": ["pods"], "verbs": ["list"]}],
            "shop",
        ),  # fmt: skip
    ]
    assert_every_class(intent, objects, {"release-bot"})


# ---- load-balancer ranges open to the whole internet, said in words ----------------------------

LB_TEXT = (
    "Public load balancers must be fenced: every Service of type LoadBalancer lists "
    "loadBalancerSourceRanges, and none of those ranges may open it to the whole internet."
)


def _service(name: str, service_type: str, ranges: list[str] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"type": service_type, "ports": [{"port": 443}]}
    if ranges is not None:
        spec["loadBalancerSourceRanges"] = ranges
    return api_object("v1", "Service", name, "edge", spec=spec)


def test_load_balancer_open_to_the_internet_in_words() -> None:
    intent = intent_of(LB_TEXT)
    assert intent.checks == (LoadBalancerSourcesCheck(allowed=()),)
    objects = [
        _service("no-ranges", "LoadBalancer"),
        _service("v4-open-second", "LoadBalancer", ["172.16.0.0/12", "0.0.0.0/0"]),
        _service("v6-open", "LoadBalancer", ["2001:db8::/32", "::/0"]),
        _service("fenced", "LoadBalancer", ["10.20.0.0/16", "2001:db8:1::/48"]),
        _service("internal", "ClusterIP"),
    ]
    assert_every_class(intent, objects, {"no-ranges", "v4-open-second", "v6-open"})


# ---- bindings to callers without credentials, the built-in one accepted --------------------------

ANONYMOUS_TEXT = (
    "Nothing in the cluster's RBAC may grant rights to callers who present no credentials. The "
    "binding system:public-info-viewer, which Kubernetes creates itself, is allowed."
)


def _binding(kind: str, name: str, subjects: list[dict[str, str]], namespace: str = "") -> dict:
    return api_object(
        "rbac.authorization.k8s.io/v1", kind, name, namespace, subjects=subjects,
        roleRef={"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
    )  # fmt: skip


def test_bindings_to_callers_without_credentials_by_effect() -> None:
    intent = intent_of(ANONYMOUS_TEXT)
    assert {
        (c.subject_kind, c.subject_name) for c in intent.checks if isinstance(c, BindingCheck)
    } == {
        ("User", "system:anonymous"),
        ("Group", "system:unauthenticated"),
    }
    group = "rbac.authorization.k8s.io"
    sa = {"kind": "ServiceAccount", "name": "anonymous", "namespace": "tools"}
    objects = [
        _binding(
            "ClusterRoleBinding",
            "open-dashboard",
            [
                {"kind": "ServiceAccount", "name": "ui", "namespace": "tools"},
                {"kind": "User", "name": "system:anonymous", "apiGroup": group},
            ],
        ),  # fmt: skip
        _binding(
            "RoleBinding",
            "status-page",
            [{"kind": "Group", "name": "system:unauthenticated", "apiGroup": group}],
            "tools",
        ),  # fmt: skip
        _binding(
            "ClusterRoleBinding",
            "system:public-info-viewer",
            [{"kind": "Group", "name": "system:unauthenticated", "apiGroup": group}],
        ),  # fmt: skip
        _binding("RoleBinding", "named-anonymous", [sa], "tools"),
        _binding(
            "ClusterRoleBinding",
            "signed-in",
            [{"kind": "Group", "name": "system:authenticated", "apiGroup": group}],
        ),  # fmt: skip
    ]
    assert_every_class(intent, objects, {"open-dashboard", "status-page"})
