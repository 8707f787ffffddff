"""Kubernetes controls stated by their EFFECT (no field named): the baseline reads which field
produces the effect, its polarity, the API default of an unset value and every place it occurs.
Every requirement and object here is written for this test; the rendered policies are judged by
the real engines (the Kyverno scanner, Rego for opa-static)."""

from __future__ import annotations

from typing import Any

from ciso.agents.baseline.effect_checks import (
    ImagePullPolicyCheck,
    IngressNamedHostsCheck,
    LoadBalancerSourcesCheck,
)
from ciso.agents.baseline.intent import FieldValueCheck, Intent, RbacRuleCheck
from tests._support.ciso_baseline import intent_of, kyverno_flags, rego_flags, role


def _both(intent: Intent, objects: list[dict]) -> tuple[set[str], set[str]]:
    # the scanner also judges the pods a controller would create: only the objects themselves
    names = {o["metadata"]["name"] for o in objects}
    return kyverno_flags(intent, objects) & names, rego_flags(intent, objects, "opa-static")


def _meta(name: str, namespace: str = "") -> dict[str, str]:
    return {"name": name, **({"namespace": namespace} if namespace else {})}


def _carrier(kind: str, name: str, spec: dict[str, Any]) -> dict:
    meta = _meta(name, "team")
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    template = {"metadata": {"labels": {"app": name}}, "spec": spec}
    if kind == "CronJob":
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta,
                "spec": {"schedule": "0 3 * * *", "jobTemplate": {"spec": {"template": template}}}}  # fmt: skip
    if kind == "Job":
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta,
                "spec": {"template": template}}  # fmt: skip
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta,
            "spec": {"selector": {"matchLabels": {"app": name}}, "template": template}}  # fmt: skip


def _c(name: str = "app", image: str = "registry.corp/app:2.3", **fields: Any) -> dict[str, Any]:
    return {"name": name, "image": image, **fields}


def _spec(*containers: dict, **extra: Any) -> dict[str, Any]:
    return {"containers": list(containers) or [_c()], **extra}


# ---- pod and container fields ---------------------------------------------------------------


def test_a_pod_whose_containers_share_one_process_table() -> None:
    intent = intent_of(
        "A sidecar must never be able to kill or trace each other's processes in the same pod; "
        "each container has its own process view, in every kind of workload."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert (check.paths, check.forbidden) == ((("shareProcessNamespace",),), (True,))
    objects = [
        _carrier("StatefulSet", "shared", _spec(shareProcessNamespace=True)),
        _carrier("CronJob", "nightly", _spec(shareProcessNamespace=True)),
        # near misses: explicitly false, and the node's process table (another control)
        _carrier("Deployment", "private", _spec(shareProcessNamespace=False)),
        _carrier("Pod", "node-view", _spec(hostPID=True)),
    ]
    assert _both(intent, objects) == ({"shared", "nightly"}, {"shared", "nightly"})


def test_a_hard_cap_on_node_scratch_space_for_regular_and_init_containers() -> None:
    intent = intent_of(
        "Runaway logs or temp files must not exhaust the local disk of a node: every container "
        "and init container needs a limit on its ephemeral storage (a request alone does not "
        "limit anything). Ephemeral containers cannot be given resources and are out of scope."
    )
    assert "ephemeralContainers" not in intent.scope.container_lists
    capped = {"limits": {"ephemeral-storage": "2Gi"}}
    objects = [
        _carrier("Job", "requested-only", _spec(
            _c(resources={"requests": {"ephemeral-storage": "1Gi"}}))),
        _carrier("Deployment", "init-uncapped", _spec(
            _c(resources=capped), initContainers=[_c("init")])),
        # near misses: capped everywhere; a debug container that cannot carry resources
        _carrier("Pod", "capped", _spec(_c(resources=capped), ephemeralContainers=[_c("dbg")])),
    ]  # fmt: skip
    expected = {"requested-only", "init-uncapped"}
    assert _both(intent, objects) == (expected, expected)


def test_baseline_seccomp_unconfined_anywhere_but_unset_allowed() -> None:
    intent = intent_of(
        "Under the Baseline level of the Pod Security Standards, no pod or container may turn "
        "seccomp off by asking for the Unconfined profile; leaving the profile unset is allowed."
    )
    unconfined = {"seccompProfile": {"type": "Unconfined"}}
    objects = [
        _carrier("DaemonSet", "pod-level", _spec(securityContext=unconfined)),
        _carrier("Pod", "init-level", _spec(initContainers=[_c("i", securityContext=unconfined)])),
        # near misses: unset, RuntimeDefault, a Localhost profile
        _carrier("Deployment", "unset", _spec()),
        _carrier("Deployment", "runtime", _spec(securityContext={
            "seccompProfile": {"type": "RuntimeDefault"}})),
        _carrier("Pod", "local", _spec(_c(securityContext={
            "seccompProfile": {"type": "Localhost", "localhostProfile": "unconfined.json"}}))),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"pod-level", "init-level"}, {"pod-level", "init-level"})


def test_added_capabilities_outside_an_allow_list_in_any_spelling() -> None:
    intent = intent_of(
        "Workloads may add only the following capabilities: CHOWN, KILL and NET_BIND_SERVICE. "
        "The CAP_ prefix and letter case do not matter; dropping is always fine."
    )

    def caps(*add: str) -> dict:  # fmt: skip
        return {"capabilities": {"add": list(add), "drop": ["SYS_ADMIN"]}}

    objects = [
        _carrier("Deployment", "raw-net", _spec(_c(securityContext=caps("NET_BIND_SERVICE", "NET_RAW")))),
        _carrier("Pod", "lower", _spec(_c(), _c("b", securityContext=caps("cap_sys_time")))),
        # near misses: listed ones in other spellings, and a drop of a forbidden one
        _carrier("Deployment", "spelled", _spec(_c(securityContext=caps("cap_chown", "Kill")))),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"raw-net", "lower"}, {"raw-net", "lower"})


def test_node_ports_of_containers_within_an_inclusive_window() -> None:
    intent = intent_of(
        "A container may take a port on the node only from 30500 to 30502, both ends included; "
        "ports only inside the pod do not count."
    )

    def port(container: int, host: int | None = None) -> dict:  # fmt: skip
        return {"containerPort": container, **({"hostPort": host} if host is not None else {})}

    objects = [
        _carrier("DaemonSet", "second-port", _spec(_c(ports=[port(80, 30500), port(81, 30503)]))),
        _carrier("CronJob", "low", _spec(_c(ports=[port(80, 8080)]))),
        # near misses: both ends of the window, no host port, an explicit 0
        _carrier("Deployment", "edges", _spec(_c(ports=[port(1, 30500), port(2, 30502)]))),
        _carrier("Pod", "inside", _spec(_c(ports=[port(9999)]), _c("z", ports=[port(5, 0)]))),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"second-port", "low"}, {"second-port", "low"})


def test_an_image_checked_with_the_registry_at_every_start_and_the_tag_default() -> None:
    intent = intent_of(
        "Cached images must never be reused: every container, debug and init ones too, has to "
        "pull its image every time it starts. When no pull policy is written, the kubelet pulls "
        "only for the latest tag or an untagged image."
    )
    assert intent.checks == (ImagePullPolicyCheck(),)
    objects = [
        _carrier("Deployment", "tagged", _spec(_c(image="registry.corp/app:2.3"))),
        _carrier("Pod", "explicit", _spec(_c(image="app", imagePullPolicy="IfNotPresent"))),
        _carrier("CronJob", "init", _spec(_c(imagePullPolicy="Always"), initContainers=[
            _c("i", image="registry.corp/tool@sha256:" + "a" * 64)])),
        # near misses: latest, untagged behind a registry port, and an explicit Always
        _carrier("Deployment", "defaults", _spec(_c(image="nginx:latest"),
                                                 _c("b", image="registry:5000/team/tool"))),
        _carrier("Pod", "always", _spec(_c(imagePullPolicy="Always"))),
    ]  # fmt: skip
    expected = {"tagged", "explicit", "init"}
    assert _both(intent, objects) == (expected, expected)


# ---- objects that are not pods --------------------------------------------------------------


def _pdb(name: str, **spec: Any) -> dict:
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": _meta(name, "team"), "spec": spec}  # fmt: skip


def test_disruption_budgets_that_let_no_eviction_through() -> None:
    intent = intent_of(
        "A node drain must always be able to evict something: no PodDisruptionBudget may keep "
        "every pod available (minAvailable 100%) or allow none unavailable, as 0 or 0%."
    )
    objects = [
        _pdb("zero", maxUnavailable=0),
        _pdb("zero-pct", maxUnavailable="0%"),
        _pdb("all", minAvailable="100%"),
        # near misses: a share, a count, one unavailable
        _pdb("share", minAvailable="60%"),
        _pdb("count", minAvailable=2),
        _pdb("one", maxUnavailable=1),
    ]
    expected = {"zero", "zero-pct", "all"}
    assert _both(intent, objects) == (expected, expected)


def _namespace(
    name: str, labels: dict[str, str], annotations: dict[str, str] | None = None
) -> dict:
    meta: dict[str, Any] = {"name": name, "labels": labels}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta}


def test_namespaces_must_carry_an_owner_and_a_tier_from_a_list() -> None:
    intent = intent_of(
        "Every namespace must carry a label team naming who runs it (not empty) and a label "
        "tier whose value is one of gold, silver or bronze. Annotations do not count; "
        "kube-system, kube-public and kube-node-lease are exempt."
    )
    objects = [
        _namespace("no-team", {"tier": "gold"}, {"team": "payments"}),
        _namespace("empty-team", {"team": "", "tier": "gold"}),
        _namespace("odd-tier", {"team": "ml", "tier": "platinum"}),
        # near misses: both labels right, a system namespace without labels
        _namespace("fine", {"team": "ml", "tier": "bronze"}),
        _namespace("kube-system", {}),
    ]
    expected = {"no-team", "empty-team", "odd-tier"}
    assert _both(intent, objects) == (expected, expected)


def _service(name: str, annotations: dict[str, str] | None = None, **spec: Any) -> dict:
    meta: dict[str, Any] = {**_meta(name, "edge"), "annotations": annotations or {}}
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta,
            "spec": {"ports": [{"port": 443}], **spec}}  # fmt: skip


def test_load_balancers_open_only_to_listed_address_ranges() -> None:
    intent = intent_of(
        "A cloud load balancer may only be reachable from our offices, 192.168.0.0/16 and "
        "100.64.0.0/10: every source range a LoadBalancer Service allows has to lie inside them. "
        "The service.beta.kubernetes.io/load-balancer-source-ranges annotation counts only "
        "when the field is empty; with no range at all anyone can connect."
    )
    (check,) = intent.checks
    assert isinstance(check, LoadBalancerSourcesCheck)
    assert check.allowed == ("192.168.0.0/16", "100.64.0.0/10")
    lb = {"type": "LoadBalancer"}
    key = "service.beta.kubernetes.io/load-balancer-source-ranges"
    objects = [
        _service("open", **lb),
        _service("wide", **lb, loadBalancerSourceRanges=["192.168.4.0/24", "100.128.0.0/16"]),
        _service("by-annotation", {key: "192.168.1.0/24, 0.0.0.0/0"}, **lb),
        # near misses: inside the space, the field beating an open annotation, not a balancer
        _service("office", **lb, loadBalancerSourceRanges=["100.64.8.0/21"]),
        _service("field-wins", {key: "0.0.0.0/0"}, **lb, loadBalancerSourceRanges=["192.168.0.0/17"]),
        _service("internal", type="ClusterIP"),
    ]  # fmt: skip
    expected = {"open", "wide", "by-annotation"}
    assert _both(intent, objects) == (expected, expected)


def _ingress(name: str, annotations: dict[str, str] | None = None, **spec: Any) -> dict:
    meta: dict[str, Any] = {**_meta(name, "web"), "annotations": annotations or {}}
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta,
            "spec": spec}  # fmt: skip


def test_ingresses_answer_only_for_host_names_written_out_in_full() -> None:
    intent = intent_of(
        "No Ingress may act as a catch-all: every routing rule names one host written out in "
        "full (no wildcard host), and no default backend may take the rest. TLS is not "
        "part of this."
    )
    assert intent.checks == (IngressNamedHostsCheck(),)
    backend = {"service": {"name": "web", "port": {"number": 80}}}
    objects = [
        _ingress("star", rules=[{"host": "shop.corp.example"}, {"host": "*.corp.example"}]),
        _ingress("hostless", rules=[{"http": {"paths": []}}]),
        _ingress("fallback", defaultBackend=backend, rules=[{"host": "a.corp.example"}]),
        # near misses: named hosts with a wildcard only in TLS, a host called wildcard
        _ingress("named", rules=[{"host": "b.corp.example"}], tls=[{"hosts": ["*.corp.example"]}]),
        _ingress("wildcard-name", rules=[{"host": "wildcard.corp.example"}]),
    ]  # fmt: skip
    expected = {"star", "hostless", "fallback"}
    assert _both(intent, objects) == (expected, expected)


def test_raw_proxy_configuration_through_ingress_snippet_annotations() -> None:
    intent = intent_of(
        "Ingress objects must not inject raw nginx configuration: no snippet annotation of "
        "either nginx controller is allowed. Other annotations are fine."
    )
    objects = [
        _ingress("server", {"nginx.ingress.kubernetes.io/server-snippet": "return 200;"}),
        _ingress("inc", {"nginx.org/server-snippets": "deny all;"}),
        # near misses: an ordinary annotation, a key that only mentions snippets
        _ingress("timeout", {"nginx.ingress.kubernetes.io/proxy-read-timeout": "60"}),
        _ingress("owner", {"corp.example/snippet-owner": "web"}),
    ]
    assert _both(intent, objects) == ({"server", "inc"}, {"server", "inc"})


# ---- RBAC on subresources and on RBAC and Node objects ---------------------------------------


def test_who_may_attach_debug_containers_to_running_pods() -> None:
    intent = intent_of(
        "Attaching an ephemeral debug container to a running pod is reserved: the "
        "incident-responders ClusterRole may do it, and no other Role or ClusterRole may. "
        "Reading a pod's ephemeral containers is fine."
    )
    (check,) = intent.checks
    assert isinstance(check, RbacRuleCheck)
    assert intent.scope.exempt_role_names == ("incident-responders",)
    ephemeral = {"apiGroups": [""], "resources": ["pods/ephemeralcontainers"]}
    objects = [
        role("ClusterRole", "incident-responders", [{**ephemeral, "verbs": ["patch"]}]),
        role("ClusterRole", "devs", [{**ephemeral, "verbs": ["update"]}]),
        role("Role", "any-sub", [{"apiGroups": [""], "resources": ["pods/*"], "verbs": ["*"]}], "t"),
        # near misses: reading them, every verb on pods itself, exec
        role("ClusterRole", "viewer", [{**ephemeral, "verbs": ["get", "list"]}]),
        role("Role", "pods-only", [{"apiGroups": [""], "resources": ["pods"], "verbs": ["*"]}], "t"),
        role("Role", "exec", [{"apiGroups": [""], "resources": ["pods/exec"], "verbs": ["create"]}], "t"),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"devs", "any-sub"}, {"devs", "any-sub"})


def test_who_may_change_rbac_itself() -> None:
    intent = intent_of(
        "Only the access-admins ClusterRole may create, edit or remove Roles, ClusterRoles, "
        "RoleBindings and ClusterRoleBindings; any other role may at most read them."
    )
    rbac = "rbac.authorization.k8s.io"
    objects = [
        role("ClusterRole", "access-admins", [{"apiGroups": [rbac], "resources": ["*"], "verbs": ["*"]}]),
        role("ClusterRole", "binder", [{"apiGroups": [rbac], "resources": ["rolebindings"], "verbs": ["create"]}]),
        role("Role", "everything", [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["delete"]}], "t"),
        # near misses: read access, writes in another group
        role("ClusterRole", "auditor", [{"apiGroups": [rbac], "resources": ["roles"], "verbs": ["list"]}]),
        role("ClusterRole", "reviews", [{"apiGroups": ["authorization.k8s.io"],
                                         "resources": ["subjectaccessreviews"], "verbs": ["create"]}]),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"binder", "everything"}, {"binder", "everything"})


def test_who_may_cordon_taint_or_change_node_status() -> None:
    intent = intent_of(
        "Cordoning or tainting a node, or changing its status, is the job of the fleet-manager "
        "ClusterRole only; no other Role or ClusterRole may do more than read Node objects."
    )
    objects = [
        role("ClusterRole", "fleet-manager", [{"apiGroups": [""], "resources": ["nodes"], "verbs": ["patch"]}]),
        role("ClusterRole", "status-writer", [{"apiGroups": [""], "resources": ["nodes/status"], "verbs": ["update"]}]),
        role("ClusterRole", "tainter", [{"apiGroups": [""], "resources": ["nodes"], "verbs": ["patch"]}]),
        # near misses: read, the kubelet proxy, CSINode objects
        role("ClusterRole", "reader", [{"apiGroups": [""], "resources": ["nodes"], "verbs": ["get", "watch"]}]),
        role("ClusterRole", "proxy", [{"apiGroups": [""], "resources": ["nodes/proxy"], "verbs": ["get"]}]),
        role("ClusterRole", "csi", [{"apiGroups": ["storage.k8s.io"], "resources": ["csinodes"], "verbs": ["update"]}]),
    ]  # fmt: skip
    expected = {"status-writer", "tainter"}
    assert _both(intent, objects) == (expected, expected)


# ---- Pod Security Standards and the rest, stated by effect ------------------------------------


def test_restricted_volume_types_by_the_key_beside_the_name() -> None:
    intent = intent_of(
        "Pods may only use volumes of the following kinds: configMap, secret, emptyDir, "
        "projected, downwardAPI and persistentVolumeClaim."
    )

    def vol(name: str, **source: Any) -> dict:  # fmt: skip
        return {"name": name, **source}

    objects = [
        _carrier("Deployment", "nfs", _spec(volumes=[vol("cfg", configMap={"name": "c"}),
                                                     vol("share", nfs={"server": "n", "path": "/x"})])),
        _carrier("Pod", "git", _spec(volumes=[vol("src", gitRepo={"repository": "r"})])),
        # near misses: the listed kinds, and no volumes at all
        _carrier("Deployment", "fine", _spec(volumes=[vol("t", emptyDir={}),
                                                      vol("d", persistentVolumeClaim={"claimName": "x"})])),
        _carrier("Pod", "bare", _spec()),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"nfs", "git"}, {"nfs", "git"})


def test_every_host_namespace_a_text_describes() -> None:
    intent = intent_of(
        "Pods must not share the node's network stack, its process table or its IPC namespace."
    )
    assert {f for c in intent.checks if (f := getattr(c, "field", None))} == {
        "hostNetwork", "hostPID", "hostIPC"}  # fmt: skip
    objects = [
        _carrier("DaemonSet", "net", _spec(hostNetwork=True)),
        _carrier("Pod", "pid", _spec(hostPID=True)),
        _carrier("CronJob", "ipc", _spec(hostIPC=True)),
        _carrier("Deployment", "own", _spec(hostNetwork=False, shareProcessNamespace=True)),
    ]
    expected = {"net", "pid", "ipc"}
    assert _both(intent, objects) == (expected, expected)


def test_images_must_name_a_fixed_version() -> None:
    intent = intent_of(
        "Nothing may be deployed from a moving target: an image with the latest tag or with no "
        "tag at all is not allowed."
    )
    objects = [
        _carrier("Deployment", "latest", _spec(_c(image="registry.corp/app:latest"))),
        _carrier("Pod", "untagged", _spec(_c(), initContainers=[_c("i", image="registry:5000/x")])),
        # near misses: a version tag, a digest
        _carrier("Deployment", "pinned", _spec(_c(image="app:1.2"),
                                               _c("d", image="app@sha256:" + "b" * 64))),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"latest", "untagged"}, {"latest", "untagged"})


def test_memory_and_cpu_a_container_must_declare() -> None:
    intent = intent_of(
        "The scheduler has to know how much memory and CPU each container needs: every "
        "container must reserve both."
    )
    assert {getattr(c, "path", None) for c in intent.checks} == {
        ("resources", "requests", "memory"), ("resources", "requests", "cpu")}  # fmt: skip
    both = {"requests": {"memory": "64Mi", "cpu": "100m"}}
    objects = [
        _carrier("Deployment", "no-cpu", _spec(_c(resources={"requests": {"memory": "1Gi"}}))),
        _carrier("Pod", "limits-only", _spec(_c(resources={"limits": {"memory": "1Gi", "cpu": 1}}))),
        _carrier("Deployment", "reserved", _spec(_c(resources=both))),
    ]  # fmt: skip
    expected = {"no-cpu", "limits-only"}
    assert _both(intent, objects) == (expected, expected)


def test_port_forwarding_and_attaching_reserved_to_one_role() -> None:
    intent = intent_of(
        "Nobody but the on-call-sre ClusterRole may forward local ports into pods or attach to "
        "a running container."
    )
    assert intent.scope.exempt_role_names == ("on-call-sre",)

    def sub(name: str, resource: str, kind: str = "ClusterRole") -> dict:  # fmt: skip
        return role(kind, name, [{"apiGroups": [""], "resources": [resource], "verbs": ["create"]}],
                    "t" if kind == "Role" else "")  # fmt: skip

    objects = [
        sub("on-call-sre", "pods/portforward"),
        sub("tunnel", "pods/portforward"),
        sub("attacher", "pods/attach", "Role"),
        # near miss: logs
        role(
            "ClusterRole",
            "logs",
            [{"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]}],
        ),
    ]
    assert _both(intent, objects) == ({"tunnel", "attacher"}, {"tunnel", "attacher"})


def test_capabilities_forbidden_by_what_they_let_a_process_do() -> None:
    intent = intent_of(
        "No container may be able to set the system clock or load kernel modules into the node."
    )

    def add(*caps: str) -> dict:  # fmt: skip
        return {"capabilities": {"add": list(caps)}}

    objects = [
        _carrier("DaemonSet", "clock", _spec(_c(securityContext=add("SYS_TIME")))),
        _carrier("Pod", "modules", _spec(_c(), _c("b", securityContext=add("cap_sys_module")))),
        _carrier("Deployment", "all", _spec(initContainers=[_c("i", securityContext=add("ALL"))])),
        # near misses: other capabilities, and dropping the forbidden ones
        _carrier("Deployment", "other", _spec(_c(securityContext={
            "capabilities": {"add": ["NET_BIND_SERVICE"], "drop": ["SYS_TIME", "SYS_MODULE"]}}))),
    ]  # fmt: skip
    expected = {"clock", "modules", "all"}
    assert _both(intent, objects) == (expected, expected)


def test_acting_as_someone_else_stated_without_the_verb() -> None:
    intent = intent_of(
        "No Role or ClusterRole may let its holder act as another user, group or service "
        "account, except the sso-bridge ClusterRole."
    )
    assert intent.scope.exempt_role_names == ("sso-bridge",)

    def imp(name: str, resources: list[str], verbs: list[str]) -> dict:  # fmt: skip
        return role(
            "ClusterRole", name, [{"apiGroups": [""], "resources": resources, "verbs": verbs}]
        )

    objects = [
        imp("sso-bridge", ["users"], ["impersonate"]),
        imp("su", ["serviceaccounts"], ["impersonate"]),
        imp("god", ["*"], ["*"]),
        # near misses: reading service accounts, impersonation in another group
        imp("sa-reader", ["serviceaccounts"], ["get", "list"]),
        role("ClusterRole", "other-group", [{"apiGroups": ["example.io"], "resources": ["users"],
                                             "verbs": ["impersonate"]}]),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"su", "god"}, {"su", "god"})
