"""Generated instances discriminate: the reference answers pass them strictly, naive policies (bare
Pods only, ``spec.containers[0]`` only) fail them strictly, per control and over several seeds;
bad generator input is a usage error naming it."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
import yaml

from ciso.evaluation.trial import evaluate_trial
from ciso.generator import generate, instance_tag
from ciso.generator.bindings import BindingControl, binding, violation
from ciso.generator.controls import CONTROLS, HOST_CONTROLS
from ciso.generator.network import NamespaceControl, network_policy
from ciso.generator.placement import PlacementControl
from ciso.generator.rbac import RbacControl
from ciso.generator.workloads import clean_pod_spec, wrap
from ciso.scenarios.loader import load_directory
from ciso.scenarios.model import CisoScenario, ScenarioClass
from tests._support.cli import REPO, run_cli

SEEDS = (1, 2, 3)
_SYSTEM = ("kube-system", "kube-public", "kube-node-lease")
#: The Kubernetes controls (the RHEL 9 ones: test_ciso_generator_hosts.py).
KUBERNETES = sorted(k for k, c in CONTROLS.items() if not isinstance(c, HOST_CONTROLS))

#: A naive check per control: what a policy written from the requirement's first example reads.
_NAIVE_KEYS = {
    "5.2.2": (
        "{{ request.object.spec.containers[0].securityContext.privileged || `false` }}",
        "Equals",
        True,
    ),
    "5.2.3": ("{{ request.object.spec.hostPID || `false` }}", "Equals", True),
    "5.2.4": ("{{ request.object.spec.hostIPC || `false` }}", "Equals", True),
    "5.2.5": ("{{ request.object.spec.hostNetwork || `false` }}", "Equals", True),
    "5.2.6": (
        "{{ to_string(request.object.spec.containers[0].securityContext"
        ".allowPrivilegeEscalation) }}",
        "NotEquals",
        "false",
    ),
    "5.2.9": (
        "{{ length(request.object.spec.containers[0].securityContext.capabilities.add || `[]`) }}",
        "GreaterThan",
        0,
    ),
    "5.2.12": ("{{ length(request.object.spec.volumes[?hostPath] || `[]`) }}", "GreaterThan", 0),
    "5.2.8": [
        (
            "{{ contains(request.object.spec.containers[0].securityContext.capabilities.drop"
            " || `[]`, 'ALL') || contains(request.object.spec.containers[0].securityContext"
            ".capabilities.drop || `[]`, 'NET_RAW') }}",
            "Equals",
            False,
        ),
        (
            "NET_RAW",
            "AnyIn",
            "{{ request.object.spec.containers[0].securityContext.capabilities.add || `[]` }}",
        ),
    ],
    "5.2.7": [
        (
            "{{ request.object.spec.containers[0].securityContext.runAsNonRoot || `false` }}",
            "Equals",
            False,
        ),
        (
            "{{ to_string(request.object.spec.containers[0].securityContext.runAsUser) }}",
            "Equals",
            "0",
        ),
    ],
    "5.2.10": (
        "{{ contains(request.object.spec.containers[0].securityContext.capabilities.drop"
        " || `[]`, 'ALL') }}",
        "Equals",
        False,
    ),
    "5.7.2": (
        "{{ request.object.spec.containers[0].securityContext.seccompProfile.type || 'none' }}",
        "AnyNotIn",
        ["RuntimeDefault", "Localhost"],
    ),
    "5.7.3": [
        (
            "{{ request.object.spec.containers[0].securityContext.runAsNonRoot || `false` }}",
            "Equals",
            False,
        ),
        (
            "{{ to_string(request.object.spec.containers[0].securityContext"
            ".allowPrivilegeEscalation) }}",
            "NotEquals",
            "false",
        ),
        (
            "{{ request.object.spec.containers[0].securityContext.readOnlyRootFilesystem"
            " || `false` }}",
            "Equals",
            False,
        ),
    ],
    "5.4.1": [
        (
            "{{ length(request.object.spec.containers[0].env[?valueFrom.secretKeyRef] || `[]`) }}",
            "GreaterThan",
            0,
        ),
        (
            "{{ length(request.object.spec.containers[0].envFrom[?secretRef] || `[]`) }}",
            "GreaterThan",
            0,
        ),
    ],
    "5.1.6": (
        "{{ to_string(request.object.spec.automountServiceAccountToken) }}",
        "NotEquals",
        "false",
    ),
    "5.1.5": (
        "{{ (request.object.spec.serviceAccountName || 'default') == 'default' && "
        "to_string(request.object.spec.automountServiceAccountToken) != 'false' }}",
        "Equals",
        True,
    ),
    "5.7.4": ("{{ request.object.metadata.namespace }}", "Equals", "default"),
    "5.1.1": ("{{ request.object.roleRef.name }}", "Equals", "cluster-admin"),
    "5.1.2": (
        "{{ contains(request.object.rules[0].resources || `[]`, 'secrets') || "
        "contains(request.object.rules[0].resources || `[]`, '*') }}",
        "Equals",
        True,
    ),
    "5.1.4": (
        "{{ contains(request.object.rules[0].verbs || `[]`, 'create') || "
        "contains(request.object.rules[0].verbs || `[]`, '*') }}",
        "Equals",
        True,
    ),
    "5.1.9": (
        "{{ contains(request.object.rules[0].resources || `[]`, 'persistentvolumes') || "
        "contains(request.object.rules[0].resources || `[]`, '*') }}",
        "Equals",
        True,
    ),
    "5.1.10": (
        "{{ contains(to_string(request.object.rules[0].resources || `[]`), 'proxy') || "
        "contains(request.object.rules[0].resources || `[]`, '*') }}",
        "Equals",
        True,
    ),
    "5.1.8": (
        "{{ contains(request.object.rules[0].verbs || `[]`, 'bind') || "
        "contains(request.object.rules[0].verbs || `[]`, 'escalate') || "
        "contains(request.object.rules[0].verbs || `[]`, 'impersonate') || "
        "contains(request.object.rules[0].verbs || `[]`, '*') }}",
        "Equals",
        True,
    ),
    "5.1.11": (
        "{{ contains(to_string(request.object.rules[0].resources || `[]`), 'approval') || "
        "contains(request.object.rules[0].resources || `[]`, '*') }}",
        "Equals",
        True,
    ),
    "5.1.12": (
        "{{ contains(to_string(request.object.rules[0].resources || `[]`), "
        "'webhookconfigurations') || contains(request.object.rules[0].resources || `[]`, '*') }}",
        "Equals",
        True,
    ),
    "5.1.13": (
        "{{ contains(to_string(request.object.rules[0].resources || `[]`), 'token') || "
        "contains(request.object.rules[0].resources || `[]`, '*') }}",
        "Equals",
        True,
    ),
    "5.1.3": ("{{ contains(to_string(request.object.rules[0]), '*') }}", "Equals", True),
    "5.2.11": (
        "{{ request.object.spec.containers[0].securityContext.windowsOptions.hostProcess"
        " || `false` }}",
        "Equals",
        True,
    ),
    # a ClusterRoleBinding's first subject
    "5.1.7": [
        ("{{ request.object.subjects[0].kind || '' }}", "Equals", "Group"),
        ("{{ request.object.subjects[0].name || '' }}", "Equals", "system:masters"),
    ],
    # a namespace is covered by a NetworkPolicy named after it, wherever that policy lives
    "5.3.2": ("{{ named_after_it }}", "Equals", 0),
    "5.2.13": (
        "{{ length(request.object.spec.containers[0].ports[?hostPort > `0`] || `[]`) }}",
        "GreaterThan",
        0,
    ),
}


#: Conditions that must all hold (the others: any of them).
_NAIVE_ALL = {"5.1.7"}
#: Context a naive check reads.
_NAIVE_CONTEXT = {
    "5.3.2": [
        {
            "name": "named_after_it",
            "apiCall": {
                "urlPath": "/apis/networking.k8s.io/v1/networkpolicies",
                "jmesPath": "items[?contains(metadata.name, '{{ request.object.metadata.name }}')]"
                " | length(@)",
            },
        }
    ]
}


def _naive_kinds(cis_id: str) -> list[str]:
    # RBAC controls: the first rule of a role; binding controls: cluster-wide bindings only;
    # pod-security controls: bare Pods only; namespace controls: Namespaces
    control = CONTROLS[cis_id]
    if isinstance(control, NamespaceControl):
        return ["Namespace"]
    if isinstance(control, BindingControl):
        return ["ClusterRoleBinding"]
    if isinstance(control, PlacementControl):
        return ["Pod"]
    return ["Role", "ClusterRole"] if isinstance(control, RbacControl) else ["Pod"]


def naive_policy(cis_id: str) -> dict:
    checks = _NAIVE_KEYS[cis_id]
    conditions = [
        {"key": key, "operator": operator, "value": value}
        for key, operator, value in (checks if isinstance(checks, list) else [checks])
    ]
    rule: dict = {
        "name": "naive",
        "match": {"any": [{"resources": {"kinds": _naive_kinds(cis_id)}}]},
        "exclude": {
            "any": [
                {"resources": {"namespaces": list(_SYSTEM)}},
                {"resources": {"kinds": ["Namespace"], "names": list(_SYSTEM)}},
            ]
        },
        "validate": {
            "message": "naive",
            "deny": {"conditions": {"all" if cis_id in _NAIVE_ALL else "any": conditions}},
        },
    }
    if cis_id in _NAIVE_CONTEXT:
        rule["context"] = _NAIVE_CONTEXT[cis_id]
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {
            "name": "naive-" + cis_id.replace(".", "-"),
            # Pods only: no rules generated for controllers' templates
            "annotations": {"pod-policies.kyverno.io/autogen-controllers": "none"},
        },
        "spec": {
            "validationFailureAction": "Audit",
            "background": True,
            "rules": [rule],
        },
    }


@pytest.fixture(autouse=True)
def _our_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ITBENCH_KYVERNO_ENGINE", "itbench")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, str], CisoScenario]:
    found = {}
    for seed in SEEDS:
        out = tmp_path_factory.mktemp(f"seed{seed}")
        generate(seed, out)
        result = load_directory(out)
        assert result.problems == ()
        for scenario in result.scenarios:
            if scenario.scenario_class is ScenarioClass.KYVERNO:
                found[(seed, scenario.cis_id)] = scenario
    return found


def _score(scenario: CisoScenario, policy: dict | Path, tmp_path: Path) -> dict:
    trial = tmp_path / "trial"
    trial.mkdir()
    if isinstance(policy, Path):
        shutil.copyfile(policy, trial / "kyverno-policy.yaml")
    else:
        (trial / "kyverno-policy.yaml").write_text(yaml.safe_dump(policy))
    return dict(evaluate_trial(scenario, trial).scores)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("cis_id", KUBERNETES)
def test_the_reference_answer_passes_strictly(generated, seed, cis_id, tmp_path) -> None:
    scenario = generated[(seed, cis_id)]
    assert len(scenario.violating_resources) >= 3
    scores = _score(scenario, scenario.solution["kyverno-policy.yaml"], tmp_path)
    assert scores["strict_pass"] == 1, scores


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("cis_id", KUBERNETES)
def test_a_naive_policy_fails_strictly(generated, seed, cis_id, tmp_path) -> None:
    scores = _score(generated[(seed, cis_id)], naive_policy(cis_id), tmp_path)
    assert scores["strict_pass"] == 0, scores


@pytest.mark.parametrize("cis_id", KUBERNETES)
def test_the_naive_policy_does_catch_a_plain_violation(cis_id, tmp_path) -> None:
    """The naive policies are real checks: a bare Pod violating in its first container is caught,
    so their strict 0 on generated instances comes from where the violations hide."""
    control, rng = CONTROLS[cis_id], random.Random(0)
    extra: list[dict] = []
    if isinstance(control, PlacementControl):
        bad = wrap("Pod", "bad", control.forbidden, clean_pod_spec(rng))
        good = wrap("Pod", "good", "plain", clean_pod_spec(rng))
        truth = f"Pod/{control.forbidden}/bad"
    elif isinstance(control, NamespaceControl):
        bad = {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "c", "namespace": "plain"},
        }
        good = network_policy("plain-deny-all", "plain", {"podSelector": {}})
        truth = "Namespace//plain"
        # every cluster has the namespace default: covered on both sides
        extra = [network_policy("default-deny-all", "default", {"podSelector": {}})]
    elif isinstance(control, BindingControl):
        bad = violation(control, "ClusterRoleBinding", "bad", "", rng, first=True)
        good = binding(
            "ClusterRoleBinding", "good", "", {"kind": "ClusterRole", "name": "view"}, rng
        )
        truth = "ClusterRoleBinding//bad"
    elif isinstance(control, RbacControl):
        bad = {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "Role",
            "metadata": {"name": "bad", "namespace": "plain"},
            "rules": [control.bad_rule(rng)],
        }
        good = {
            **bad,
            "metadata": {"name": "good", "namespace": "plain"},
            "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}],
        }
        truth = "Role/plain/bad"
    else:
        spec = clean_pod_spec(rng)
        if control.break_pod is not None:
            control.break_pod(spec, rng)
        else:
            control.break_container(spec["containers"][0], rng)
        bad, good = (
            wrap("Pod", "bad", "plain", spec),
            wrap("Pod", "good", "plain", clean_pod_spec(rng)),
        )
        truth = "Pod/plain/bad"
    folder = tmp_path / "plain"
    (folder / "violating").mkdir(parents=True)
    (folder / "compliant").mkdir()
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "plain"}}
    (folder / "violating" / "pod.yaml").write_text(yaml.safe_dump_all([namespace, bad, *extra]))
    (folder / "compliant" / "pod.yaml").write_text(yaml.safe_dump_all([namespace, good, *extra]))
    (folder / "scenario.yaml").write_text(
        yaml.safe_dump(
            {
                "id": "plain",
                "cis_id": cis_id,
                "platform": "kubernetes",
                "requirement": "r",
                "classes": ["kyverno"],
                "violating_resources": [truth],
            }
        )
    )
    (scenario,) = load_directory(folder).scenarios
    scores = _score(scenario, naive_policy(cis_id), tmp_path)
    assert scores["strict_pass"] == 1, scores


@pytest.mark.parametrize("cis_id", KUBERNETES)
def test_the_rego_reference_passes_the_offline_class(generated, cis_id, tmp_path) -> None:
    scenario = next(
        s
        for s in load_directory(generated[(1, cis_id)].source).scenarios
        if s.scenario_class is ScenarioClass.OPA_STATIC
    )
    trial = tmp_path / "trial"
    trial.mkdir()
    for name, source in scenario.solution.items():
        shutil.copyfile(source, trial / name)
        (trial / name).chmod(0o755)
    assert evaluate_trial(scenario, trial).scores["strict_pass"] == 1


def test_instances_are_fresh_per_seed_and_the_same_for_one_seed(tmp_path) -> None:
    one, again, other = (
        generate(s, tmp_path / n, ["5.2.2"]) for s, n in ((5, "a"), (5, "b"), (6, "c"))
    )
    read = [
        (g[0].directory / "violating" / "workloads.yaml").read_text() for g in (one, again, other)
    ]
    assert read[0] == read[1] and read[0] != read[2]
    assert one[0].directory.name == f"cis-k8s-5.2.2-privileged-{instance_tag(5)}"
    assert instance_tag(5) != instance_tag(6) and len(instance_tag(5)) == 10


def test_requirement_texts_vary_over_seeds(tmp_path) -> None:
    texts = {
        yaml.safe_load(
            (generate(s, tmp_path / str(s), ["5.2.5"])[0].directory / "scenario.yaml").read_text()
        )["requirement"]
        for s in range(12)
    }
    assert len(texts) == 3


def test_every_kind_with_a_pod_template_appears(generated) -> None:
    kinds = set()
    for scenario in generated.values():
        for path in (scenario.violating, scenario.compliant):
            kinds |= {o["kind"] for o in yaml.safe_load_all((path / "workloads.yaml").read_text())}
    assert {
        "Pod",
        "Deployment",
        "StatefulSet",
        "DaemonSet",
        "ReplicaSet",
        "Job",
        "CronJob",
    } <= kinds


@pytest.mark.parametrize(
    ("args", "named"),
    [(["--seed", "x1"], "'x1'"), (["--seed", "3", "--controls", "5.9.9"], "'5.9.9'")],
)
def test_bad_generator_input_is_a_usage_error_naming_it(args, named, tmp_path) -> None:
    result = run_cli(["ciso", "generate", *args, "--out", str(tmp_path / "o")])
    assert result.returncode == 2
    assert named in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("args", "named"),
    [(["--fresh", "seven"], "'seven'"), (["--fresh", "7", "--scenarios", "x"], "--scenarios")],
)
def test_bad_fresh_input_is_a_usage_error(args, named, tmp_path) -> None:
    result = run_cli(["ciso", "run", *args, "--agent", "oracle", "--output", str(tmp_path / "r")])
    assert result.returncode == 2, result.stderr
    assert named in result.stderr


def test_run_fresh_generates_into_the_run_directory_and_runs(tmp_path) -> None:
    out = tmp_path / "run"
    result = run_cli(
        [
            "ciso",
            "run",
            "--fresh",
            "424242",
            "--agent",
            "oracle",
            "-j",
            "2",
            "--output",
            str(out),
            "--format",
            "json",
            "--no-progress",
        ],
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    assert "seed 424242" in result.stderr
    tag = instance_tag(424242)
    assert (out / f"fresh-{tag}" / "SEED").read_text() == "424242\n"
    document = json.loads(result.stdout)
    ids = {r["incident_id"] for r in document["raw_results"]}
    migrated = {p.name for p in (REPO / "policies" / "kyverno-cel").iterdir() if p.is_dir()}
    assert ids == {
        f"{c.builtin_id}-{tag}.{cls}"
        for c in CONTROLS.values()
        if not isinstance(c, HOST_CONTROLS)
        for cls in ("kyverno", "kubectl-opa", "opa-static", "kyverno-migrate")
        if cls != "kyverno-migrate" or c.builtin_id in migrated
    } | {
        f"{c.builtin_id}-{tag}.rhel9-ansible-opa"
        for c in CONTROLS.values()
        if isinstance(c, HOST_CONTROLS)
    }
    assert all(
        r["scores"]["strict_pass"] == 1
        for r in document["raw_results"]
        if r["incident_id"].endswith(".kyverno-migrate")
    )
    assert all("424242" not in i for i in ids)
    for record in document["raw_results"]:
        assert record["scores"]["strict_pass"] == 1, record
