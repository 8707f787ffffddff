"""Kyverno admission on the offline cluster through the real kubectl: Enforce denies with Kyverno's
message, Audit admits and reports, mutate rules patch, and core's generic admission hook."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from itbench.cluster import ClusterError, ClusterState, start_cluster
from itbench.cluster.extensions import (
    AdmissionDecision,
    AdmissionRequest,
    ClusterExtension,
    ResourceType,
)
from tests.cluster.kubectl_run import kubectl_on, needs_kubectl

# not under fixtures/: tests serve that whole folder, which must stay free of duplicates
FIXTURES = Path(__file__).parent / "admission_manifests"
DENIED = 'admission webhook "validate.kyverno.svc-fail" denied the request:'


def apply(cluster, tmp_path: Path, name: str, verb: str = "apply") -> subprocess.CompletedProcess:
    return kubectl_on(cluster, tmp_path, verb, "-f", str(FIXTURES / name))


@pytest.fixture
def cluster(tmp_path):
    # the installed ciso domain's extension, as every caller gets it
    with start_cluster(None, kubeconfig=tmp_path / "kc") as running:
        yield running


@needs_kubectl
@pytest.mark.parametrize("verb", ["apply", "create"])
def test_enforce_policy_denies_a_violating_pod_with_kyvernos_message(cluster, tmp_path, verb):
    assert apply(cluster, tmp_path, "enforce-host-network.yaml").returncode == 0
    denied = apply(cluster, tmp_path, "host-network-pod.yaml", verb)
    assert denied.returncode == 1
    assert denied.stderr.startswith("Error from server: error when creating")
    assert DENIED in denied.stderr
    assert "resource Pod/default/sneaky was blocked due to the following policies" in denied.stderr
    assert "disallow-host-network:\n  host-network: 'validation error: hostNetwork is not" in (
        denied.stderr
    )
    assert "rule host-network failed" in denied.stderr
    # nothing was stored; a compliant Pod still goes in
    assert kubectl_on(cluster, tmp_path, "get", "pod", "sneaky").returncode == 1
    assert cluster.overlay()["applied"][-1]["kind"] == "ClusterPolicy"
    assert apply(cluster, tmp_path, "plain-pod.yaml", verb).returncode == 0


@needs_kubectl
def test_enforce_reaches_controllers_through_autogen_rules(cluster, tmp_path):
    assert apply(cluster, tmp_path, "enforce-host-network.yaml").returncode == 0
    denied = apply(cluster, tmp_path, "host-network-deployment.yaml")
    assert denied.returncode == 1
    assert "resource Deployment/default/web was blocked" in denied.stderr
    assert "autogen-host-network:" in denied.stderr
    assert "/spec/template/spec/hostNetwork/" in denied.stderr.replace("\n    ", " ")


@needs_kubectl
def test_an_update_that_violates_is_denied_too(cluster, tmp_path):
    # a Deployment: a Pod's hostNetwork is immutable, a real API server refuses that update
    # before any admission webhook sees it
    made = kubectl_on(cluster, tmp_path, "create", "deployment", "web", "--image=nginx:1.27")
    assert made.returncode == 0, made.stderr
    assert apply(cluster, tmp_path, "enforce-host-network.yaml").returncode == 0
    patched = kubectl_on(
        cluster, tmp_path, "patch", "deployment", "web", "--type=merge", "-p",
        '{"spec": {"template": {"spec": {"hostNetwork": true}}}}',
    )  # fmt: skip
    assert patched.returncode == 1 and DENIED in patched.stderr
    assert "resource Deployment/default/web was blocked" in patched.stderr
    found = kubectl_on(cluster, tmp_path, "get", "deployment", "web", "-o", "json").stdout
    assert "hostNetwork" not in json.loads(found)["spec"]["template"]["spec"]


@needs_kubectl
def test_server_dry_run_is_denied_like_a_write(cluster, tmp_path):
    assert apply(cluster, tmp_path, "enforce-host-network.yaml").returncode == 0
    dry = kubectl_on(
        cluster,
        tmp_path,
        "apply",
        "--dry-run=server",
        "-f",
        str(FIXTURES / "host-network-pod.yaml"),
    )
    assert dry.returncode == 1 and DENIED in dry.stderr


@needs_kubectl
def test_audit_policy_admits_and_reports_the_failure(cluster, tmp_path):
    assert apply(cluster, tmp_path, "audit-host-network.yaml").returncode == 0
    admitted = apply(cluster, tmp_path, "host-network-pod.yaml")
    assert admitted.returncode == 0, admitted.stderr
    assert "pod/sneaky created" in admitted.stdout
    reports = json.loads(
        kubectl_on(cluster, tmp_path, "get", "polr", "-n", "default", "-o", "json").stdout
    )["items"]
    by_scope = {r["scope"]["name"]: r for r in reports}
    assert by_scope["sneaky"]["summary"]["fail"] == 1
    (result,) = by_scope["sneaky"]["results"]
    assert (result["policy"], result["rule"], result["result"]) == (
        "audit-host-network",
        "host-network",
        "fail",
    )


@needs_kubectl
def test_rule_level_failure_action_enforces(cluster, tmp_path):
    assert apply(cluster, tmp_path, "rule-failure-action.yaml").returncode == 0
    assert apply(cluster, tmp_path, "configmap.yaml").returncode == 0  # it has the label
    unlabeled = kubectl_on(cluster, tmp_path, "create", "configmap", "bare", "--dry-run=client",
                        "-o", "json")  # fmt: skip
    (tmp_path / "bare.json").write_text(unlabeled.stdout)
    denied = kubectl_on(cluster, tmp_path, "create", "-f", str(tmp_path / "bare.json"))
    assert denied.returncode == 1
    assert "resource ConfigMap/default/bare was blocked" in denied.stderr
    assert "require-team-label:\n  team-label:" in denied.stderr


@needs_kubectl
def test_mutate_rule_patches_on_admission(cluster, tmp_path):
    assert apply(cluster, tmp_path, "mutate-labels.yaml").returncode == 0
    assert apply(cluster, tmp_path, "configmap.yaml").returncode == 0
    stored = json.loads(kubectl_on(cluster, tmp_path, "get", "cm", "settings", "-o", "json").stdout)
    assert stored["metadata"]["labels"] == {"team": "core", "owner": "platform"}


def test_mutate_keeps_an_existing_value_and_feeds_validation(tmp_path):
    from ciso.engines.kyverno.cluster_types import cluster_extension
    from itbench.yamlsafe import load_all

    policies = [
        load_all((FIXTURES / name).read_text())[0]
        for name in ("mutate-labels.yaml", "rule-failure-action.yaml")
    ]
    state = ClusterState(policies, extensions=[cluster_extension()])
    own = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "mine", "labels": {"team": "a", "owner": "me"}},
    }
    assert state.create(own)["metadata"]["labels"] == {"team": "a", "owner": "me"}
    with pytest.raises(ClusterError) as info:
        state.create({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}})
    assert info.value.code == 403 and info.value.reason == ""
    assert str(info.value).startswith('admission webhook "validate.kyverno.svc-fail"')


def test_policies_with_admission_false_do_not_block(tmp_path):
    from ciso.engines.kyverno.cluster_types import cluster_extension
    from itbench.yamlsafe import load_all

    policy = load_all((FIXTURES / "enforce-host-network.yaml").read_text())[0]
    policy["spec"]["admission"] = False
    pod = load_all((FIXTURES / "host-network-pod.yaml").read_text())[0]
    state = ClusterState([policy], extensions=[cluster_extension()])
    assert state.create(pod)["metadata"]["name"] == "sneaky"


@pytest.mark.parametrize(
    ("subject", "blocked"),
    [
        ({"kind": "Group", "name": "system:masters"}, True),  # the offline cluster's one user
        ({"kind": "User", "name": "itbench-offline"}, True),
        ({"kind": "User", "name": "alice"}, False),
    ],
)
def test_admission_checks_subjects_against_the_offline_user(subject, blocked):
    from ciso.engines.kyverno.cluster_types import cluster_extension
    from itbench.yamlsafe import load_all

    policy = load_all((FIXTURES / "enforce-host-network.yaml").read_text())[0]
    for rule in policy["spec"]["rules"]:
        rule["match"] = {"any": [{"resources": {"kinds": ["Pod"]}, "subjects": [subject]}]}
    pod = load_all((FIXTURES / "host-network-pod.yaml").read_text())[0]
    state = ClusterState([policy], extensions=[cluster_extension()])
    if blocked:
        with pytest.raises(ClusterError) as info:
            state.create(pod)
        assert info.value.code == 403
    else:
        assert state.create(pod)["metadata"]["name"] == "sneaky"


# -- core's generic hook ----------------------------------------------------------------------

WIDGET = ResourceType("example.com", "v1", "Widget", "widgets", True)


def _widget(name: str, **spec) -> dict:
    return {
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": name},
        "spec": spec,
    }


def test_core_calls_the_hook_on_every_write_with_its_inputs():
    seen: list[AdmissionRequest] = []

    def admit(request: AdmissionRequest) -> AdmissionDecision:
        seen.append(request)
        if request.object.get("spec", {}).get("size") == "huge":
            return AdmissionDecision(False, "widgets may not be huge")
        patched = {**request.object, "spec": {**request.object.get("spec", {}), "checked": True}}
        return AdmissionDecision(patched=patched)

    ext = ClusterExtension(
        "toy",
        types=(WIDGET,),
        admission=admit,
        admission_inputs=frozenset({("example.com", "Widget")}),
    )
    state = ClusterState([_widget("loaded")], extensions=[ext])
    assert seen == []  # loaded manifests are the cluster's state, not requests
    created = state.create(_widget("a", size="small"))
    assert created["spec"] == {"size": "small", "checked": True}
    assert seen[-1].operation == "CREATE" and seen[-1].old_object is None
    assert [o["metadata"]["name"] for o in seen[-1].inputs] == ["loaded"]
    assert created["metadata"]["namespace"] == "default"  # shown as it would be stored
    replaced = state.replace(_widget("a", size="medium"))
    assert seen[-1].operation == "UPDATE" and seen[-1].old_object["spec"]["size"] == "small"
    assert replaced["spec"]["checked"] is True
    with pytest.raises(ClusterError) as info:
        state.create(_widget("b", size="huge"))
    assert (info.value.code, str(info.value)) == (403, "widgets may not be huge")
    assert [o["metadata"]["name"] for o in state.overlay()["applied"]] == ["a"]


def test_a_hook_that_raises_or_renames_is_an_internal_error_naming_its_owner():
    def broken(request: AdmissionRequest) -> AdmissionDecision:
        raise KeyError("boom")

    state = ClusterState(extensions=[ClusterExtension("toy", types=(WIDGET,), admission=broken)])
    with pytest.raises(ClusterError) as info:
        state.create(_widget("a"))
    assert info.value.code == 500 and "'toy'" in str(info.value) and "KeyError" in str(info.value)

    def renames(request: AdmissionRequest) -> AdmissionDecision:
        obj = request.object
        return AdmissionDecision(patched={**obj, "metadata": {**obj["metadata"], "name": "z"}})

    state = ClusterState(extensions=[ClusterExtension("toy", types=(WIDGET,), admission=renames)])
    with pytest.raises(ClusterError, match="changed the identity"):
        state.create(_widget("a"))


def test_admission_inputs_must_be_served():
    from itbench.errors import UsageError

    ext = ClusterExtension("toy", admission_inputs=frozenset({("example.com", "Gadget")}))
    with pytest.raises(UsageError, match="admission input Gadget"):
        ClusterState(extensions=[ext])


def test_an_update_keeps_a_violation_the_old_object_already_had():
    from ciso.engines.kyverno.cluster_types import cluster_extension
    from itbench.yamlsafe import load_all

    policy = load_all((FIXTURES / "enforce-host-network.yaml").read_text())[0]
    pod = load_all((FIXTURES / "host-network-pod.yaml").read_text())[0]
    # the Pod was there before the policy (loaded state is not admitted)
    state = ClusterState([pod, policy], extensions=[cluster_extension()])
    relabelled = {**pod, "metadata": {**pod["metadata"], "labels": {"tier": "web"}}}
    assert state.replace(relabelled)["metadata"]["labels"] == {"tier": "web"}
    # a Deployment (a Pod's hostNetwork is immutable: refused before admission, as for real)
    worse = load_all((FIXTURES / "host-network-deployment.yaml").read_text())[0]
    template = worse["spec"]["template"]
    plain_spec = {k: v for k, v in template["spec"].items() if k != "hostNetwork"}
    state.create({**worse, "spec": {**worse["spec"], "template": {**template, "spec": plain_spec}}})
    with pytest.raises(ClusterError, match="resource Deployment/default/web was blocked"):
        state.replace(worse)
