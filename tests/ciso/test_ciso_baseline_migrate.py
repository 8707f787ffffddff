"""The baseline's ``kyverno-migrate``: it translates ``source-policy.yaml`` into the other Kyverno
dialect construct by construct (never looking the control up), so it passes the built-in and
fresh migration scenarios strictly and keeps the verdicts of a policy it has never seen."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ciso.agents.baseline.migrate import conditions_cel, kinds
from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable, translate
from ciso.agents.baseline.migrate.pattern_cel import translate_pattern
from ciso.agents.baseline.migrate.source import translate_documents
from ciso.engines.kyverno.cel import program as cel_program
from ciso.engines.kyverno.matching import Facts
from ciso.engines.kyverno.reports import policy_reports
from ciso.environments.api_calls import context_for
from ciso.environments.kubernetes import cluster_view
from ciso.evaluation.kyverno_engines import select_scanner
from ciso.evaluation.kyverno_migrate import _flagged, generated_environments
from ciso.evaluation.report_reading import failed
from ciso.evaluation.trial import evaluate_trial
from ciso.generator import generate
from ciso.scenarios.dialects import CLUSTER_POLICY, VALIDATING_POLICY, dialect_of
from ciso.scenarios.format import load_scenario_dir
from ciso.scenarios.loader import load_benchmark_scenarios
from ciso.scenarios.public import to_benchmark_scenario
from itbench.cluster.resources import default_registry
from itbench.models import AgentStatus
from tests._support.ciso import MIGRATION_CONTROLS, baseline_solves
from tests._support.cli import REPO

FIXTURES = Path(__file__).parent / "fixtures" / "migrate"
CEL = REPO / "policies" / "kyverno-cel"


def _solve(scenario, workspace: Path):  # type: ignore[no-untyped-def]  # scenario: a CisoScenario
    workspace.mkdir(parents=True)
    for name, source in scenario.inputs.items():
        shutil.copyfile(source, workspace / name)
    return baseline_solves(scenario, workspace)


def _kyverno_source(scenario) -> bool:  # type: ignore[no-untyped-def]  # a CisoScenario
    """The scenario migrates a Kyverno policy (the suite also has Gatekeeper and Rego sources,
    which ``test_ciso_baseline_migrate_rego.py`` covers)."""
    source = scenario.inputs.get("source-policy.yaml")
    if source is None:
        return False
    dialects = {dialect_of(d) for d in yaml.safe_load_all(Path(source).read_text()) if d}
    return dialects <= {CLUSTER_POLICY, VALIDATING_POLICY}


#: The suite's migrate trials whose source is a ClusterPolicy (it rotates the source dialect)
KYVERNO_SOURCED = [
    "cis-k8s-5.2.2-privileged",
    "cis-k8s-5.2.5-host-network",
    "cis-k8s-5.2.9-added-capabilities",
]


@pytest.mark.parametrize("control", KYVERNO_SOURCED)
def test_baseline_migrates_the_built_in_scenarios_strictly(control: str, tmp_path: Path) -> None:
    (scenario,) = load_benchmark_scenarios(f"{control}.kyverno-migrate")
    assert _kyverno_source(scenario), control
    result = _solve(scenario, tmp_path / "trial")
    assert result.status is AgentStatus.OK, result.reason
    scores = evaluate_trial(scenario, tmp_path / "trial").scores
    assert scores == {
        "itbench_pass": 1,
        "strict_pass": 1,
        "verdict_agreement": 1.0,
        "lint_errors": 0,
    }, control


@pytest.mark.parametrize("seed", [5150, 90125])
def test_baseline_migrates_fresh_instances_strictly(seed: int, tmp_path: Path) -> None:
    cis_ids = [c.split("-")[2] for c in MIGRATION_CONTROLS]
    generate(seed, tmp_path / "fresh", cis_ids)
    scenarios = [
        to_benchmark_scenario(s)
        for d in sorted((tmp_path / "fresh").iterdir())
        if d.is_dir()
        for s in load_scenario_dir(d)
    ]
    migrations = [s for s in scenarios if s.id.endswith(".kyverno-migrate")]
    assert len(migrations) == len(MIGRATION_CONTROLS)
    kyverno_sourced = [s for s in migrations if _kyverno_source(s)]
    # both kinds drawn: Kyverno sources, and Gatekeeper or Rego ones (rego_cel translates them)
    assert kyverno_sourced and len(kyverno_sourced) < len(migrations), "choose another seed"
    for scenario in migrations:
        workspace = tmp_path / "trials" / scenario.id
        result = _solve(scenario, workspace)
        assert result.status is AgentStatus.OK, (scenario.id, result.reason)
        scores = evaluate_trial(scenario, workspace).scores
        assert scores["strict_pass"] == 1 and scores["verdict_agreement"] == 1.0, (
            scenario.id,
            scores,
        )


def _hand_environment() -> list[dict]:
    """Objects that exercise the unseen policy's exclusions and autogen list."""

    def pod(namespace: str, name: str, **spec: object) -> dict:
        containers = spec.pop("containers", None) or [
            {"name": "app", "image": "nginx", "securityContext": {"readOnlyRootFilesystem": True}}
        ]
        return {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"containers": containers, **spec},
        }

    privileged = [
        {
            "name": "app",
            "image": "nginx",
            "securityContext": {"privileged": True, "readOnlyRootFilesystem": True},
        }
    ]
    writable = [{"name": "debug-shell", "image": "busybox"}, {"name": "app", "image": "nginx"}]
    daemon = {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "agent", "namespace": "shop"},
        "spec": {
            "selector": {"matchLabels": {"app": "agent"}},
            "template": {
                "metadata": {"labels": {"app": "agent"}},
                "spec": {"containers": privileged, "hostNetwork": True},
            },
        },
    }
    deployment = {
        **daemon,
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop"},
    }

    def namespace(name: str, labels: dict | None = None) -> dict:
        return {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": name, "labels": labels or {}},
        }

    return [
        namespace("shop"),
        namespace("sandbox", {"security.example.com/exempt": "true"}),
        namespace("platform-a"),
        namespace("platform-ab"),
        pod("shop", "privileged", containers=privileged),
        pod("sandbox", "privileged-but-exempt", containers=privileged),
        pod("platform-a", "privileged-platform", containers=privileged),
        pod("platform-ab", "privileged-not-platform", containers=privileged),
        pod("shop", "root-user", securityContext={"runAsUser": 0}),
        pod(
            "shop",
            "high-uid",
            containers=[
                {
                    "name": "a",
                    "image": "x",
                    "securityContext": {"runAsUser": 70000, "readOnlyRootFilesystem": True},
                }
            ],
        ),  # fmt: skip
        pod("shop", "writable-debug-only", containers=writable[:1]),
        pod("shop", "writable-app", containers=writable),
        pod("shop", "host-network", hostNetwork=True),
        pod("sandbox", "host-pid-exempt-elsewhere", hostPID=True),
        {
            **pod("shop", "approved-host-network", hostNetwork=True),
            "metadata": {
                "name": "approved",
                "namespace": "shop",
                "labels": {"security.example.com/host-access": "approved-by-sec"},
            },
        },  # fmt: skip
        daemon,
        deployment,
    ]


def _flagged_with_namespace_labels(policies: list[dict], objects: list[dict]) -> set[str]:
    """Names of the resources a background scan fails when it knows the Namespaces' labels (the
    evaluator's scan does not give the engine them, so its namespaceSelectors select nothing)."""
    ctx = context_for(objects)
    ctx.facts = Facts(
        namespace_labels={
            o["metadata"]["name"]: dict(o["metadata"].get("labels") or {})
            for o in objects
            if o.get("kind") == "Namespace"
        }
    )
    reports = policy_reports(policies, cluster_view(objects), ctx)
    return {ref.name for ref in failed(reports)}


def test_an_unseen_cluster_policy_keeps_its_verdicts(tmp_path: Path) -> None:
    """A ClusterPolicy written for this test (three rules, label and wildcard exclusions, an
    autogen list, numeric and wildcard patterns, a foreach with a precondition, an anyPattern):
    the translation fails exactly the resources the source fails, on generated environments of
    six controls and on hand-made objects aimed at its exclusions."""
    source = list(yaml.safe_load_all((FIXTURES / "unseen-clusterpolicy.yaml").read_text()))
    source_dialect, target, answer = translate_documents(source)
    assert (source_dialect, target) == ("cluster-policy", "validating-policy")
    assert [p["metadata"]["name"] for p in answer] == [
        "hardened-workloads-no-root-no-privilege",
        "hardened-workloads-read-only-root-except-debug",
        "hardened-workloads-host-namespaces-or-volumes",
    ]
    scanner = select_scanner("itbench")
    environments = [("hand-made", _hand_environment())]
    for cis_id in ("5.2.2", "5.2.3", "5.2.5", "5.7.3", "5.2.12"):
        environments += generated_environments(cis_id, "baseline-migrate-test", count=1)
    failing = 0
    for name, objects in environments:
        want = _flagged(scanner, source, objects)
        got = _flagged(scanner, answer, objects)
        assert got == want, (name, sorted(want ^ got))
        failing += len(want)
    assert failing > 20
    hand = environments[0][1]
    want = _flagged_with_namespace_labels(source, hand)
    assert _flagged_with_namespace_labels(answer, hand) == want
    # the exclusions and the autogen list decide these: a translation that lost them differs
    assert {"privileged", "privileged-not-platform", "root-user", "high-uid", "writable-app",
            "host-network", "web"} <= want, want  # fmt: skip
    assert not want & {"privileged-but-exempt", "privileged-platform", "writable-debug-only",
                       "approved", "agent"}, want  # fmt: skip


def test_the_nine_validating_policies_translate_back_to_cluster_policies() -> None:
    """The other direction: each reference ValidatingPolicy becomes a ClusterPolicy (CEL kept in
    validate.cel, match conditions as celPreconditions) with the same verdicts."""
    scanner = select_scanner("itbench")
    for control in MIGRATION_CONTROLS:
        source = list(yaml.safe_load_all((CEL / control / "policy.yaml").read_text()))
        _, target, answer = translate_documents(source)
        assert target == "cluster-policy" and answer[0]["kind"] == "ClusterPolicy"
        cis_id = control.split("-")[2]
        for name, objects in generated_environments(cis_id, "baseline-reverse", count=1):
            want = _flagged(scanner, source, objects)
            assert _flagged(scanner, answer, objects) == want, (control, name)
            assert want or "compliant" in name, (control, name)


@pytest.mark.slow
def test_every_reference_cluster_policy_translates_or_says_why() -> None:
    """All 30 Kubernetes reference ClusterPolicies (only nine have a migrate scenario): 28 keep
    every verdict over generated instances of their control, two stop with their reason."""
    scanner = select_scanner("itbench")
    refused = {}
    for directory in sorted((REPO / "policies" / "kyverno").glob("cis-k8s-*")):
        source = list(yaml.safe_load_all((directory / "policy.yaml").read_text()))
        try:
            _, _, answer = translate_documents(source)
        except NotTranslatable as exc:
            refused[directory.name] = str(exc)
            continue
        cis_id = directory.name.split("-")[2]
        for name, objects in generated_environments(cis_id, "baseline-all", count=2):
            want = _flagged(scanner, source, objects)
            assert _flagged(scanner, answer, objects) == want, (directory.name, name)
    assert refused == {
        "cis-k8s-5.3.2-namespace-network-policies": (
            "JMESPath 'networkPolicyCount': the variable 'networkPolicyCount' is not translated"
        ),
        "cis-k8s-5.7.4-default-namespace": (
            "rule 'no-default-namespace': an exclusion of some of the matched kinds"
        ),
    }


def test_pattern_anchors_translate_to_their_meaning() -> None:
    assert translate_pattern({"spec": {"=(hostPID)": False}}) == (
        "(has(object.spec) && (!has(object.spec.hostPID) || object.spec.hostPID == false))"
    )
    assert translate_pattern({"spec": {"X(hostPath)": "null"}}) == (
        "(has(object.spec) && !has(object.spec.hostPath))"
    )
    conditional = translate_pattern({"spec": {"(hostNetwork)": True, "hostPort": ">0"}})
    assert conditional.startswith("(has(object.spec) && (!(has(object.spec.hostNetwork)")
    assert "double(object.spec.hostPort) > 0.0" in conditional


def test_jmespath_of_foreach_lists_reads_every_container_list() -> None:
    listed = translate("request.object.spec.[ephemeralContainers, initContainers, containers][]")
    assert listed.text == (
        "(object.spec.?ephemeralContainers.orValue([]) + object.spec.?initContainers.orValue([])"
        " + object.spec.?containers.orValue([]))"
    )


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("{{ sum(request.object.spec.containers) }}", "the function sum()"),
        ("{{ request.object.spec | keys(@) }}", "'|' is not translated"),
    ],
)
def test_what_it_cannot_translate_fails_closed(source: str, reason: str) -> None:
    with pytest.raises(NotTranslatable, match=reason.replace("(", r"\(").replace(")", r"\)")):
        translate(source.strip("{} "))


def test_a_malformed_gatekeeper_source_is_refused_with_its_reason(tmp_path: Path) -> None:
    (scenario,) = load_benchmark_scenarios("cis-k8s-5.2.2-privileged.kyverno-migrate")
    workspace = tmp_path / "trial"
    workspace.mkdir()
    (workspace / "source-policy.yaml").write_text(
        "apiVersion: templates.gatekeeper.sh/v1\nkind: ConstraintTemplate\n"
        "metadata: {name: k8sdenyall}\nspec: {}\n"
    )
    result = baseline_solves(scenario, workspace)
    assert result.status is AgentStatus.ERROR
    assert result.reason == (
        "not translated: source-policy.yaml: ConstraintTemplate/k8sdenyall: "
        "spec.crd.spec.names.kind missing (the constraint kind)"
    )
    assert not (workspace / "kyverno-policy.yaml").exists()


@pytest.mark.parametrize(
    ("key", "listed", "member"),
    [
        ("app.*", "app.web", True),  # the key's wildcard reads as one
        ("a.b*", "axb1", False),  # its dot is a dot, not any character
        ("team(+)*", "team(+)-a", True),  # regex syntax in the key is literal
        ("team(+)*", "teamm", False),
        ("[ab]?", "a1", False),
        ("[ab]?", "[ab]1", True),
        ("back\\slash*", "back\\slash-x", True),
    ],
)
def test_a_wildcard_in_the_key_matches_listed_values_literally(
    key: str, listed: str, member: bool
) -> None:
    """Kyverno's In operators read a ``*`` or ``?`` in the key's value as a wildcard and every other
    character as itself; the translation builds the regex at run time, so it must escape."""
    expression = conditions_cel._member("x", conditions_cel.operand([listed], None), [listed])
    assert cel_program.evaluate(expression, {"x": key}) is member


def test_every_kind_the_offline_cluster_serves_has_its_api_resource() -> None:
    """The migration names the API resources of the kinds the offline API server knows, from its
    registry: a cluster-scoped PersistentVolume or a PodDisruptionBudget translate like a Pod."""
    for served in default_registry().types:
        found = kinds.api_resource(served.kind)
        assert (found.group, found.version, found.resource) == (
            served.group,
            served.version,
            served.plural,
        ), served.kind
        assert kinds.kind_of(served.group, served.plural) == served.kind
    with pytest.raises(NotTranslatable, match="no API resource known"):
        kinds.api_resource("cert-manager.io/v1/Certificate")
