"""The baseline understands controls it was not written with: requirements stated by effect, the
roles a requirement names as the permitted holders, a resource named only to say it does not
count, a field the text spells beating a mechanism it mentions in passing, and RHEL settings
(sshd sessions, idle clients, banner, ciphers; minimum password age; ICMP redirects). Each
sentence and object here is written for this test (none is a held-out set's or the suite's
phrasing); the rendered policies are judged by the real engines (Kyverno scanner, Rego, and the
rhel9 class through ansible-playbook in the sandbox).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ciso.agents.baseline.intent import (
    ConfigSetting,
    ContainerFieldCheck,
    HostPortCheck,
    RbacRuleCheck,
)
from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import (
    JUDGED,
    intent_of,
    judged_hosts,
    kyverno_flags,
    rego_flags,
    role,
)


def _pod(name: str, security_context: dict[str, Any], init: bool = False) -> dict:
    container = {"name": "c", "image": "x", "securityContext": security_context}
    spec: dict[str, Any] = {"containers": [{"name": "main", "image": "x"}]}
    spec.setdefault("initContainers" if init else "containers", []).append(container)
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "app"},
            "spec": spec}  # fmt: skip


# ---- Kubernetes ------------------------------------------------------------------------------

EXEC_TEXT = (
    "Getting an interactive shell in a pod is reserved to the ClusterRole `incident-access`; "
    "no other role may grant it. Port-forwarding and log reading stay allowed."
)


def test_pod_exec_stated_by_effect_with_the_named_holder_exempt() -> None:
    intent = intent_of(EXEC_TEXT)
    assert intent.checks == (
        RbacRuleCheck(concept="pod-exec", verbs=("create", "get"), resources=("pods/exec",)),
    )
    assert intent.scope.exempt_role_names == ("incident-access",)
    objects = [
        # the named holder: exempt
        role("ClusterRole", "incident-access", [
            {"apiGroups": [""], "resources": ["pods/exec"], "verbs": ["create"]}]),
        # exec in a second rule, and through a core-group wildcard
        role("ClusterRole", "helpdesk", [
            {"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]},
            {"apiGroups": [""], "resources": ["pods/exec"], "verbs": ["get"]}]),
        role("Role", "tinker", [{"apiGroups": [""], "resources": ["*"], "verbs": ["*"]}], "app"),
        # near misses: port-forward and logs
        role("Role", "tunnels", [
            {"apiGroups": [""], "resources": ["pods/portforward", "pods/log"],
             "verbs": ["create", "get"]}], "app"),
    ]  # fmt: skip
    assert kyverno_flags(intent, objects) == {"helpdesk", "tinker"}
    assert rego_flags(intent, objects, "kubectl-opa") == {"helpdesk", "tinker"}


def test_only_wording_exempts_the_named_role_and_the_builtin_ones() -> None:
    intent = intent_of(
        "Only the `webhook-manager` ClusterRole and the system: roles Kubernetes ships may "
        "create or patch admission webhooks."
    )
    assert intent.checks[0].concept == "webhook-configurations"
    assert intent.scope.exempt_builtin_rbac
    assert intent.scope.exempt_role_names == ("webhook-manager",)
    # no exemption wording: a role named in passing is not exempt
    plain = intent_of("The ClusterRole ops-writer must not be able to create persistent volumes.")
    assert plain.scope.exempt_role_names == ()


def test_proc_mount_stated_by_effect_in_every_container_list() -> None:
    intent = intent_of("No container may switch off the runtime's masking of /proc paths.")
    assert intent.checks == (
        ContainerFieldCheck(
            concept="proc-mount", path=("securityContext", "procMount"), forbidden="Unmasked"
        ),
    )
    objects = [
        _pod("unmasked-init", {"procMount": "Unmasked"}, init=True),
        _pod("unmasked", {"procMount": "Unmasked"}),
        _pod("default", {"procMount": "Default"}),
        _pod("unset", {}),
    ]
    assert kyverno_flags(intent, objects) == {"unmasked-init", "unmasked"}
    assert rego_flags(intent, objects, "kubectl-opa") == {"unmasked-init", "unmasked"}


@pytest.mark.parametrize(
    "text",
    [
        "Applications must never write into the container image's own file system; give them an "
        "emptyDir for scratch data.",
        "Containers need an immutable root filesystem.",
    ],
)
def test_read_only_root_filesystem_stated_by_effect(text: str) -> None:
    (check,) = intent_of(text).checks
    assert isinstance(check, ContainerFieldCheck)
    assert check.path == ("securityContext", "readOnlyRootFilesystem")
    assert check.required is True


def test_a_resource_named_only_to_say_it_does_not_count_is_not_asked_for() -> None:
    intent = intent_of(
        "Each container must declare the maximum memory it can consume. Requests are not "
        "enough, and a cpu limit is not what this asks."
    )
    assert [c.path for c in intent.checks] == [("resources", "limits", "memory")]


def test_a_field_spelled_as_the_api_spells_it_beats_a_mechanism_mentioned_in_passing() -> None:
    intent = intent_of(
        "A port opened on the node side-steps every namespace's network policy, so no Pod may set "
        "hostPort."
    )
    assert intent.checks == (HostPortCheck(),)


def test_a_field_named_only_in_the_rationale_does_not_win() -> None:
    # hostPath is why the control exists; creating PersistentVolumes is what it forbids
    intent = intent_of(
        "A PersistentVolume can point at a hostPath on any node. Therefore no ClusterRole may "
        "allow creating persistent volumes."
    )
    assert intent.checks[0].concept == "persistent-volume-creation"
    # the imperative of a check is the requirement proper too
    flagged = intent_of(
        "Node ports side-step the namespace network policy. Flag every container that declares "
        "a hostPort."
    )
    assert flagged.checks == (HostPortCheck(),)


def test_the_default_namespace_quoted() -> None:
    intent = intent_of("Teams must not deploy anything into the 'default' namespace.")
    assert intent.checks[0].concept == "default-namespace"


def _workload(name: str, pod_spec: dict[str, Any], annotations: dict | None = None) -> dict:
    template = {"metadata": {"annotations": annotations or {}}, "spec": pod_spec}
    return {"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": name, "namespace": "app"},
            "spec": {"schedule": "0 * * * *", "jobTemplate": {"spec": {"template": template}}}}  # fmt: skip


def _containers(*images: str, **security: Any) -> dict[str, Any]:
    return {
        "containers": [
            {"name": f"c{i}", "image": image, "securityContext": security}
            for i, image in enumerate(images)
        ]
    }


DIGEST = "@sha256:" + "ab" * 32


def test_images_pinned_by_content_digest() -> None:
    intent = intent_of(
        "Tags can be moved, so every image a pod runs must be referenced by its digest."
    )
    assert [c.kind for c in intent.checks] == ["image-digest"]
    objects = [
        _workload("tag-only", _containers("reg.example/app:1.4.2")),
        _workload("second-unpinned", _containers("reg.example/app" + DIGEST, "busybox:1.36")),
        _workload("pinned", _containers("reg.example/app" + DIGEST)),
        _workload("tag-and-digest", _containers("reg.example/app:1.4.2" + DIGEST)),
    ]
    assert kyverno_flags(intent, objects) == {"tag-only", "second-unpinned"}
    assert rego_flags(intent, objects, "kubectl-opa") == {"tag-only", "second-unpinned"}


def test_selinux_types_named_in_the_text_others_given_as_examples_forbidden() -> None:
    intent = intent_of(
        "Workloads may run only as the SELinux type container_t, or leave the type unset; a "
        "privileged type like spc_t is forbidden."
    )
    (check,) = intent.checks
    assert check.allowed == ("container_t",)
    pod_spc = {"securityContext": {"seLinuxOptions": {"type": "spc_t"}}, **_containers("x")}
    own = _containers("x", seLinuxOptions={"type": "container_t"})
    objects = [
        _workload("pod-level-spc", pod_spc),
        _workload("overridden", {**pod_spc, **own}),
        _workload("level-only", _containers("x", seLinuxOptions={"level": "s0:c1,c2"})),
        _workload("unset", _containers("x")),
    ]
    assert kyverno_flags(intent, objects) == {"pod-level-spc"}
    assert rego_flags(intent, objects, "kubectl-opa") == {"pod-level-spc"}


def test_apparmor_switched_off_by_field_or_by_annotation() -> None:
    intent = intent_of("Keep AppArmor confinement on for every container, old annotation included.")
    key = "container.apparmor.security.beta.kubernetes.io/c0"
    objects = [
        _workload("field", _containers("x", appArmorProfile={"type": "Unconfined"})),
        _workload("pod-field", {"securityContext": {"appArmorProfile": {"type": "Unconfined"}},
                                **_containers("x")}),
        _workload("annotation", _containers("x"), {key: "unconfined"}),
        _workload("runtime-default", _containers("x"), {key: "runtime/default"}),
        _workload("localhost", _containers("x", appArmorProfile={"type": "Localhost",
                                                                 "localhostProfile": "k"})),
    ]  # fmt: skip
    flagged = {"field", "pod-field", "annotation"}
    assert kyverno_flags(intent, objects) == flagged
    assert rego_flags(intent, objects, "kubectl-opa") == flagged


def test_namespaces_enforce_a_pod_security_level() -> None:
    intent = intent_of(
        "Apart from kube-system, each namespace must make Pod Security Admission reject pods "
        "that break the restricted level; warn or audit labels are not enough."
    )
    (check,) = intent.checks
    assert check.allowed == ("restricted",)
    assert intent.scope.exempt_namespaces == ("kube-system",)

    def namespace(name: str, labels: dict) -> dict:
        return {"apiVersion": "v1", "kind": "Namespace",
                "metadata": {"name": name, "labels": labels}}  # fmt: skip

    label = "pod-security.kubernetes.io/"
    objects = [
        namespace("warn-only", {label + "warn": "restricted"}),
        namespace("baseline", {label + "enforce": "baseline"}),
        namespace("restricted", {label + "enforce": "restricted"}),
        namespace("kube-system", {}),
        # every cluster has it (the Kyverno scanner's cluster too), and the text does not exempt it
        namespace("default", {}),
    ]
    assert kyverno_flags(intent, objects) == {"warn-only", "baseline", "default"}
    assert rego_flags(intent, objects, "kubectl-opa") == {"warn-only", "baseline", "default"}


def _binding(name: str, role: str, subjects: list[tuple[str, str]]) -> dict:
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRoleBinding",
        "metadata": {"name": name},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
        "subjects": [{"kind": k, "name": n, **({"namespace": "ci"} if k == "ServiceAccount" else {})}
                     for k, n in subjects],
    }  # fmt: skip


def test_binding_holders_the_text_allows() -> None:
    intent = intent_of(
        "Except for the user `alice@corp.example` and the group system:masters, nobody may hold "
        "cluster-admin through any binding."
    )
    (check,) = intent.checks
    assert check.role_ref == "cluster-admin"
    assert check.allowed_subjects == (("User", "alice@corp.example"), ("Group", "system:masters"))
    objects = [
        _binding("masters", "cluster-admin", [("Group", "system:masters")]),
        _binding("alice", "cluster-admin", [("User", "alice@corp.example")]),
        _binding("deployer", "cluster-admin", [("ServiceAccount", "deployer")]),
        _binding("mixed", "cluster-admin", [("User", "alice@corp.example"), ("User", "bob")]),
        _binding("bob-admin", "admin", [("User", "bob")]),
    ]
    assert kyverno_flags(intent, objects) == {"deployer", "mixed"}
    assert rego_flags(intent, objects, "kubectl-opa") == {"deployer", "mixed"}


def test_a_non_zero_user_id_is_a_non_root_user_when_the_text_says_so() -> None:
    intent = intent_of(
        "Every container needs a non-root identity: runAsNonRoot: true, or a runAsUser other than "
        "0 taken from the container or from its pod."
    )
    (check,) = intent.checks
    assert check.nonzero_uid_counts
    pod_uid = {"securityContext": {"runAsUser": 1000}}
    objects = [
        _workload("pod-uid", {**pod_uid, **_containers("x")}),
        _workload("own-zero", {**pod_uid, **_containers("x", runAsUser=0)}),
        _workload("nothing", _containers("x")),
        _workload("flag", _containers("x", runAsNonRoot=True)),
    ]
    assert kyverno_flags(intent, objects) == {"own-zero", "nothing"}
    assert rego_flags(intent, objects, "kubectl-opa") == {"own-zero", "nothing"}
    # without those words a user id alone does not do
    assert not intent_of("Containers must not run as root.").checks[0].nonzero_uid_counts


def test_pod_creation_without_the_controllers_the_text_leaves_out() -> None:
    (check,) = intent_of(
        "No role may let anyone create Pods directly; creating Deployments or Jobs is fine."
    ).checks
    assert check.resources == ("pods",)
    (broad,) = intent_of("No role may let anyone create pods.").checks
    assert "deployments" in broad.resources


def test_not_findings_is_exemption_wording() -> None:
    intent = intent_of("No Role may grant impersonate. Roles prefixed system: are not findings.")
    assert intent.scope.exempt_builtin_rbac


def test_the_default_service_account_left_unused() -> None:
    intent = intent_of(
        "Each namespace's default service account should stay idle: it must not be used by any "
        "pod, whether named or implied by an empty serviceAccountName, nor granted anything by a "
        "binding."
    )
    assert [c.kind for c in intent.checks] == ["service-account-name", "binding"]
    objects = [
        _workload("implied", _containers("x")),
        _workload("named", {"serviceAccountName": "default", **_containers("x")}),
        _workload("alias", {"serviceAccount": "default", **_containers("x")}),
        _workload("own", {"serviceAccountName": "reports", **_containers("x")}),
        _binding("grants-default", "view", [("ServiceAccount", "default")]),
        _binding("grants-reports", "view", [("ServiceAccount", "reports")]),
    ]
    flagged = {"implied", "named", "alias", "grants-default"}
    assert kyverno_flags(intent, objects) == flagged
    assert rego_flags(intent, objects, "kubectl-opa") == flagged


def test_ingress_hosts_served_over_tls() -> None:
    intent = intent_of(
        "No Ingress may publish a host name without a certificate for it: each rule's host must "
        "appear under the Ingress's tls hosts (a *.domain entry counts for one level below)."
    )
    assert [c.kind for c in intent.checks] == ["ingress-tls"]

    def ingress(name: str, hosts: list[str], tls: list[str]) -> dict:
        rules = [{"host": h} if h else {} for h in hosts]
        spec: dict[str, Any] = {"rules": rules}
        if tls:
            spec["tls"] = [{"hosts": tls, "secretName": "cert"}]
        return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
                "metadata": {"name": name, "namespace": "web"}, "spec": spec}  # fmt: skip

    objects = [
        ingress("second-host-bare", ["a.example.org", "b.example.org"], ["a.example.org"]),
        ingress("no-tls", ["a.example.org"], []),
        ingress("too-deep", ["x.a.example.org"], ["*.example.org"]),
        ingress("wildcard", ["a.example.org", "b.example.org"], ["*.example.org"]),
        ingress("listed", ["a.example.org"], ["a.example.org"]),
        ingress("no-host", [""], []),
    ]
    flagged = {"second-host-bare", "no-tls", "too-deep"}
    assert kyverno_flags(intent, objects) == flagged
    assert rego_flags(intent, objects, "kubectl-opa") == flagged


def test_the_token_setting_of_the_pods_service_account_counts_when_the_pod_says_nothing() -> None:
    intent = intent_of(
        "Pods must not receive an API token: a pod opts out with automountServiceAccountToken: "
        "false, or, when its own spec is silent, by inheriting false from its service account."
    )
    (check,) = intent.checks
    assert check.service_account_fallback

    def account(name: str, automount: bool | None) -> dict:
        sa = {
            "apiVersion": "v1",
            "kind": "ServiceAccount",
            "metadata": {"name": name, "namespace": "app"},
        }
        if automount is not None:
            sa["automountServiceAccountToken"] = automount
        return sa  # fmt: skip

    def on(name: str, sa: str | None, automount: bool | None) -> dict:
        spec: dict[str, Any] = {**_containers("x")}
        if sa:
            spec["serviceAccountName"] = sa
        if automount is not None:
            spec["automountServiceAccountToken"] = automount
        return _workload(name, spec)

    objects = [
        account("quiet", False),
        account("chatty", None),
        on("inherits-false", "quiet", None),
        on("overrides-true", "quiet", True),
        on("account-silent", "chatty", None),
        on("own-false", "chatty", False),
        on("implied-default", None, None),
    ]
    flagged = {"overrides-true", "account-silent", "implied-default"}
    assert kyverno_flags(intent, objects) == flagged
    assert rego_flags(intent, objects, "kubectl-opa") == flagged
    # a text that says the account's setting is ignored judges the pod spec alone
    (alone,) = intent_of(
        "Every pod spec must set automountServiceAccountToken: false; the ServiceAccount's "
        "setting does not count."
    ).checks
    assert not alone.service_account_fallback


# ---- RHEL 9 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "comparison", "values", "unset_complies"),
    [
        ("A single SSH connection may carry at most 4 multiplexed sessions.",
         "MaxSessions", "between", (1, 4), False),  # sshd's default is 10
        ("sshd has to drop a client that stays idle for longer than ten minutes.",
         "ClientAliveInterval", "between", (1, 600), False),
        ("Show the text of /etc/issue.net as the SSH pre-login banner.",
         "Banner", "eq", ("/etc/issue.net",), False),
        ("Our SSH daemons must not negotiate cipher block chaining modes.",
         "Ciphers", "excludes", ("cbc",), True),
        ("Nobody may log in over ssh as the superuser.",
         "PermitRootLogin", "eq", ("no",), False),
        ("SSH must refuse any account whose password is blank.",
         "PermitEmptyPasswords", "eq", ("no",), True),
        ("Users must wait at least 2 days before changing their password again.",
         "PASS_MIN_DAYS", "ge", (2,), False),
    ],
)  # fmt: skip
def test_rhel_settings_read_from_their_effect(
    text: str, key: str, comparison: str, values: tuple, unset_complies: bool
) -> None:
    (check,) = intent_of(text, "rhel9").checks
    assert isinstance(check, ConfigSetting)
    assert (check.key, check.comparison, check.values, check.unset_complies) == (
        key,
        comparison,
        values,
        unset_complies,
    )


def test_icmp_redirects_are_ignored_on_every_interface_and_by_default() -> None:
    checks = intent_of("Hosts must not act on ICMP redirects they receive (IPv4).", "rhel9").checks
    assert [(c.key, c.values) for c in checks if isinstance(c, ConfigSetting)] == [
        ("net.ipv4.conf.all.accept_redirects", ("0",)),
        ("net.ipv4.conf.default.accept_redirects", ("0",)),
    ]


@needs_sandbox
@pytest.mark.slow
def test_cipher_lists_item_by_item_and_removals(tmp_path: Path) -> None:
    main = "Include /etc/ssh/sshd_config.d/*.conf\nCiphers aes256-gcm@openssh.com\n"
    verdicts = judged_hosts(
        tmp_path,
        "Our SSH daemons must not negotiate cipher block chaining modes.",
        # the drop-in is read first and adds a CBC cipher to the default list
        violating={"etc/ssh/sshd_config": main,
                   "etc/ssh/sshd_config.d/10-legacy.conf": "Ciphers +AES128-CBC\n"},
        # a removal from the default list offers no CBC cipher
        compliant={"etc/ssh/sshd_config": main,
                   "etc/ssh/sshd_config.d/10-legacy.conf": "ciphers -aes128-cbc,aes256-cbc\n"},
    )  # fmt: skip
    assert verdicts == JUDGED


@needs_sandbox
@pytest.mark.slow
def test_idle_clients_in_sshd_time_format(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "sshd has to drop a client that stays idle for longer than ten minutes.",
        violating={"etc/ssh/sshd_config": "ClientAliveInterval 0\n"},
        compliant={"etc/ssh/sshd_config": "clientaliveinterval 5m\nClientAliveInterval 1h\n"},
    )
    assert verdicts == JUDGED


def test_exec_set_apart_from_pod_creation_leaves_the_pod_creation_control() -> None:
    # the text names pods/exec only to say it is not what is forbidden
    intent = intent_of(
        "No custom role may be allowed to launch workloads: create on pods or on the controllers "
        "that make them is a finding. The pods/exec subresource does not count as pod creation."
    )
    assert intent.checks[0].concept == "pod-creation"
    # said about exec itself, it is still the exec control
    assert intent_of("No role outside the on-call group may exec into pods.").checks[0].concept == (
        "pod-exec"
    )
