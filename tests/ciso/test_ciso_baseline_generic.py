"""The generic reading: controls no concept of the baseline was written for, read from general
knowledge of the Kubernetes API (RBAC verbs on any resource, binding subjects, schema fields
wherever they occur) and of RHEL 9 configuration families (sysctl keys, login.defs items,
pwquality options). Every requirement and object here is written for this test; the rendered
policies are judged by the real engines (Kyverno scanner, Rego, the rhel9 class in the sandbox).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ciso.agents.baseline.intent import (
    BindingCheck,
    ConfigSetting,
    FieldValueCheck,
    Intent,
    ModuleDisabledCheck,
    RbacRuleCheck,
)
from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import (
    intent_of,
    judged_hosts,
    kyverno_flags,
    rego_flags,
    role,
)


def _both(intent: Intent, objects: list[dict]) -> tuple[set[str], set[str]]:
    # the scanner also judges the pods a controller would create: only the objects themselves
    names = {o["metadata"]["name"] for o in objects}
    return kyverno_flags(intent, objects) & names, rego_flags(intent, objects, "opa-static")


def _meta(name: str, namespace: str = "") -> dict[str, str]:
    return {"name": name, **({"namespace": namespace} if namespace else {})}


# ---- RBAC: verbs on any resource the text names ------------------------------------------------


QUOTA_TEXT = (
    "Resource quotas cap what a team may consume, so only our finops-admin ClusterRole may "
    "create, change or delete ResourceQuota objects; any other Role or ClusterRole may at most "
    "read them. Roles that Kubernetes ships (names starting with system:) are out of scope."
)


def test_write_verbs_on_a_resource_no_concept_names() -> None:
    intent = intent_of(QUOTA_TEXT)
    (check,) = intent.checks
    assert isinstance(check, RbacRuleCheck)
    assert check.resources == ("resourcequotas",)
    assert set(check.verbs) == {"create", "update", "patch", "delete", "deletecollection"}
    assert intent.scope.exempt_role_names == ("finops-admin",)
    assert intent.scope.exempt_builtin_rbac
    quota = {"apiGroups": [""], "resources": ["resourcequotas"]}
    objects = [
        role("ClusterRole", "finops-admin", [{**quota, "verbs": ["*"]}]),
        # patch in the second rule; every verb on every core resource of one namespace
        role("ClusterRole", "team-lead", [
            {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["get"]},
            {**quota, "verbs": ["get", "patch"]}]),
        role("Role", "ns-owner", [{"apiGroups": [""], "resources": ["*"], "verbs": ["*"]}], "t1"),
        # near misses: reading quotas, writing limit ranges, a quota of another API group
        role("ClusterRole", "viewer", [{**quota, "verbs": ["get", "list", "watch"]}]),
        role("Role", "limits", [
            {"apiGroups": [""], "resources": ["limitranges"], "verbs": ["delete"]}], "t1"),
        role("ClusterRole", "other-quotas", [
            {"apiGroups": ["example.io"], "resources": ["resourcequotas"], "verbs": ["create"]}]),
        role("ClusterRole", "system:controller:quota", [{**quota, "verbs": ["update"]}]),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"team-lead", "ns-owner"}, {"team-lead", "ns-owner"})


def test_one_delete_verb_stated_by_its_effect() -> None:
    intent = intent_of(
        "Removing a PersistentVolumeClaim throws its data away. No Role or ClusterRole may let "
        "anyone remove one."
    )
    (check,) = intent.checks
    assert isinstance(check, RbacRuleCheck)
    assert (check.resources, set(check.verbs)) == (
        ("persistentvolumeclaims",),
        {"delete", "deletecollection"},
    )
    claims = {"apiGroups": [""], "resources": ["persistentvolumeclaims"]}
    objects = [
        role("Role", "janitor", [{**claims, "verbs": ["deletecollection"]}], "db"),
        role("Role", "grower", [{**claims, "verbs": ["patch", "update"]}], "db"),
    ]
    assert _both(intent, objects) == ({"janitor"}, {"janitor"})


def test_a_subresource_named_in_words_and_the_holder_named_after_but() -> None:
    intent = intent_of("Nobody but the log-reader ClusterRole may read pod logs.")
    (check,) = intent.checks
    assert isinstance(check, RbacRuleCheck)
    assert check.resources == ("pods/log",)
    assert intent.scope.exempt_role_names == ("log-reader",)
    logs = {"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]}
    objects = [
        role("ClusterRole", "log-reader", [logs]),
        role("Role", "debugger", [logs], "app"),
        role("Role", "all-subresources", [
            {"apiGroups": [""], "resources": ["*/log"], "verbs": ["list"]}], "app"),
        # near miss: the pods themselves
        role("Role", "pod-viewer", [
            {"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}], "app"),
    ]  # fmt: skip
    expected = {"debugger", "all-subresources"}
    assert _both(intent, objects) == (expected, expected)


def test_approving_a_csr_by_patch_counts_like_update() -> None:
    # the approval subresource takes a PUT or a PATCH: either approves the request
    intent = intent_of(
        "Approving certificate signing requests is reserved: no Role or ClusterRole may allow it."
    )
    approval = {"apiGroups": ["certificates.k8s.io"]}
    objects = [
        role("ClusterRole", "patcher", [
            {**approval, "resources": ["certificatesigningrequests/approval"], "verbs": ["patch"]}]),
        # near miss: writes on the requests themselves, not their approval
        role("ClusterRole", "janitor", [
            {**approval, "resources": ["certificatesigningrequests"],
             "verbs": ["update", "patch", "delete"]}]),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"patcher"}, {"patcher"})


# ---- bindings: requests without credentials ----------------------------------------------------


def _binding(kind: str, name: str, subjects: list[tuple[str, str]], namespace: str = "") -> dict:
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind,
            "metadata": _meta(name, namespace),
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                        "name": "view"},
            "subjects": [{"kind": k, "name": n, **({"namespace": "ci"} if k == "ServiceAccount"
                                                  else {})} for k, n in subjects]}  # fmt: skip


def test_nothing_bound_to_callers_who_did_not_authenticate() -> None:
    intent = intent_of(
        "Callers that did not authenticate must not be granted any role through our bindings. "
        "Bindings Kubernetes creates itself (names starting with system:) are out of scope."
    )
    assert {
        (c.subject_kind, c.subject_name) for c in intent.checks if isinstance(c, BindingCheck)
    } == {
        ("User", "system:anonymous"),
        ("Group", "system:unauthenticated"),
    }
    objects = [
        # the second subject is the finding
        _binding("RoleBinding", "docs", [("Group", "readers"),
                                          ("Group", "system:unauthenticated")], "docs"),
        _binding("ClusterRoleBinding", "health", [("User", "system:anonymous")]),
        # near misses: authenticated users, an account named anonymous, a built-in binding
        _binding("ClusterRoleBinding", "everyone", [("Group", "system:authenticated")]),
        _binding("RoleBinding", "bot", [("ServiceAccount", "anonymous")], "ci"),
        _binding("ClusterRoleBinding", "system:public-info-viewer",
                 [("Group", "system:unauthenticated")]),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"docs", "health"}, {"docs", "health"})


# ---- fields of the schema, wherever they occur --------------------------------------------------


def _pod_carrier(kind: str, name: str, spec: dict[str, Any]) -> dict:
    meta = _meta(name, "app")
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    template = {"metadata": {"labels": {"app": name}}, "spec": spec}
    if kind == "CronJob":
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta,
                "spec": {"schedule": "5 * * * *", "jobTemplate": {"spec": {"template": template}}}}  # fmt: skip
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta,
            "spec": {"selector": {"matchLabels": {"app": name}}, "template": template}}  # fmt: skip


def _spec(pod_security: dict | None = None, **lists: list[dict]) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "main", "image": "registry.example/app:1"}]}
    if pod_security is not None:
        spec["securityContext"] = pod_security
    for name, containers in lists.items():
        spec.setdefault(name, []).extend(containers)
    return spec


def test_the_root_group_in_every_place_a_group_id_can_be_given() -> None:
    intent = intent_of(
        "No process of ours may run with GID 0, neither as its primary group nor among its "
        "supplementary groups, and no volume may be given to group 0 either."
    )
    assert {(c.concept, c.level) for c in intent.checks if isinstance(c, FieldValueCheck)} == {
        ("runasgroup", "pod"),
        ("runasgroup", "container"),
        ("supplementalgroups", "pod"),
        ("fsgroup", "pod"),
    }
    root_init = {"name": "init", "image": "x", "securityContext": {"runAsGroup": 0}}
    objects = [
        _pod_carrier("Deployment", "init-root", _spec({"runAsGroup": 1000},
                                                      initContainers=[root_init])),
        _pod_carrier("CronJob", "extra-root", _spec({"supplementalGroups": [1000, 0]})),
        _pod_carrier("Pod", "volume-root", _spec({"fsGroup": 0})),
        # near misses: other ids, and a 0 that is not a group id
        _pod_carrier("Pod", "fine", _spec({"runAsGroup": 3000, "supplementalGroups": [10]},
                                          containers=[{"name": "s", "image": "x",
                                                       "env": [{"name": "GID", "value": "0"}],
                                                       "securityContext": {"runAsUser": 0}}])),
    ]  # fmt: skip
    expected = {"init-root", "extra-root", "volume-root"}
    assert _both(intent, objects) == (expected, expected)


def test_kernel_parameters_outside_the_list_the_text_allows() -> None:
    intent = intent_of(
        "A pod may tune only these kernel parameters: net.ipv4.tcp_fin_timeout and "
        "kernel.shm_rmid_forced. Any other sysctl is refused."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert set(check.allowed) == {"net.ipv4.tcp_fin_timeout", "kernel.shm_rmid_forced"}

    def sysctls(*names: str) -> dict:
        return {"sysctls": [{"name": n, "value": "1"} for n in names]}

    objects = [
        _pod_carrier("StatefulSet", "tuned", _spec(sysctls("kernel.shm_rmid_forced",
                                                           "net.core.somaxconn"))),
        _pod_carrier("Pod", "allowed", _spec(sysctls("net.ipv4.tcp_fin_timeout"))),
        _pod_carrier("Pod", "none", _spec()),
    ]  # fmt: skip
    assert _both(intent, objects) == ({"tuned"}, {"tuned"})


def test_a_field_spelled_as_the_schema_spells_it_in_every_place_it_occurs() -> None:
    intent = intent_of(
        "Every pod must set hostUsers: false, and every container, init containers included, "
        "must run with imagePullPolicy set to Always."
    )
    assert {(c.concept, c.level, c.allowed, c.must_be_set) for c in intent.checks
            if isinstance(c, FieldValueCheck)} == {
        ("hostusers", "pod", (False,), True),  # unset means the node's users
        ("imagepullpolicy", "container", ("Always",), True),
    }  # fmt: skip
    always = {"name": "main", "image": "x", "imagePullPolicy": "Always"}
    cached_init = {"name": "init", "image": "x", "imagePullPolicy": "IfNotPresent"}
    objects = [
        _pod_carrier("Pod", "node-users", {"containers": [always]}),
        _pod_carrier("CronJob", "cached-init", {"hostUsers": False, "containers": [always],
                                                "initContainers": [cached_init]}),
        _pod_carrier("Pod", "unset-policy", {"hostUsers": False,
                                             "containers": [{"name": "m", "image": "x"}]}),
        _pod_carrier("Pod", "fine", {"hostUsers": False, "containers": [always]}),
    ]  # fmt: skip
    expected = {"node-users", "cached-init", "unset-policy"}
    assert _both(intent, objects) == (expected, expected)


def test_a_field_a_prohibition_names_with_its_value_on_a_cluster_scoped_kind() -> None:
    intent = intent_of("StorageClasses must not set allowVolumeExpansion to true.")
    classes = [
        {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": name},
         "provisioner": "csi.example", **extra}
        for name, extra in (("grows", {"allowVolumeExpansion": True}),
                            ("fixed", {"allowVolumeExpansion": False}), ("plain", {}))
    ]  # fmt: skip
    assert _both(intent, classes) == ({"grows"}, {"grows"})


def test_host_paths_that_reach_the_container_runtime_socket() -> None:
    intent = intent_of(
        "Containers must not be able to reach the container runtime's API socket on the node: a "
        "hostPath onto the socket itself or onto a directory that holds it both count. Other "
        "hostPath volumes are fine."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)

    def mounts(kind: str, name: str, path: str) -> dict:
        volume = {"name": "v", "hostPath": {"path": path}}
        return _pod_carrier(kind, name, {**_spec(), "volumes": [volume]})

    objects = [
        mounts("DaemonSet", "sock", "/var/run/docker.sock"),
        mounts("Pod", "holder", "/run/containerd/"),
        # near misses: a log directory, and a socket path that is not a hostPath
        mounts("Pod", "logs", "/var/lib/containerd-logs"),
        _pod_carrier("Pod", "empty", {**_spec(), "volumes": [{"name": "e", "emptyDir": {}}]}),
    ]
    assert _both(intent, objects) == ({"sock", "holder"}, {"sock", "holder"})
    # without the socket, the text is about every hostPath
    plain = intent_of("No pod may mount a hostPath volume.")
    assert plain.checks[0].kind == "host-path-volume"


def _service(name: str, namespace: str, **spec: Any) -> dict:
    return {"apiVersion": "v1", "kind": "Service", "metadata": _meta(name, namespace),
            "spec": {"ports": [{"port": 80, "name": "nodeport-web"}], **spec}}  # fmt: skip


def test_services_reachable_from_outside_but_for_an_exempt_namespace() -> None:
    intent = intent_of(
        "Except for the edge-gateway namespace, no Service may open ports on the nodes or ask "
        "for a cloud load balancer, and no Service may carry external addresses."
    )
    assert intent.scope.exempt_namespaces == ("edge-gateway",)
    objects = [
        _service("web", "shop", type="NodePort"),
        _service("addr", "shop", type="ClusterIP", externalIPs=["203.0.113.7"]),
        _service("gateway", "edge-gateway", type="LoadBalancer"),
        # near misses: a plain ClusterIP (its port named nodeport-web), an ExternalName
        _service("api", "shop", type="ClusterIP"),
        _service("db", "shop", type="ExternalName", externalName="db.example"),
    ]
    assert _both(intent, objects) == ({"web", "addr"}, {"web", "addr"})


def _ingress(name: str, spec_class: str = "", annotated: str = "") -> dict:
    annotations = {"kubernetes.io/ingress.class": annotated} if annotated else {}
    spec: dict[str, Any] = {"rules": [{"host": f"{name}.corp.example"}]}
    if spec_class:
        spec["ingressClassName"] = spec_class
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
            "metadata": {**_meta(name, "web"), "annotations": annotations}, "spec": spec}  # fmt: skip


def test_the_one_class_an_ingress_may_name_in_the_field_or_the_old_annotation() -> None:
    intent = intent_of(
        "Every Ingress has to be served by the controller whose ingress class is corp-private. "
        "One that asks for another class, in its spec or through the kubernetes.io/ingress.class "
        "annotation, or that gives no class at all, is not permitted."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert (check.allowed, check.must_be_set) == (("corp-private",), True)
    objects = [
        _ingress("canary", spec_class="corp-private-canary"),
        _ingress("legacy", annotated="public"),
        _ingress("bare"),
        # near misses: the allowed class by annotation, and by the field
        _ingress("old-style", annotated="corp-private"),
        _ingress("new-style", spec_class="corp-private"),
    ]
    expected = {"canary", "legacy", "bare"}
    assert _both(intent, objects) == (expected, expected)


def test_stored_service_account_tokens_by_their_secret_type() -> None:
    intent = intent_of(
        "Nobody may keep a long-lived token of a service account in the cluster; pods receive "
        "expiring tokens from the kubelet instead."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert check.forbidden == ("kubernetes.io/service-account-token",)

    def secret(name: str, kind: str) -> dict:
        return {"apiVersion": "v1", "kind": "Secret", "metadata": _meta(name, "ci"),
                "type": kind, "data": {"token": "eA=="}}  # fmt: skip

    objects = [
        secret("ci-credentials", "kubernetes.io/service-account-token"),
        secret("token", "Opaque"),
    ]
    assert _both(intent, objects) == ({"ci-credentials"}, {"ci-credentials"})


# ---- RHEL 9: keys of a known configuration family ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "family", "key", "comparison", "values"),
    [
        ("kernel.dmesg_restrict must be 1 so that unprivileged users cannot read the kernel log.",
         "sysctl", "kernel.dmesg_restrict", "eq", ("1",)),
        ("fs.suid_dumpable must not be 1: core dumps of setuid programs leak memory.",
         "sysctl", "fs.suid_dumpable", "eq", ("0",)),
        ("Hash passwords slowly: SHA_CRYPT_MIN_ROUNDS has to be at least 100000.",
         "login.defs", "SHA_CRYPT_MIN_ROUNDS", "ge", (100000,)),
        ("New passwords need characters of several kinds: minclass must be 3 or more.",
         "pwquality", "minclass", "ge", (3,)),
        ("The SSH daemon must not let clients forward their agent: AllowAgentForwarding must be no.",
         "sshd", "AllowAgentForwarding", "eq", ("no",)),
        # deny = 0 turns pam_faillock's lockout off: "4 or less" is 1 to 4
        ("Accounts are locked out after failed logins: faillock's deny must be 4 or less.",
         "faillock", "deny", "between", (1, 4)),
        ("Keep the journal across reboots: journald's Storage must be persistent.",
         "journald", "Storage", "eq", ("persistent",)),
    ],
)  # fmt: skip
def test_rhel_keys_named_as_their_file_spells_them(
    text: str, family: str, key: str, comparison: str, values: tuple
) -> None:
    (check,) = intent_of(text, "rhel9").checks
    assert isinstance(check, ConfigSetting)
    assert (check.family, check.key, check.comparison, check.values) == (
        family,
        key,
        comparison,
        values,
    )


def test_a_module_named_in_parentheses_after_its_driver() -> None:
    (check,) = intent_of(
        "The FireWire storage driver (firewire-sbp2) must never be loaded: loading it has to run "
        "/bin/false instead.",
        "rhel9",
    ).checks
    assert isinstance(check, ModuleDisabledCheck)
    assert check.module == "firewire-sbp2"


def test_routing_stated_as_packets_passed_between_interfaces() -> None:
    checks = intent_of(
        "No server here may pass packets from one interface to another, for IPv4 and IPv6.",
        "rhel9",
    ).checks
    assert {c.key for c in checks if isinstance(c, ConfigSetting)} == {
        "net.ipv4.ip_forward",
        "net.ipv6.conf.all.forwarding",
    }


@needs_sandbox
@pytest.mark.slow
def test_a_key_of_a_one_file_family_last_value_wins(tmp_path: Path) -> None:
    text = "Accounts are locked out after failed logins: faillock's deny must be 4 or less."
    verdicts = judged_hosts(
        tmp_path,
        text,
        violating={"etc/security/faillock.conf": "deny = 3\n# later wins\ndeny = 10\n"},
        compliant={"etc/security/faillock.conf": "# deny = 10\ndeny=4\n"},
    )
    assert verdicts == {"violating": "false", "compliant": "true"}


@needs_sandbox
@pytest.mark.slow
def test_a_sysctl_key_over_the_drop_ins_systemd_sysctl_reads(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "kernel.dmesg_restrict must be 1 so that unprivileged users cannot read the kernel log.",
        # the vendor file sorts after the local one, so its 0 is the value in force
        violating={"etc/sysctl.d/10-local.conf": "kernel.dmesg_restrict = 1\n",
                   "usr/lib/sysctl.d/50-vendor.conf": "kernel.dmesg_restrict = 0\n"},
        # /etc/sysctl.conf is read last
        compliant={"usr/lib/sysctl.d/50-vendor.conf": "kernel.dmesg_restrict = 0\n",
                   "etc/sysctl.conf": "kernel/dmesg_restrict=1\n"},
    )  # fmt: skip
    assert verdicts == {"violating": "false", "compliant": "true"}
