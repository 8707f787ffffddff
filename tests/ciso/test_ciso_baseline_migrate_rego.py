"""The baseline migrates Gatekeeper and Rego sources: the Rego is evaluated symbolically into one
CEL expression (``ciso/agents/baseline/migrate/rego_cel.py``) and the constraint's match becomes
the policy's (``from_rego.py``), for ClusterPolicy and ValidatingPolicy answers. Each translation
is checked by running source and answer over the same objects: the built-in sources, fresh
generated instances, and a template and a Rego policy written for these tests only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ciso.agents.baseline.migrate.from_rego import from_gatekeeper, from_rego
from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable
from ciso.agents.baseline.migrate.source import migrate, target_asked
from ciso.evaluation import rego_source
from ciso.evaluation.kyverno_engines import select_scanner
from ciso.evaluation.kyverno_migrate import _flagged, generated_environments
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.loader import load_benchmark_scenarios, load_ciso_scenarios
from ciso.scenarios.objects import declared_objects, is_policy
from itbench.models import AgentStatus
from tests._support.ciso import MIGRATION_CONTROLS, baseline_solves
from tests._support.cli import REPO

FIXTURES = Path(__file__).parent / "fixtures" / "migrate"
TARGETS = ["cluster-policy", "validating-policy"]
KINDS = {"cluster-policy": "ClusterPolicy", "validating-policy": "ValidatingPolicy"}
#: the suite's migrate trials whose source is Gatekeeper (5.2.3, 5.2.6, 5.2.12) or Rego
GATEKEEPER_OR_REGO_SOURCED = [
    "cis-k8s-5.2.3-host-pid",
    "cis-k8s-5.2.6-allow-privilege-escalation",
    "cis-k8s-5.2.12-host-path",
    "cis-k8s-5.2.4-host-ipc",
    "cis-k8s-5.2.8-net-raw",
    "cis-k8s-5.2.13-host-ports",
]


@pytest.mark.parametrize("control", GATEKEEPER_OR_REGO_SOURCED)
def test_baseline_migrates_the_gatekeeper_and_rego_scenarios_strictly(
    control: str, tmp_path: Path
) -> None:
    (scenario,) = load_benchmark_scenarios(f"{control}.kyverno-migrate")
    workspace = tmp_path / "trial"
    workspace.mkdir()
    for name, source in scenario.inputs.items():
        shutil.copyfile(source, workspace / name)
    if "source-policy.rego" not in scenario.inputs:  # then a Gatekeeper template, not Kyverno
        first = next(
            d for d in yaml.safe_load_all(scenario.inputs["source-policy.yaml"].read_text()) if d
        )
        assert first["apiVersion"].startswith("templates.gatekeeper.sh/"), control
    result = baseline_solves(scenario, workspace)
    assert result.status is AgentStatus.OK, result.reason
    scores = evaluate_trial(scenario, workspace).scores
    assert scores == {
        "itbench_pass": 1,
        "strict_pass": 1,
        "verdict_agreement": 1.0,
        "lint_errors": 0,
    }, control


def _same_verdicts(source, answer, environments) -> int:  # type: ignore[no-untyped-def]  # source: documents or a Rego text
    """Asserts source and answer fail the same resources of every environment; returns how many
    resources the source failed."""
    scanner = select_scanner("itbench")
    failing = 0
    for name, objects in environments:
        if isinstance(source, str):
            want = {r for r in rego_source.violations(source, objects)}
        else:
            want = _flagged(scanner, source, objects)
        got = _flagged(scanner, answer, objects)
        assert got == want, (name, sorted(map(str, want ^ got)))
        failing += len(want)
    return failing


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("control", MIGRATION_CONTROLS)
def test_every_gatekeeper_source_keeps_its_verdicts(control: str, target: str) -> None:
    path = REPO / "policies" / "gatekeeper" / control / "policy.yaml"
    source = list(yaml.safe_load_all(path.read_text()))
    answer = from_gatekeeper(path, source, target)
    assert {p["kind"] for p in answer} == {KINDS[target]}
    cis_id = control.split("-")[2]
    environments = generated_environments(cis_id, "baseline-rego-test", count=1)
    assert _same_verdicts(source, answer, environments) > 0


REGO_POLICIES = sorted(p.name for p in (REPO / "policies" / "rego").iterdir() if p.is_dir())
#: Rego policies of the suite it stops on, with the reason
REGO_NOT_TRANSLATED = {"cis-k8s-5.1.5-default-service-account": "an index computed at run time"}


@pytest.mark.parametrize("control", REGO_POLICIES)
def test_every_rego_source_keeps_its_verdicts(control: str) -> None:
    """Every Rego policy of the suite (30 controls, not only the nine with a migrate trial)."""
    text = (REPO / "policies" / "rego" / control / "policy.rego").read_text()
    if control in REGO_NOT_TRANSLATED:
        with pytest.raises(NotTranslatable, match=REGO_NOT_TRANSLATED[control]):
            from_rego(Path("source-policy.rego"), text, "cluster-policy")
        return
    answer = from_rego(Path("source-policy.rego"), text, "cluster-policy")
    cis_id = control.split("-")[2]
    if cis_id == "5.3.2":  # a namespace control: no generated pod environments, the suite's own
        (scenario,) = load_ciso_scenarios(f"{control}.kyverno").scenarios
        environments = [
            (side, [o for o in declared_objects(scenario, side == "compliant") if not is_policy(o)])
            for side in ("violating", "compliant")
        ]
    else:
        environments = generated_environments(cis_id, "baseline-rego-test", count=1)
    assert _same_verdicts(text, answer, environments) > 0


def _pod(name: str, namespace: str, labels: dict | None = None, **container: object) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": labels or {}},
        "spec": {"containers": [{"name": "c", "image": "registry.acme.io/app:1", **container}]},
    }


def _deployment(name: str, namespace: str, replicas: int, labels: dict | None = None) -> dict:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": namespace, "labels": labels or {}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {
                    "initContainers": [{"name": "i", "image": "docker.io/busybox:1"}],
                    "containers": [{"name": "c", "image": "mirror.acme.io/app:2"}],
                },
            },
        },
    }


OWNED = {"owner": "team-a"}
#: aimed at each rule and each match criterion of the unseen template
HAND_MADE = [
    _pod("ok", "team-a", OWNED),
    _pod("foreign-image", "team-a", OWNED, image="docker.io/nginx:1"),
    _pod("latest", "team-b", OWNED, image="registry.acme.io/app:latest"),
    _pod("low-uid", "team-a", OWNED, securityContext={"runAsUser": 10}),
    _pod("high-uid", "team-a", OWNED, securityContext={"runAsUser": 5000}),
    _pod("no-owner", "team-a"),
    _pod("legacy-no-owner", "team-a", {"tier": "legacy"}),
    _pod("debug-tools", "team-a", OWNED),
    _pod("debug-sandbox", "sandbox", OWNED),
    _pod("elsewhere-no-owner", "other"),
    _pod("platform-ok", "platform", OWNED, image="registry.k8s.io/pause:3"),
    _pod("platform-foreign", "platform", OWNED),
    _pod("system-foreign", "kube-system", OWNED),
    _deployment("many", "team-a", 9, OWNED),
    _deployment("few", "team-a", 2, OWNED),
    _deployment("few-elsewhere", "other", 2),
    {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}},
]


@pytest.mark.parametrize("target", TARGETS)
def test_an_unseen_gatekeeper_template_keeps_its_verdicts(target: str) -> None:
    path = FIXTURES / "unseen-gatekeeper.yaml"
    source = list(yaml.safe_load_all(path.read_text()))
    answer = from_gatekeeper(path, source, target)
    # one policy per constraint audit reports: the scoped one is not
    assert [p["metadata"]["name"] for p in answer] == ["team-workloads", "platform-pods"]
    scanner = select_scanner("itbench")
    want = _flagged(scanner, source, HAND_MADE)
    declared = {o["metadata"]["name"] for o in HAND_MADE}
    # (the Pods the cluster derives from the Deployments are reviewed too)
    assert {r.name for r in want if r.name in declared} == {
        "foreign-image",
        "latest",
        "low-uid",
        "no-owner",
        "debug-tools",
        "platform-foreign",
        "elsewhere-no-owner",  # platform-pods: any namespace but the excluded ones
        "many",  # more replicas than allowed
        "few",  # its init container's image is from docker.io
    }, want
    environments = [("hand-made", HAND_MADE)]
    for cis_id in ("5.2.2", "5.2.12"):
        environments += generated_environments(cis_id, "baseline-rego-test", count=1)
    assert _same_verdicts(source, answer, environments) > len(want)


def test_an_unseen_rego_policy_keeps_its_verdicts() -> None:
    text = (FIXTURES / "unseen-check.rego").read_text()
    answer = from_rego(Path("source-policy.rego"), text, "validating-policy")
    service = {
        "apiVersion": "v1",
        "kind": "Service",
        "spec": {"type": "NodePort", "ports": [{"port": 80}]},
    }
    objects = [
        {**service, "metadata": {"name": "exposed", "namespace": "apps"}},
        {**service, "metadata": {"name": "edge", "namespace": "edge-1"}},
        {
            **service,
            "metadata": {
                "name": "approved",
                "namespace": "apps",
                "annotations": {"acme.io/exposure": "approved"},
            },
        },
        {**service, "metadata": {"name": "internal", "namespace": "apps"}, "spec": {"ports": []}},
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "leaky", "namespace": "apps"},
            "data": {"DB_Password": "x"},
        },
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "clean", "namespace": "apps"},
            "data": {"user": "x"},
        },
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "unlimited", "namespace": "apps"},
            "spec": {"containers": [{"name": "c", "image": "x"}]},
        },
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "limited", "namespace": "apps"},
            "spec": {
                "containers": [
                    {"name": "c", "image": "x", "resources": {"limits": {"memory": "1Gi"}}}
                ]
            },
        },
    ]
    want = rego_source.violations(text, objects)
    assert {r.name for r in want} == {"exposed", "leaky", "unlimited"}, want
    assert _same_verdicts(text, answer, [("hand-made", objects)]) == 3


@pytest.mark.parametrize(
    ("rego", "reason"),
    [
        (
            "result := false if { every c in input.spec.containers { c.image } }",
            "the statement Every",
        ),
        ("result := false if { count(input.spec.containers) + 1 > 2 }", "ArithExpr"),
        ("result := false if { data.inventory.namespace[_] }", "inventory"),
        ("result := false if { x := http.send({}) }", "http.send"),
    ],
)
def test_what_it_cannot_translate_stops_with_its_reason(rego: str, reason: str) -> None:
    text = f"package check\n\nimport rego.v1\n\ndefault result := true\n\n{rego}\n"
    with pytest.raises(NotTranslatable, match=reason):
        from_rego(Path("source-policy.rego"), text, "cluster-policy")


def test_a_namespace_selector_over_cluster_scoped_kinds_stops_for_a_cluster_policy() -> None:
    source = list(yaml.safe_load_all((FIXTURES / "unseen-gatekeeper.yaml").read_text()))
    source[1]["spec"]["match"]["namespaceSelector"] = {"matchLabels": {"env": "prod"}}
    source[1]["spec"]["match"]["kinds"] = [{"apiGroups": ["*"], "kinds": ["*"]}]
    with pytest.raises(NotTranslatable, match="cluster-scoped"):
        from_gatekeeper(Path("source-policy.yaml"), source, "cluster-policy")
    # a kind the registry serves cluster-scoped stops too, not only the ones named in code
    for kind in ("PersistentVolume", "StorageClass", "PriorityClass"):
        source[1]["spec"]["match"]["kinds"] = [{"apiGroups": ["*"], "kinds": [kind]}]
        with pytest.raises(NotTranslatable, match="cluster-scoped"):
            from_gatekeeper(Path("source-policy.yaml"), source, "cluster-policy")
    source[1]["spec"]["match"]["kinds"] = [{"apiGroups": ["*"], "kinds": ["*"]}]
    answer = from_gatekeeper(Path("source-policy.yaml"), source, "validating-policy")
    assert answer[0]["spec"]["matchConstraints"]["namespaceSelector"] == {
        "matchLabels": {"env": "prod"}
    }


def test_the_target_dialect_is_read_from_the_task(tmp_path: Path) -> None:
    asked = "I would like to migrate a working OPA Rego policy to a Kyverno ValidatingPolicy (CEL)"
    assert target_asked(asked) == "validating-policy"
    # a ValidatingPolicy named but not asked for is no request for one
    named = "Turn this ValidatingPolicy-style check into a Kyverno ClusterPolicy"
    assert target_asked(named) == "cluster-policy"
    rego = REPO / "policies" / "rego" / "cis-k8s-5.2.4-host-ipc" / "policy.rego"
    shutil.copyfile(rego, tmp_path / "source-policy.rego")
    done = migrate(tmp_path, asked)  # no migrate_to: the task's text decides
    assert (done.source_dialect, done.target_dialect) == ("rego", "validating-policy")
    written = list(yaml.safe_load_all((tmp_path / "kyverno-policy.yaml").read_text()))
    assert [d["kind"] for d in written] == ["ValidatingPolicy"]
