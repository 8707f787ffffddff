"""CISO scenario loading: the built-in suite, user scenario directories, ITBench's live bundles,
ITBench-Lite directories, malformed scenario.yaml files, `itbench ciso scenarios`, and what the
agent-facing view never contains."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from ciso.scenarios.loader import (
    load_benchmark_scenarios,
    load_ciso_scenarios,
    suite_dir,
)
from ciso.scenarios.model import ResourceRef, ScenarioClass
from ciso.scenarios.reference import write_reference
from itbench.errors import InputError, UsageError
from tests._support.cli import REPO, SHARED, run_cli

# resolved: the loader reports real paths, and ../shared may be a link
BUNDLES = (SHARED / "corpora" / "itbench" / "ciso").resolve()
needs_bundles = pytest.mark.skipif(
    not BUNDLES.is_dir(), reason="../shared/corpora/itbench/ciso is absent (ITBench bundles)"
)

HOST_NETWORK_DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      hostNetwork: %s
      containers: [{name: web, image: nginx:1.25}]
"""


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    """Environments built from bundles go to a cache private to the test session."""
    monkeypatch.setenv("ITBENCH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


def write_user_scenario(root: Path, scenario_id: str = "my-host-net", **overrides) -> Path:
    """A valid scenario directory in our format; ``overrides`` replace scenario.yaml fields."""
    directory = root / scenario_id
    (directory / "violating").mkdir(parents=True)
    (directory / "compliant").mkdir()
    (directory / "violating" / "app.yaml").write_text(HOST_NETWORK_DEPLOYMENT % "true")
    (directory / "compliant" / "app.yaml").write_text(HOST_NETWORK_DEPLOYMENT % "false")
    spec = {
        "id": scenario_id,
        "cis_id": "5.2.5",
        "platform": "kubernetes",
        "requirement": "Workloads must not share the node's network namespace. Keep it tight.",
        "classes": ["kyverno", "opa-static"],
        "violating_resources": ["Deployment/shop/web"],
        "notes": "HIDDEN-NOTE-do-not-show",
    }
    spec.update(overrides)
    spec = {k: v for k, v in spec.items() if v is not None}
    (directory / "scenario.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    return directory


# --- the built-in suite -------------------------------------------------------------------------


def expected_builtin_classes() -> Counter[str]:
    """Classes on disk, read without the loader: scenario.yaml lists them, a bundle is one."""
    expected: Counter[str] = Counter()
    for path in suite_dir().glob("*/*/scenario.yaml"):
        expected.update(yaml.safe_load(path.read_text())["classes"])
    for path in suite_dir().glob("kyverno-update/*/info.json"):
        assert json.loads(path.read_text())["scenario_type"] == "Upd-CIS-b-K8s-Kyverno"
        expected["kyverno-update"] += 1
    return expected


def test_builtin_suite_loads_every_scenario_on_disk():
    result = load_ciso_scenarios(None)
    assert result.problems == ()
    assert Counter(s.scenario_class.value for s in result.scenarios) == expected_builtin_classes()
    assert expected_builtin_classes()["kyverno-update"] >= 5
    assert all(s.origin == "itbench-ciso" for s in result.scenarios)
    assert len({s.id for s in result.scenarios}) == len(result.scenarios)
    for s in result.scenarios:
        assert s.id == f"{s.base_id}.{s.scenario_class.value}"
        assert s.source is not None and s.source.name == s.base_id


def test_builtin_scenarios_find_their_reference_answers():
    missing = [s.id for s in load_ciso_scenarios(None).scenarios if not s.solution]
    assert missing == []
    for s in load_ciso_scenarios(None).scenarios:
        names = set(s.solution)
        assert (
            names
            == {
                ScenarioClass.KYVERNO: {"kyverno-policy.yaml"},
                ScenarioClass.KYVERNO_UPDATE: {"kyverno-policy.yaml"},
                ScenarioClass.KUBECTL_OPA: {"fetcher.sh", "policy.rego"},
                ScenarioClass.OPA_STATIC: {"fetch.sh", "policy.rego"},
                ScenarioClass.RHEL9_ANSIBLE_OPA: {"playbook.yml", "policy.rego"},
                ScenarioClass.KYVERNO_MIGRATE: {"kyverno-policy.yaml"},
            }[s.scenario_class]
        ), s.id


def test_builtin_ids_select_all_classes_or_one():
    every = load_ciso_scenarios("cis-k8s-5.2.5-host-network").scenarios
    assert {s.id for s in every} == {
        f"cis-k8s-5.2.5-host-network.{c}"
        for c in ("kyverno", "kubectl-opa", "opa-static", "kyverno-migrate")
    }
    one = load_benchmark_scenarios("cis-k8s-5.2.5-host-network.kyverno,update-host-ports")
    assert [s.id for s in one] == [
        "cis-k8s-5.2.5-host-network.kyverno",
        "update-host-ports.kyverno-update",
    ]


def test_unknown_builtin_id_is_a_usage_error_with_close_matches():
    with pytest.raises(UsageError) as raised:
        load_benchmark_scenarios("cis-k8s-5.2.5-host-netwrk")
    assert "unknown CISO scenario 'cis-k8s-5.2.5-host-netwrk'" in str(raised.value)
    assert "did you mean: cis-k8s-5.2.5-host-network" in str(raised.value)


def test_missing_directory_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="no such directory"):
        load_benchmark_scenarios(str(tmp_path / "nowhere"))


# --- user scenario directories ------------------------------------------------------------------


def test_user_scenario_expands_into_one_benchmark_scenario_per_class(tmp_path):
    directory = write_user_scenario(tmp_path / "mine")
    solution = directory / "solution"
    solution.mkdir()
    (solution / "kyverno-policy.yaml").write_text("kind: ClusterPolicy\n")
    scenarios = {s.id: s for s in load_benchmark_scenarios(str(tmp_path / "mine"))}
    assert sorted(scenarios) == ["my-host-net.kyverno", "my-host-net.opa-static"]
    kyverno, static = scenarios["my-host-net.kyverno"], scenarios["my-host-net.opa-static"]
    assert (kyverno.domain, kyverno.scenario_class) == ("ciso", "kyverno")
    assert kyverno.title == "CIS 5.2.5: Workloads must not share the node's network namespace."
    truth = kyverno.ground_truth
    assert truth.violating_resources == (ResourceRef("Deployment", "shop", "web"),)
    assert truth.violating == directory / "violating"
    assert truth.compliant == directory / "compliant"
    assert truth.origin == "user"
    assert kyverno.reference == {"kyverno-policy.yaml": solution / "kyverno-policy.yaml"}
    assert static.reference == {}  # solution/ lacks fetch.sh and policy.rego
    assert kyverno.inputs == {}
    assert static.inputs == {"static-resources": directory / "violating"}
    assert "Workloads must not share the node's network namespace." in kyverno.description
    assert "satisfiled" in kyverno.description  # ITBench's own wording, typo kept
    assert "`kubeconfig.yaml`" in kyverno.description
    assert "static-resources/" in static.description and "fetch.sh" in static.description


def test_nested_directories_are_searched_but_not_inside_a_scenario(tmp_path):
    write_user_scenario(tmp_path / "team-a" / "network")
    inner = write_user_scenario(tmp_path / "team-b", "outer-one")
    # a scenario.yaml inside an environment is data, not another scenario
    write_user_scenario(inner / "violating", "nested-one")
    ids = sorted(s.id for s in load_benchmark_scenarios(str(tmp_path)))
    assert ids == [
        "my-host-net.kyverno",
        "my-host-net.opa-static",
        "outer-one.kyverno",
        "outer-one.opa-static",
    ]


def test_rhel9_user_scenario_needs_host_trees(tmp_path):
    directory = tmp_path / "ssh"
    for env, value in (("violating", "yes"), ("compliant", "no")):
        config = directory / env / "host" / "etc" / "ssh" / "sshd_config"
        config.parent.mkdir(parents=True)
        config.write_text(f"X11Forwarding {value}\n")
    (directory / "scenario.yaml").write_text(
        "id: ssh-x11\nplatform: rhel9\nrequirement: Turn off X11 forwarding in sshd.\n"
        "classes: [rhel9-ansible-opa]\nviolating_resources: ['sshd//X11Forwarding',"
        " 'file///etc/ssh/sshd_config']\n"
    )
    (scenario,) = load_benchmark_scenarios(str(directory))
    assert scenario.id == "ssh-x11.rhel9-ansible-opa"
    assert "`inventory.ini`" in scenario.description and "rhel9_servers" in scenario.description
    # a host's setting may be a path: everything after the second "/" is its name
    assert scenario.ground_truth.violating_resources == (
        ResourceRef("sshd", "", "X11Forwarding"),
        ResourceRef("file", "", "/etc/ssh/sshd_config"),
    )
    shutil.rmtree(directory / "compliant" / "host")
    result = load_ciso_scenarios(str(directory))
    assert [p.message for p in result.problems] == [
        f"{directory}: compliant/host/: host tree is missing"
    ]


@pytest.mark.parametrize(
    ("attributes", "message"),
    [
        (
            "/etc/ssh/sshd_config: {mode: 0600}",
            "/etc/ssh/sshd_config.mode: 384 is not an octal mode string ('0600')",
        ),
        (
            "etc/ssh/sshd_config: {mode: '0600'}",
            "etc/ssh/sshd_config: expected an absolute path (/etc/...)",
        ),
        (
            "/etc/ssh/sshd_config: {mod: '0600'}",
            "/etc/ssh/sshd_config.mod: unknown key (did you mean 'mode'?)",
        ),
    ],
    ids=["unquoted-mode", "relative-path", "unknown-key"],
)
def test_rhel9_host_attributes_are_checked(tmp_path, attributes, message):
    directory = tmp_path / "ssh"
    for env in ("violating", "compliant"):
        config = directory / env / "host" / "etc" / "ssh" / "sshd_config"
        config.parent.mkdir(parents=True)
        config.write_text("X11Forwarding no\n")
    (directory / "scenario.yaml").write_text(
        "id: ssh-x11\nplatform: rhel9\nrequirement: Turn off X11 forwarding in sshd.\n"
        "classes: [rhel9-ansible-opa]\n"
    )
    (directory / "violating" / "host-attributes.yaml").write_text(
        "/etc/ssh/sshd_config: {mode: '0600', owner: root}\n"
    )
    assert load_ciso_scenarios(str(directory)).problems == ()
    (directory / "violating" / "host-attributes.yaml").write_text(attributes + "\n")
    result = load_ciso_scenarios(str(directory))
    path = directory / "violating" / "host-attributes.yaml"
    assert [p.message for p in result.problems] == [f"{path}: {message}"]


# --- malformed scenario.yaml files --------------------------------------------------------------

MALFORMED = {
    "unknown-key": (
        {"violating_resource": ["Deployment/shop/web"], "violating_resources": None},
        "violating_resource: unknown key (did you mean 'violating_resources'?); known keys: "
        "id, cis_id, platform, requirement, classes, violating_resources, notes, title, "
        "migrate_from, migrate_to",
    ),
    "misspelt-required-key": (
        {"requirment": "x", "requirement": None},
        "requirment: unknown key (did you mean 'requirement'?); known keys: "
        "id, cis_id, platform, requirement, classes, violating_resources, notes, title, "
        "migrate_from, migrate_to",
    ),
    "bad-class": (
        {"classes": ["kyverno", "kyvern"]},
        "classes[1]: 'kyvern' is not a CISO class (did you mean 'kyverno'?)",
    ),
    "class-of-other-platform": (
        {"classes": ["kyverno", "rhel9-ansible-opa"]},
        "classes[1]: 'rhel9-ansible-opa' runs on rhel9, but platform is 'kubernetes'",
    ),
    "bad-resource-ref": (
        {"violating_resources": ["Deployment/web"]},
        "violating_resources[0]: 'Deployment/web' is not Kind/namespace/name "
        "(cluster-scoped: Kind//name)",
    ),
    "slash-in-kubernetes-name": (
        {"violating_resources": ["Deployment/shop/web/api"]},
        "violating_resources[0]: 'Deployment/shop/web/api' is not Kind/namespace/name "
        "(a Kubernetes name holds no '/')",
    ),
    "resource-not-in-manifests": (
        {"violating_resources": ["Deployment/shop/api"]},
        "violating_resources[0]: Deployment/shop/api is not an object of the manifests in "
        "violating/",
    ),
    "missing-requirement": ({"requirement": None}, "requirement: required field is missing"),
    "bad-platform": (
        {"platform": "kubernets"},
        "platform: 'kubernets' is not a platform (did you mean 'kubernetes'?); use one of "
        "kubernetes, rhel9",
    ),
    "unsafe-id": (
        {"id": "../escape"},
        "id: '../escape' is not usable as a directory name (letters, digits, '.', '_', '-'; "
        "starting with a letter or digit; at most 120 characters)",
    ),
    "number-cis-id": ({"cis_id": 5.2}, "cis_id: expected a string, got float (quote it)"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_scenario_names_file_and_field_and_others_still_load(tmp_path, case, capsys):
    overrides, message = MALFORMED[case]
    write_user_scenario(tmp_path, "good-one")
    bad = write_user_scenario(tmp_path, "bad-one", **overrides)
    result = load_ciso_scenarios(str(tmp_path))
    assert [p.message for p in result.problems] == [f"{bad / 'scenario.yaml'}: {message}"]
    assert [s.id for s in result.scenarios] == ["good-one.kyverno", "good-one.opa-static"]
    loaded = load_benchmark_scenarios(str(tmp_path))
    assert [s.id for s in loaded] == ["good-one.kyverno", "good-one.opa-static"]
    assert (
        f"warning: skipped scenario: {bad / 'scenario.yaml'}: {message}" in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b"id: x\nclasses: [kyverno\nplatform: kubernetes\n",
            "invalid YAML at line 3, column 9: did not find expected ',' or ']'",
        ),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary content, expected a YAML text file"),
        (b"- id: x\n- platform: kubernetes\n", "expected one mapping of scenario fields, got list"),
        (b"id: \xff\xfe\n", "not UTF-8 text (byte 4)"),
    ],
    ids=["yaml-syntax", "binary", "not-a-mapping", "not-utf8"],
)
def test_unreadable_scenario_file_is_located(tmp_path, content, message):
    write_user_scenario(tmp_path, "good-one")
    bad = write_user_scenario(tmp_path, "bad-one")
    (bad / "scenario.yaml").write_bytes(content)
    result = load_ciso_scenarios(str(tmp_path))
    assert [p.message for p in result.problems] == [f"{bad / 'scenario.yaml'}: {message}"]
    assert [s.base_id for s in result.scenarios] == ["good-one", "good-one"]


def test_missing_environment_is_located(tmp_path):
    bad = write_user_scenario(tmp_path, "bad-one")
    shutil.rmtree(bad / "compliant")
    result = load_ciso_scenarios(str(tmp_path))
    assert [p.message for p in result.problems] == [f"{bad}: compliant/: directory is missing"]


def test_duplicate_ids_name_both_directories(tmp_path):
    first = write_user_scenario(tmp_path / "a", "same-id")
    second = write_user_scenario(tmp_path / "b", "same-id")
    result = load_ciso_scenarios(str(tmp_path))
    assert [p.message for p in result.problems] == [
        f"duplicate scenario id 'same-id': {first} and {second}"
    ]
    with pytest.raises(InputError, match="duplicate scenario id 'same-id'"):
        load_benchmark_scenarios(str(tmp_path))


# --- ITBench live bundles -----------------------------------------------------------------------


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@needs_bundles
def test_itbench_bundles_load_unchanged_with_derived_environments():
    before = _tree(BUNDLES)
    result = load_ciso_scenarios(str(BUNDLES))
    assert _tree(BUNDLES) == before  # nothing is written into the shared folder
    assert result.problems == ()
    by_id = {s.id: s for s in result.scenarios}
    assert sorted(by_id) == [
        "1.gen-cis-b-k8s-kyverno.kyverno",
        "2.gen-cis-b-k8s-kubectl-opa.kubectl-opa",
        "3.gen-cis-b-rhel9-ansible-opa.rhel9-ansible-opa",
        "4.upd-cis-b-k8s-kyverno.kyverno-update",
    ]
    for s in by_id.values():
        assert s.origin == "itbench-bundle"
        assert (
            BUNDLES not in s.violating.parents or s.scenario_class is ScenarioClass.KYVERNO_UPDATE
        )
        assert s.compliant is None or BUNDLES not in s.compliant.parents


def _objects(directory: Path) -> list[dict]:
    return [
        d for p in sorted(directory.glob("*.yaml")) for d in yaml.safe_load_all(p.read_text()) if d
    ]


@needs_bundles
@pytest.mark.parametrize(
    ("bundle", "built_from"),
    [
        ("1.gen-cis-b-k8s-kyverno", "1.gen-cis-b-k8s-kyverno/manifests/application.yaml"),
        ("2.gen-cis-b-k8s-kubectl-opa", "2.gen-cis-b-k8s-kubectl-opa/info.json"),
    ],
)
def test_host_network_bundles_get_violating_and_compliant_clusters(bundle, built_from):
    (s,) = load_ciso_scenarios(str(BUNDLES / bundle)).scenarios
    assert s.cis_id == "5.2.5"
    assert s.requirement == (
        "Minimize the admission of containers wishing to share the host network namespace."
    )
    assert s.violating_resources == (ResourceRef("Deployment", "paa", "nginx-deployment"),)
    assert s.metadata["environment_built_from"].startswith(f"{built_from}: injection description")
    for directory, host_network in ((s.violating, True), (s.compliant, False)):
        namespace, deployment = _objects(directory)
        assert (namespace["kind"], namespace["metadata"]["name"]) == ("Namespace", "paa")
        assert deployment["metadata"] == {"name": "nginx-deployment", "namespace": "paa"}
        assert deployment["spec"]["template"]["spec"]["hostNetwork"] is host_network


@needs_bundles
def test_kyverno_bundle_reference_is_its_example_policy():
    (s,) = load_ciso_scenarios(str(BUNDLES / "1.gen-cis-b-k8s-kyverno")).scenarios
    assert s.solution == {
        "kyverno-policy.yaml": BUNDLES / "1.gen-cis-b-k8s-kyverno/examples/example_policy.yaml"
    }


@needs_bundles
def test_rhel9_bundle_gets_host_trees_and_says_why_it_has_no_example_reference():
    (s,) = load_ciso_scenarios(str(BUNDLES / "3.gen-cis-b-rhel9-ansible-opa")).scenarios
    assert (s.scenario_class, s.cis_id) == (ScenarioClass.RHEL9_ANSIBLE_OPA, "5.2.12")
    assert s.violating_resources == (ResourceRef("sshd", "", "X11Forwarding"),)
    violating = (s.violating / "host/etc/ssh/sshd_config").read_text().splitlines()
    compliant = (s.compliant / "host/etc/ssh/sshd_config").read_text().splitlines()
    assert "X11Forwarding yes" in violating and "X11Forwarding no" not in violating
    assert "X11Forwarding no" in compliant and "X11Forwarding yes" not in compliant
    assert s.metadata["environment_built_from"].startswith(
        "3.gen-cis-b-rhel9-ansible-opa/info.json: injection description"
    )
    note = "examples/example_policy.rego is Rego v0, which OPA 1.x rejects"
    if s.solution:  # a built-in answer for the same control stands in
        assert s.metadata["reference_from"].endswith(f"({note})")
        assert set(s.solution) == {"playbook.yml", "policy.rego"}
    else:
        assert s.metadata["reference_note"] == note


@needs_bundles
def test_update_bundle_reads_eval_config_and_existing_policies():
    (s,) = load_ciso_scenarios(str(BUNDLES / "4.upd-cis-b-k8s-kyverno")).scenarios
    bundle = BUNDLES / "4.upd-cis-b-k8s-kyverno"
    assert s.violating == bundle / "manifests" and s.compliant is None
    assert s.violating_resources == (ResourceRef("Pod", "paa", "test-untrusted-registry"),)
    assert s.update is not None
    assert s.update.existing_policies == (bundle / "manifests/existing-policy.yaml",)
    assert s.update.unchanged_policies == ("service-account-requirements",)
    assert [c["policy_name"] for c in s.update.check_violations] == ["container-security-controls"]
    assert s.solution == {"kyverno-policy.yaml": bundle / "examples/example-fix-policy.yaml"}
    (public,) = load_benchmark_scenarios(str(bundle))
    assert public.title.startswith("Kyverno Policy Adapting")
    assert public.description.startswith("Currently, the following Kyverno policies are deployed")
    assert "The cluster's kubeconfig is at `kubeconfig.yaml`." in public.description


def test_bundle_with_unknown_scenario_type_is_located(tmp_path):
    bundle = tmp_path / "5.mystery"
    bundle.mkdir()
    (bundle / "info.json").write_text(
        json.dumps({"scenario_type": "Gen-CIS-b-K8s-Kyvern", "goal": "x"})
    )
    result = load_ciso_scenarios(str(tmp_path))
    assert [p.message for p in result.problems] == [
        f"{bundle / 'info.json'}: scenario_type: 'Gen-CIS-b-K8s-Kyvern' is not an ITBench CISO "
        "scenario type (did you mean 'Gen-CIS-b-K8s-Kyverno'?); known: Gen-CIS-b-K8s-Kyverno, "
        "Gen-CIS-b-K8s-Kubectl-OPA, Gen-CIS-b-RHEL9-Ansible-OPA, Upd-CIS-b-K8s-Kyverno"
    ]


# --- ITBench-Lite -------------------------------------------------------------------------------


def write_lite(root: Path, with_compliant: bool = True) -> Path:
    directory = root / "k8s-opa-static-cis-5.2.5"
    (directory / "static-resources").mkdir(parents=True)
    (directory / "static-resources" / "app.yaml").write_text(HOST_NETWORK_DEPLOYMENT % "true")
    if with_compliant:
        (directory / "static-resources-compliant").mkdir()
        (directory / "static-resources-compliant" / "app.yaml").write_text(
            HOST_NETWORK_DEPLOYMENT % "false"
        )
    (directory / "ground-truth").mkdir()
    (directory / "ground-truth" / "fetch.sh").write_text("#!/usr/bin/env bash\n")
    (directory / "ground-truth" / "policy.rego").write_text("package check\n")
    (directory / "problem.md").write_text(
        "# Host network\n\nCheck that no workload shares the host network namespace.\n"
    )
    return directory


def test_itbench_lite_directory_loads_as_opa_static(tmp_path):
    directory = write_lite(tmp_path)
    (s,) = load_benchmark_scenarios(str(tmp_path))
    assert s.id == "k8s-opa-static-cis-5.2.5.opa-static"
    assert s.title == "CIS 5.2.5: Host network"
    assert s.inputs == {"static-resources": directory / "static-resources"}
    assert s.description.startswith("# Host network\n\nCheck that no workload shares")
    truth = s.ground_truth
    assert truth.origin == "itbench-lite" and truth.violating_resources == ()
    assert truth.compliant == directory / "static-resources-compliant"
    assert s.reference == {
        "fetch.sh": directory / "ground-truth/fetch.sh",
        "policy.rego": directory / "ground-truth/policy.rego",
    }


def test_itbench_lite_without_compliant_resources_says_how_it_is_scored(tmp_path):
    write_lite(tmp_path, with_compliant=False)
    (s,) = load_benchmark_scenarios(str(tmp_path))
    assert s.ground_truth.compliant is None
    assert s.metadata["has_compliant_environment"] is False
    assert "every criterion scores 0" in s.metadata["compliant_note"]


# --- what the agent sees ------------------------------------------------------------------------


def _visible(scenario) -> str:
    return json.dumps(
        {
            "dump": scenario.model_dump(mode="json", by_alias=True),
            "description": scenario.description,
            "inputs": {k: str(v) for k, v in scenario.inputs.items()},
        }
    )


def test_agent_view_never_holds_compliant_environment_solution_or_notes(tmp_path):
    directory = write_user_scenario(tmp_path / "mine")
    (directory / "solution").mkdir()
    (directory / "solution" / "kyverno-policy.yaml").write_text("SOLUTION-TEXT\n")
    write_lite(tmp_path / "lite")
    scenarios = load_benchmark_scenarios(str(tmp_path)) + load_benchmark_scenarios(None)
    if BUNDLES.is_dir():
        scenarios += load_benchmark_scenarios(str(BUNDLES))
    assert len(scenarios) > 40
    for scenario in scenarios:
        truth = scenario.ground_truth
        visible = _visible(scenario)
        assert "ground_truth" not in visible and "reference" not in scenario.model_dump()
        if truth.compliant is not None:
            assert str(truth.compliant) not in visible, scenario.id
            assert "compliant" not in " ".join(str(v) for v in scenario.inputs.values())
        for source in truth.solution.values():
            assert str(source) not in visible, scenario.id
        if truth.notes:
            assert truth.notes.strip() not in visible, scenario.id
        if truth.source is not None:
            assert str(truth.source) not in json.dumps(scenario.metadata), scenario.id
    mine = [s for s in scenarios if s.id.startswith("my-host-net")]
    assert mine and all("HIDDEN-NOTE" not in _visible(s) for s in mine)
    assert all("SOLUTION-TEXT" not in _visible(s) for s in mine)


# --- reference answers --------------------------------------------------------------------------


def test_write_reference_copies_answers_under_workspace_names(tmp_path):
    write_lite(tmp_path / "lite")
    (s,) = load_benchmark_scenarios(str(tmp_path / "lite"))
    workspace = tmp_path / "ws"
    write_reference(s, workspace)
    assert sorted(p.name for p in workspace.iterdir()) == ["fetch.sh", "policy.rego"]
    assert os.access(workspace / "fetch.sh", os.X_OK)
    assert (workspace / "policy.rego").read_text() == "package check\n"


def test_write_reference_for_builtin_classes(tmp_path):
    wanted = "cis-k8s-5.2.5-host-network.kubectl-opa,update-trusted-registry.kyverno-update"
    for scenario in load_benchmark_scenarios(wanted):
        workspace = tmp_path / scenario.id
        write_reference(scenario, workspace)
        for name, source in scenario.reference.items():
            assert (workspace / name).read_bytes() == Path(source).read_bytes()
            if name.endswith(".sh"):
                assert os.access(workspace / name, os.X_OK)


def test_write_reference_without_answer_says_why(tmp_path):
    directory = write_user_scenario(tmp_path / "mine")
    (s, _) = load_benchmark_scenarios(str(directory))
    with pytest.raises(InputError, match=r"scenario my-host-net.kyverno has no reference answer"):
        write_reference(s, tmp_path / "ws")


# --- the built-in kyverno-update scenarios, checked with the real Kyverno engine --------------


def _apply(policy: Path, resources: Path) -> list[dict]:
    proc = run_cli(
        ["kyverno", "apply", str(policy), "--resource", str(resources), "--format", "json"]
    )
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


UPDATE_IDS = sorted(p.name for p in (suite_dir() / "kyverno-update").iterdir())
#: The one-line change that makes each test Pod meet the new requirement (a near miss of it).
CORRECTIONS = {
    "update-drop-capabilities": ("- NET_RAW", "- all"),
    "update-host-ports": ("hostPort: 8080", "hostPort: 0"),
    "update-memory-limits": ('cpu: "1"', "memory: 1Gi"),
    "update-readonly-root-fs": ("readOnlyRootFilesystem: false", "readOnlyRootFilesystem: true"),
    "update-trusted-registry": ("docker.io/library/nginx", "registry.corp.example/nginx"),
}


def test_every_update_scenario_has_a_correction():
    assert sorted(CORRECTIONS) == UPDATE_IDS


@pytest.mark.parametrize("base_id", UPDATE_IDS)
def test_builtin_update_scenario_holds_as_documented(base_id, tmp_path):
    (s,) = load_ciso_scenarios(base_id).scenarios
    app = s.violating / "application.yaml"
    existing = s.update.existing_policies[0]
    existing_names = [d["metadata"]["name"] for d in yaml.safe_load_all(existing.read_text())]
    assert len(existing_names) >= 2
    (check,) = s.update.check_violations
    edited = check["policy_name"]
    (unchanged,) = s.update.unchanged_policies
    assert {edited, unchanged} <= set(existing_names) and edited != unchanged
    assert check["expected_result"] == "fail"
    target = (check["resource"]["kind"], check["resource"]["namespace"], check["resource"]["name"])
    # before the edit every existing policy passes the test resource
    before = _apply(existing, app)
    assert before and {r["status"] for r in before} == {"pass"}
    # the reference is the edited policy alone, under the same name, and it fails the resource
    (reference,) = yaml.safe_load_all(s.solution["kyverno-policy.yaml"].read_text())
    assert reference["metadata"]["name"] == edited
    after = [r for r in _apply(s.solution["kyverno-policy.yaml"], app) if r["policy"] == edited]
    on_target = [r for r in after if (r["kind"], r["namespace"], r["name"]) == target]
    assert on_target and on_target[0]["status"] == "fail"  # ITBench reads the first result
    assert s.violating_resources == (ResourceRef(*target),)
    # and the edited policy passes the same Pod once it meets the new requirement
    wrong, right = CORRECTIONS[base_id]
    assert app.read_text().count(wrong) == 1
    corrected = tmp_path / "corrected.yaml"
    corrected.write_text(app.read_text().replace(wrong, right))
    results = _apply(s.solution["kyverno-policy.yaml"], corrected)
    assert results and {r["status"] for r in results} == {"pass"}
    assert edited in s.requirement and unchanged in s.requirement


# --- the command --------------------------------------------------------------------------------


def test_cli_lists_scenarios_as_table_and_json(tmp_path):
    write_user_scenario(tmp_path)
    write_lite(tmp_path / "lite")
    table = run_cli(["ciso", "scenarios", "--scenarios", str(tmp_path)])
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["ID", "CLASS", "PLATFORM", "CIS", "ORIGIN", "VIOLATING"]
    assert [line.split() for line in lines[1:]] == [
        [
            "k8s-opa-static-cis-5.2.5.opa-static",
            "opa-static",
            "kubernetes",
            "5.2.5",
            "itbench-lite",
            "0",
        ],
        ["my-host-net.kyverno", "kyverno", "kubernetes", "5.2.5", "user", "1"],
        ["my-host-net.opa-static", "opa-static", "kubernetes", "5.2.5", "user", "1"],
    ]
    assert "HIDDEN-NOTE" not in table.stdout
    as_json = run_cli(["ciso", "scenarios", "--scenarios", str(tmp_path), "--format", "json"])
    document = json.loads(as_json.stdout)
    assert [r["id"] for r in document["scenarios"]] == [line.split()[0] for line in lines[1:]]
    assert document["errors"] == []


def test_cli_reports_malformed_scenarios_with_exit_1(tmp_path):
    write_user_scenario(tmp_path, "good-one")
    bad = write_user_scenario(tmp_path, "bad-one", classes=["kyvern"])
    proc = run_cli(["ciso", "scenarios", "--scenarios", str(tmp_path), "--format", "json"])
    assert proc.returncode == 1
    document = json.loads(proc.stdout)
    assert [r["id"] for r in document["scenarios"]] == ["good-one.kyverno", "good-one.opa-static"]
    message = f"{bad / 'scenario.yaml'}: classes[0]: 'kyvern' is not a CISO class (did you mean 'kyverno'?)"
    assert document["errors"] == [{"directory": str(bad), "message": message}]
    assert f"error: {message}" in proc.stderr


def test_cli_missing_path_is_a_usage_error(tmp_path):
    proc = run_cli(["ciso", "scenarios", "--scenarios", str(tmp_path / "nowhere")])
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "no such directory" in proc.stderr


def test_cli_builtin_suite_lists_every_class():
    proc = run_cli(["ciso", "scenarios", "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    classes = Counter(r["class"] for r in json.loads(proc.stdout)["scenarios"])
    assert classes == expected_builtin_classes()


# --- packaging ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_wheel_ships_the_suite_and_update_references(tmp_path):
    import subprocess
    import sys
    import zipfile

    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("itbench-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    on_disk = [
        p.relative_to(REPO).as_posix()
        for root in [suite_dir(), *(REPO / "policies" / "kyverno").glob("update-*")]
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    ]
    assert any(n.endswith("host/etc/ssh/sshd_config") for n in on_disk)
    assert [n for n in on_disk if n not in names] == []
