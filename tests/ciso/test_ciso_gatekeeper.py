"""A Gatekeeper ConstraintTemplate + Constraint as a ``kyverno-migrate`` source: matched and
reviewed as Gatekeeper's audit does, on our Rego engine; malformed input named by file and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ciso.evaluation import gatekeeper
from ciso.evaluation.kyverno_migrate import generated_environments
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.format import load_scenario_dir
from ciso.scenarios.public import to_benchmark_scenario
from itbench.errors import InputError
from tests._support.ciso import MIGRATION_CONTROLS
from tests._support.cli import REPO

HOST_NETWORK = Path(__file__).parent / "data" / "gatekeeper" / "host-network.yaml"

TEMPLATE = """\
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: requiredlabel}
spec:
  crd: {spec: {names: {kind: RequiredLabel}}}
  targets:
  - target: admission.k8s.gatekeeper.sh
    libs:
    - |
      package lib.labels
      missing(obj, key) {
        not obj.metadata.labels[key]
      }
    rego: |
      package requiredlabel
      import data.lib.labels
      violation[{"msg": msg}] {
        labels.missing(input.review.object, input.parameters.label)
        msg := sprintf("label %v missing", [input.parameters.label])
      }
"""


def _constraint(match: str, label: str = "owner") -> str:
    return (
        "---\napiVersion: constraints.gatekeeper.sh/v1beta1\nkind: RequiredLabel\n"
        f"metadata: {{name: needs-{label}}}\nspec:\n  match: {match}\n"
        f"  parameters: {{label: {label}}}\n"
    )


def _pod(name: str, namespace: str, labels: dict[str, str] | None = None) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": labels or {}},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]},
    }


def _namespace(name: str, labels: dict[str, str]) -> dict:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels}}


ENV = [
    _namespace("web", {"tier": "front"}),
    _namespace("kube-system", {}),
    _namespace("batch-a", {"tier": "back"}),
    _pod("unlabelled", "web"),
    _pod("owned", "web", {"owner": "ann"}),
    _pod("system", "kube-system"),
    _pod("worker", "batch-a", {"team": "x"}),
    {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "settings", "namespace": "web"},
        "data": {},
    },
]


def _violations(text: str) -> set[str]:
    templates = gatekeeper.parse(Path("gk.yaml"), list(yaml.safe_load_all(text)))
    return {str(r) for r in gatekeeper.violations(templates, ENV)}


@pytest.mark.parametrize(
    ("match", "expected"),
    [
        # by kind: Pods only, the ConfigMap and the Namespaces are not reviewed
        ('{kinds: [{apiGroups: [""], kinds: [Pod]}]}', {"unlabelled", "system", "worker"}),
        # excluded namespaces, with a prefix pattern
        (
            '{kinds: [{apiGroups: [""], kinds: [Pod]}], excludedNamespaces: ["kube-*"]}',
            {"unlabelled", "worker"},
        ),
        ('{kinds: [{apiGroups: [""], kinds: [Pod]}], namespaces: [batch-a]}', {"worker"}),
        # labelSelector on the object, namespaceSelector on its namespace's labels
        (
            '{kinds: [{apiGroups: [""], kinds: [Pod]}], '
            "labelSelector: {matchExpressions: [{key: team, operator: Exists}]}}",
            {"worker"},
        ),
        (
            '{kinds: [{apiGroups: [""], kinds: [Pod]}], namespaceSelector: {matchLabels: {tier: front}}}',
            {"unlabelled"},
        ),
    ],
)
def test_match_selects_what_gatekeeper_reviews(match: str, expected: set[str]) -> None:
    got = _violations(TEMPLATE + _constraint(match))
    assert {r.split("/")[-1] for r in got} == expected


def test_no_kinds_reviews_every_object_and_a_namespace_by_its_own_name() -> None:
    got = _violations(TEMPLATE + _constraint("{namespaces: [web]}"))
    # Namespaces other than web are outside (a Namespace is matched by its own name), web itself
    # is reviewed; the offline cluster's Node, cluster-scoped, has no namespace to exclude it
    assert got == {
        "Namespace//web",
        "Pod/web/unlabelled",
        "ConfigMap/web/settings",
        "Node//itbench-offline-node",
    }


def test_parameters_reach_the_rego() -> None:
    match = '{kinds: [{apiGroups: [""], kinds: [Pod]}], namespaces: [web, batch-a]}'
    assert _violations(TEMPLATE + _constraint(match, "owner")) == {
        "Pod/web/unlabelled",
        "Pod/batch-a/worker",
    }
    assert _violations(TEMPLATE + _constraint(match, "team")) == {
        "Pod/web/unlabelled",
        "Pod/web/owned",
    }


def test_a_template_that_does_not_compile_is_named() -> None:
    broken = TEMPLATE.replace("labels.missing(", "labels.missin(")
    with pytest.raises(gatekeeper.GatekeeperError) as caught:
        _violations(broken + _constraint("{}"))
    assert "ConstraintTemplate/requiredlabel: spec.targets[0].rego" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            TEMPLATE.replace("names: {kind: RequiredLabel}", "names: {}") + _constraint("{}"),
            "ConstraintTemplate/requiredlabel: spec.crd.spec.names.kind missing",
        ),
        (
            TEMPLATE.replace("    rego: |", "    regox: |") + _constraint("{}"),
            "ConstraintTemplate/requiredlabel: spec.targets[0].rego missing",
        ),
        (
            TEMPLATE.replace("package lib.labels", "package labels") + _constraint("{}"),
            "spec.targets[0].libs[0]: package must start with 'lib.'",
        ),
        (TEMPLATE, "ConstraintTemplate/requiredlabel: no RequiredLabel constraint in the file"),
        (
            TEMPLATE + _constraint("{namespaces: web}"),
            "RequiredLabel/needs-owner: spec.match.namespaces is not a list",
        ),
        (
            TEMPLATE + _constraint("{}").replace("kind: RequiredLabel", "kind: OtherKind"),
            "OtherKind/needs-owner: kind has no ConstraintTemplate in the file",
        ),
    ],
)
def test_malformed_templates_and_constraints_name_file_and_field(text: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        gatekeeper.parse(Path("gk.yaml"), list(yaml.safe_load_all(text)))
    assert message in str(caught.value)
    assert "gk.yaml" in str(caught.value)


def test_the_gatekeeper_source_agrees_with_the_kyverno_reference_on_generated_resources() -> None:
    """Every resource of generated host-network instances gets the same verdict from the
    hand-written Gatekeeper source as from policies/kyverno (the reference answer)."""
    from ciso.evaluation.kyverno_engines import select_scanner
    from ciso.evaluation.kyverno_migrate import disagreements

    source = list(yaml.safe_load_all(HOST_NETWORK.read_text()))
    reference = list(
        yaml.safe_load_all(
            (REPO / "policies/kyverno/cis-k8s-5.2.5-host-network/policy.yaml").read_text()
        )
    )
    scanner = select_scanner()
    envs = generated_environments("5.2.5", "test-gatekeeper", count=2)
    assert envs, "the control has a generator"
    for name, objects in envs:
        differ, got = disagreements(scanner, source, reference, name, objects)
        assert differ == [], name
        if name.endswith("violating"):
            assert got, name


def _user_scenario(tmp_path: Path, source: str) -> Path:
    directory = tmp_path / "gk"
    shutil.copytree(
        REPO / "ciso" / "suite" / "kubernetes" / "cis-k8s-5.2.5-host-network", directory
    )
    meta = yaml.safe_load((directory / "scenario.yaml").read_text())
    meta["id"], meta["classes"] = "my-gatekeeper-host-network", ["kyverno-migrate"]
    (directory / "scenario.yaml").write_text(yaml.safe_dump(meta))
    (directory / "source-policy.yaml").write_text(source)
    return directory


def test_a_gatekeeper_migration_scores_strict_and_a_naive_answer_does_not(tmp_path: Path) -> None:
    directory = _user_scenario(tmp_path, HOST_NETWORK.read_text())
    (scenario,) = [to_benchmark_scenario(s) for s in load_scenario_dir(directory)]
    assert "ConstraintTemplate" in scenario.description
    reference = (REPO / "policies/kyverno/cis-k8s-5.2.5-host-network/policy.yaml").read_text()
    for label, answer, strict in [
        ("reference", reference, 1),
        # a policy on Pods of every namespace flags the system namespaces the source leaves out
        ("naive", reference.replace("namespaces: [kube-system", "namespaces: [nowhere"), 0),
    ]:
        trial = tmp_path / label
        trial.mkdir()
        shutil.copyfile(directory / "source-policy.yaml", trial / "source-policy.yaml")
        (trial / "kyverno-policy.yaml").write_text(answer)
        result = evaluate_trial(scenario, trial)
        assert result.scores["strict_pass"] == strict, (label, result.details.get("failure"))
        if not strict:
            assert result.details["failure"]["step"] == "equivalence"
        assert result.details["environments"]["agent"]["target"] == "cluster-policy"


def test_a_malformed_gatekeeper_source_is_named_when_loading(tmp_path: Path) -> None:
    broken = HOST_NETWORK.read_text().replace(
        "kind: HostNetworkDenied\nmetadata", "kind: X\nmetadata"
    )
    directory = _user_scenario(tmp_path, broken)
    (scenario,) = [to_benchmark_scenario(s) for s in load_scenario_dir(directory)]
    trial = tmp_path / "t"
    trial.mkdir()
    shutil.copyfile(directory / "source-policy.yaml", trial / "source-policy.yaml")
    (trial / "p.yaml").write_text(
        (REPO / "policies/kyverno/cis-k8s-5.2.5-host-network/policy.yaml").read_text()
    )
    with pytest.raises(InputError) as caught:
        evaluate_trial(scenario, trial)
    assert "X/host-network-denied: kind has no ConstraintTemplate" in str(caught.value)


# -- semantics of spec.match and spec.enforcementAction read from Gatekeeper's documentation and
# matcher: each of these failed before the evaluator read them

POD_KINDS = '[{apiGroups: [""], kinds: [Pod]}]'


@pytest.mark.parametrize(
    ("match", "expected"),
    [
        # scope: a Namespace and the Node are cluster-scoped, Pods and ConfigMaps namespaced
        ("{scope: Cluster}", {"Namespace", "Node"}),
        ("{scope: Namespaced}", {"Pod", "ConfigMap"}),
        ('{scope: "*"}', {"Namespace", "Node", "Pod", "ConfigMap"}),
    ],
)
def test_scope_selects_cluster_or_namespaced_objects(match: str, expected: set[str]) -> None:
    got = _violations(TEMPLATE + _constraint(match))
    assert {r.split("/")[0] for r in got} == expected


@pytest.mark.parametrize(
    ("patterns", "expected"),
    [
        # a leading * is a suffix, * at both ends a substring (Gatekeeper's wildcard)
        ('excludedNamespaces: ["*-system"]', {"unlabelled", "worker"}),
        ('excludedNamespaces: ["*atch*"]', {"unlabelled", "system"}),
        ('namespaces: ["*-a"]', {"worker"}),
    ],
)
def test_leading_and_surrounding_wildcards_in_namespace_patterns(
    patterns: str, expected: set[str]
) -> None:
    got = _violations(TEMPLATE + _constraint(f"{{kinds: {POD_KINDS}, {patterns}}}"))
    assert {r.split("/")[-1] for r in got} == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("worker", {"worker"}),
        ('"un*"', {"unlabelled"}),
        ('"*ste*"', {"system"}),
    ],
)
def test_match_name_with_wildcards(name: str, expected: set[str]) -> None:
    got = _violations(TEMPLATE + _constraint(f"{{kinds: {POD_KINDS}, name: {name}}}"))
    assert {r.split("/")[-1] for r in got} == expected


def test_an_empty_api_group_list_matches_every_group() -> None:
    # kinds without apiGroups: any group (the matcher's empty-list rule), so apps' too
    env = [*ENV, {"apiVersion": "apps/v1", "kind": "Deployment",
                  "metadata": {"name": "api", "namespace": "web"},
                  "spec": {"selector": {"matchLabels": {"a": "b"}},
                           "template": {"metadata": {"labels": {"a": "b"}},
                                        "spec": {"containers": [{"name": "c", "image": "x"}]}}}}]  # fmt: skip
    text = TEMPLATE + _constraint("{kinds: [{kinds: [Deployment]}]}")
    templates = gatekeeper.parse(Path("gk.yaml"), list(yaml.safe_load_all(text)))
    assert {str(r) for r in gatekeeper.violations(templates, env)} == {"Deployment/web/api"}


def _with_action(action: str) -> str:
    return TEMPLATE + _constraint(f"{{kinds: {POD_KINDS}, namespaces: [web]}}") + action


@pytest.mark.parametrize(
    ("action", "audited"),
    [
        ("", True),
        ("  enforcementAction: deny\n", True),
        ("  enforcementAction: dryrun\n", True),
        ("  enforcementAction: warn\n", True),
        # scoped: audit reports only when an entry names the audit enforcement point, or *
        (
            "  enforcementAction: scoped\n  scopedEnforcementActions:\n  - action: deny\n"
            "    enforcementPoints: [{name: validation.gatekeeper.sh}]\n",
            False,
        ),
        (
            "  enforcementAction: scoped\n  scopedEnforcementActions:\n  - action: deny\n"
            "    enforcementPoints: [{name: validation.gatekeeper.sh}]\n  - action: warn\n"
            "    enforcementPoints: [{name: audit.gatekeeper.sh}]\n",
            True,
        ),
        (
            "  enforcementAction: scoped\n  scopedEnforcementActions:\n  - action: dryrun\n"
            '    enforcementPoints: [{name: "*"}]\n',
            True,
        ),
        # scopedEnforcementActions is ignored unless the action is scoped
        (
            "  enforcementAction: warn\n  scopedEnforcementActions:\n  - action: deny\n"
            "    enforcementPoints: [{name: validation.gatekeeper.sh}]\n",
            True,
        ),
    ],
)
def test_enforcement_actions_audit_reports(action: str, audited: bool) -> None:
    got = _violations(_with_action(action))
    assert got == ({"Pod/web/unlabelled"} if audited else set())


def test_objects_of_custom_kinds_are_reviewed_by_group_and_kind() -> None:
    """Kinds the offline cluster does not serve (a CRD's Deployment, a Gateway API HTTPRoute)
    are reviewed as declared instead of stopping the evaluation."""
    custom = [
        {"apiVersion": "ops.acme.io/v1", "kind": "Deployment",
         "metadata": {"name": "rollout", "namespace": "web"}, "spec": {}},
        {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
         "metadata": {"name": "route", "namespace": "batch-a", "labels": {"owner": "x"}},
         "spec": {}},
        {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
         "metadata": {"name": "open", "namespace": "web"}, "spec": {}},
    ]  # fmt: skip
    for kinds, expected in [
        ("[{apiGroups: [ops.acme.io], kinds: [Deployment]}]", {"Deployment/web/rollout"}),
        ("[{apiGroups: [apps], kinds: [Deployment]}]", set()),
        ('[{apiGroups: ["gateway.networking.k8s.io"], kinds: ["*"]}]', {"HTTPRoute/web/open"}),
    ]:
        text = TEMPLATE + _constraint(f"{{kinds: {kinds}}}")
        templates = gatekeeper.parse(Path("gk.yaml"), list(yaml.safe_load_all(text)))
        got = {str(r) for r in gatekeeper.violations(templates, [*ENV, *custom])}
        assert got == expected, kinds


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            TEMPLATE + _constraint('{excludedNamespaces: ["kube-*-x"]}'),
            "spec.match.excludedNamespaces[0]: 'kube-*-x' is not a Gatekeeper wildcard",
        ),
        (TEMPLATE + _constraint("{name: [a]}"), "spec.match.name: ['a'] is not a Gatekeeper"),
        (
            TEMPLATE + _constraint("{scope: Namespace}"),
            "spec.match.scope: 'Namespace' is not one of *, Cluster, Namespaced",
        ),
        (_with_action("  enforcementAction: block\n"), "spec.enforcementAction: 'block'"),
        (
            _with_action("  enforcementAction: scoped\n"),
            "spec.scopedEnforcementActions: required",
        ),
        (
            _with_action(
                "  enforcementAction: scoped\n  scopedEnforcementActions:\n  - action: deny\n"
                "    enforcementPoints: [{name: audit}]\n"
            ),
            "spec.scopedEnforcementActions[0].enforcementPoints[0].name: 'audit' is not one of",
        ),
    ],
)
def test_match_and_action_values_gatekeeper_refuses_are_named(text: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        gatekeeper.parse(Path("gk.yaml"), list(yaml.safe_load_all(text)))
    assert message in str(caught.value) and "RequiredLabel/needs-owner" in str(caught.value)


@pytest.mark.parametrize("control", MIGRATION_CONTROLS)
def test_each_builtin_gatekeeper_source_agrees_with_the_reference_cluster_policy(
    control: str,
) -> None:
    """policies/gatekeeper/<id> (the built-in migrations' Gatekeeper sources) gives every
    resource of the suite's environments and of generated instances the verdict
    policies/kyverno/<id> gives it."""
    from ciso.evaluation.kyverno_engines import select_scanner
    from ciso.evaluation.report_reading import failed
    from ciso.scenarios.loader import load_benchmark_scenarios
    from ciso.scenarios.objects import declared_objects

    path = REPO / "policies" / "gatekeeper" / control / "policy.yaml"
    templates = gatekeeper.parse(path, list(yaml.safe_load_all(path.read_text())))
    reference = list(
        yaml.safe_load_all((REPO / "policies" / "kyverno" / control / "policy.yaml").read_text())
    )
    (public,) = load_benchmark_scenarios(f"{control}.kyverno")
    scenario = public.ground_truth
    own = [
        ("violating", declared_objects(scenario)),
        ("compliant", declared_objects(scenario, True)),
    ]
    envs = own + generated_environments(control.split("-")[2], f"test-gk-source/{control}", 2)
    scanner = select_scanner()
    for name, objects in envs:
        want = failed(scanner.reports(reference, objects))
        got = gatekeeper.violations(templates, objects)
        assert sorted(map(str, got ^ want)) == [], (control, name)
        assert bool(got) == name.endswith("violating"), (control, name)
