"""Live mode (``--kubeconfig``): kyverno and kubectl-opa trials deployed on a cluster reached
through the Kubernetes client. The cluster is itbench's own API server started here (it serves
PolicyReports through the ciso report producer, so it stands in for a cluster running Kyverno);
nothing is mocked: real HTTP, real kubectl, the real sandbox.

Every test that touches the cluster also checks that the trial left nothing behind."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from ciso.environments import report_producer, trial_environment
from ciso.evaluation.trial import evaluate_trial
from ciso.live import LiveSettings
from ciso.live.client import LiveCluster, LiveError
from ciso.live.deploy import deployed
from ciso.live.kubeconfig import flattened
from ciso.live.naming import TRIAL_LABEL, plan_deployment, trial_suffix
from ciso.scenarios.model import ResourceRef, ScenarioClass
from itbench.cluster import RunningCluster, start_cluster
from itbench.errors import InputError
from tests._support.ciso import (
    K8S,
    benchmark_scenario,
    ciso_scenario,
    kubectl_missing,
    needs_sandbox,
    trial_dir,
)

KYVERNO = benchmark_scenario(ciso_scenario(K8S, ScenarioClass.KYVERNO))
KUBECTL = benchmark_scenario(ciso_scenario(K8S, ScenarioClass.KUBECTL_OPA))
#: What the cluster holds before any trial: a built-in ClusterRole, as a real cluster has.
BUILT_IN = [
    {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": "cluster-admin"},
        "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}],
    }
]
needs_kubectl = pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))


@pytest.fixture(scope="module")
def cluster() -> Iterator[RunningCluster]:
    with start_cluster(BUILT_IN, report_producer=report_producer) as running:
        yield running


@pytest.fixture
def live(cluster: RunningCluster) -> Iterator[LiveSettings]:
    """Live mode for one test (its trial environments and evaluations are given it, as the run's
    session gives them), with waits short enough for a cluster that reports at once."""
    settings = LiveSettings(
        kubeconfig=cluster.kubeconfig_path,
        scan_timeout_s=5.0,
        scan_settle_s=0.3,
        delete_timeout_s=10.0,
        poll_s=0.1,
    )
    yield settings
    assert leftovers(cluster) == [], "the trial left objects on the cluster"


def leftovers(cluster: RunningCluster) -> list[str]:
    """Objects a trial created that are still there: anything labelled by a trial, any namespace
    or ClusterPolicy besides the cluster's own."""
    found = []
    for obj in cluster.objects():
        meta = obj.get("metadata") or {}
        if TRIAL_LABEL in (meta.get("labels") or {}) or "-itb-" in str(meta.get("namespace", "")):
            found.append(f"{obj['kind']}/{meta.get('namespace', '')}/{meta['name']}")
        elif obj["kind"] in ("ClusterPolicy", "Policy"):
            found.append(f"{obj['kind']}/{meta['name']}")
        elif obj["kind"] == "Namespace" and "-itb-" in meta["name"]:
            found.append(f"Namespace/{meta['name']}")
    return sorted(found)


# -- names ---------------------------------------------------------------------------------------


def rbac_objects() -> list[dict[str, Any]]:
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}},
        {
            "apiVersion": "v1",
            "kind": "ServiceAccount",
            "metadata": {"name": "deployer", "namespace": "team-a"},
        },
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRole",
            "metadata": {"name": "reader"},
            "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}],
        },
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRoleBinding",
            "metadata": {"name": "deployer-reader"},
            "roleRef": {
                "apiGroup": "rbac.authorization.k8s.io",
                "kind": "ClusterRole",
                "name": "reader",
            },
            "subjects": [{"kind": "ServiceAccount", "name": "deployer", "namespace": "team-a"}],
        },
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRoleBinding",
            "metadata": {"name": "ci-admin"},
            "roleRef": {
                "apiGroup": "rbac.authorization.k8s.io",
                "kind": "ClusterRole",
                "name": "cluster-admin",
            },
            "subjects": [{"kind": "ServiceAccount", "name": "deployer", "namespace": "team-a"}],
        },
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "settings", "namespace": "kube-system"},
            "data": {"a": "b"},
        },
    ]


def test_names_move_into_the_trial_and_back() -> None:
    plan = plan_deployment(
        rbac_objects(), "abc123", lambda ref, obj: ref == ResourceRef("ClusterRole", "", "x")
    )
    by_ref = {
        ResourceRef(o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"]): o
        for o in plan.objects
    }
    assert sorted(map(str, by_ref)) == [
        "ClusterRole//reader-itb-abc123",
        "ClusterRoleBinding//ci-admin-itb-abc123",
        "ClusterRoleBinding//deployer-reader-itb-abc123",
        "ConfigMap/kube-system/settings",
        "Namespace//team-a-itb-abc123",
        "ServiceAccount/team-a-itb-abc123/deployer",
    ]
    assert plan.objects[0]["kind"] == "Namespace"
    binding = by_ref[ResourceRef("ClusterRoleBinding", "", "deployer-reader-itb-abc123")]
    assert binding["roleRef"]["name"] == "reader-itb-abc123"
    assert binding["subjects"][0]["namespace"] == "team-a-itb-abc123"
    # a roleRef to a ClusterRole the environment does not declare (a built-in) keeps its name
    admin = by_ref[ResourceRef("ClusterRoleBinding", "", "ci-admin-itb-abc123")]
    assert admin["roleRef"]["name"] == "cluster-admin"
    assert all(o["metadata"]["labels"][TRIAL_LABEL] == "abc123" for o in plan.objects)
    assert plan.scenario_ref(ResourceRef("ServiceAccount", "team-a-itb-abc123", "deployer")) == (
        ResourceRef("ServiceAccount", "team-a", "deployer")
    )
    assert plan.scenario_ref(ResourceRef("ClusterRole", "", "reader-itb-abc123")) == ResourceRef(
        "ClusterRole", "", "reader"
    )
    # an object the cluster derived keeps its name, in the scenario's namespace
    assert plan.scenario_ref(ResourceRef("Pod", "team-a-itb-abc123", "web-1")) == ResourceRef(
        "Pod", "team-a", "web-1"
    )


def test_an_object_the_cluster_already_has_is_used_not_created() -> None:
    objects = [*BUILT_IN, *rbac_objects()]
    plan = plan_deployment(objects, "abc123", lambda ref, obj: ref.name == "cluster-admin")
    names = [o["metadata"]["name"] for o in plan.objects]
    assert "cluster-admin" not in names and "cluster-admin-itb-abc123" not in names
    admin = next(o for o in plan.objects if o["metadata"]["name"] == "ci-admin-itb-abc123")
    assert admin["roleRef"]["name"] == "cluster-admin"


def test_the_suffix_is_one_per_trial(tmp_path: Path) -> None:
    one = trial_suffix("s.kyverno", tmp_path / "s" / "1")
    assert one == trial_suffix("s.kyverno", tmp_path / "s" / "1")
    assert one != trial_suffix("s.kyverno", tmp_path / "s" / "2")
    assert one != trial_suffix("s.kubectl-opa", tmp_path / "s" / "1")


# -- deploying and cleaning up -------------------------------------------------------------------


def test_deploy_keeps_built_ins_and_removes_everything_it_created(
    cluster: RunningCluster, live: LiveSettings
) -> None:
    client = LiveCluster.connect(live.kubeconfig)
    with deployed(client, [*BUILT_IN, *rbac_objects()], "d00001", live) as deployment:
        rbac = "rbac.authorization.k8s.io/v1"
        assert client.exists(rbac, ResourceRef("ClusterRole", "", "reader-itb-d00001"))
        binding = client.get(rbac, ResourceRef("ClusterRoleBinding", "", "ci-admin-itb-d00001"))
        assert binding is not None and binding["roleRef"]["name"] == "cluster-admin"
        assert client.exists("v1", ResourceRef("ServiceAccount", "team-a-itb-d00001", "deployer"))
        assert deployment.plan.namespaces["kube-system"] == "kube-system"
    rbac = "rbac.authorization.k8s.io/v1"
    assert client.exists(rbac, ResourceRef("ClusterRole", "", "cluster-admin"))  # not ours


def test_cleanup_runs_when_the_block_fails(cluster: RunningCluster, live: LiveSettings) -> None:
    client = LiveCluster.connect(live.kubeconfig)
    with (
        pytest.raises(RuntimeError, match="agent crashed"),
        deployed(client, rbac_objects(), "d00002", live),
    ):
        assert leftovers(cluster) != []
        raise RuntimeError("agent crashed")
    # the live fixture asserts that nothing is left


def test_leftovers_of_an_interrupted_run_are_swept_first(
    cluster: RunningCluster, live: LiveSettings
) -> None:
    client = LiveCluster.connect(live.kubeconfig)
    stale = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "stale", "namespace": "default", "labels": {TRIAL_LABEL: "d00003"}},
    }
    client.create(stale)
    with deployed(client, rbac_objects(), "d00003", live):
        assert not client.exists("v1", ResourceRef("ConfigMap", "default", "stale"))


def test_an_object_the_cluster_refuses_names_itself(
    cluster: RunningCluster, live: LiveSettings
) -> None:
    client = LiveCluster.connect(live.kubeconfig)
    bad = {"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g"}}
    with (
        pytest.raises(LiveError, match="Gadget"),
        deployed(client, [*rbac_objects(), bad], "d00004", live),
    ):
        pass


# -- the agent's environment ---------------------------------------------------------------------


def _server_of(cluster: RunningCluster) -> str:
    """The server address the live cluster's own kubeconfig names (its credential included: the
    offline cluster standing in for a live one requires its token)."""
    config = yaml.safe_load(Path(cluster.kubeconfig_path).read_text())
    return config["clusters"][0]["cluster"]["server"]


@needs_kubectl
def test_a_live_and_an_offline_run_coexist_in_one_process(
    cluster: RunningCluster, tmp_path: Path
) -> None:
    """Each run's session carries its own cluster: opening an offline run after a live one
    leaves the live one live (module state would have switched both)."""
    from ciso.plugin import domain
    from itbench.runner.benchmark import RunRequest

    options = {"live_kubeconfig": cluster.kubeconfig_path}
    live_run = domain.open_run(
        RunRequest("ciso", output_dir=tmp_path / "a", domain_options=options)
    )
    offline_run = domain.open_run(RunRequest("ciso", output_dir=tmp_path / "b"))
    for run, on_live_cluster in ((live_run, True), (offline_run, False)):
        workspace = tmp_path / f"trial-{on_live_cluster}"
        workspace.mkdir()
        assert run.trial_environment is not None
        with run.trial_environment(KYVERNO, workspace) as env:
            config = yaml.safe_load(Path(env["KUBECONFIG"]).read_text())
            server = config["clusters"][0]["cluster"]["server"]
            assert (server == _server_of(cluster)) is on_live_cluster, server
    assert leftovers(cluster) == []


@needs_kubectl
def test_the_agent_works_on_the_live_cluster_under_the_trial_names(
    cluster: RunningCluster, live: LiveSettings, tmp_path: Path
) -> None:
    workspace = tmp_path / "trial"
    workspace.mkdir()
    suffix = trial_suffix(KYVERNO.id, workspace)
    policy = (K8S / "solution" / "kyverno-policy.yaml").read_text()
    with trial_environment(KYVERNO, workspace, live) as env:
        kubeconfig = env["KUBECONFIG"]
        assert Path(kubeconfig) == workspace / "kubeconfig.yaml"
        assert yaml.safe_load(Path(kubeconfig).read_text())["clusters"][0]["cluster"]["server"] == (
            _server_of(cluster)
        )
        got = subprocess.run(
            ["kubectl", "get", "deployments", "-n", f"paa-itb-{suffix}", "-o", "name"],
            env={"KUBECONFIG": kubeconfig, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert got.returncode == 0, got.stderr
        assert got.stdout.split() == ["deployment.apps/web-hostnet", "deployment.apps/web-plain"]
        applied = subprocess.run(
            ["kubectl", "apply", "-f", "-"],
            input=policy,
            env={"KUBECONFIG": kubeconfig, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert applied.returncode == 0, applied.stderr
    record = json.loads((workspace / ".itbench" / "cluster-applied.json").read_text())
    assert [p["metadata"]["name"] for p in record["applied"]] == [
        yaml.safe_load(policy)["metadata"]["name"]
    ]
    assert json.loads((workspace / ".itbench" / "live.json").read_text())["suffix"] == suffix


def test_an_environment_the_cluster_cannot_hold_fails_and_leaves_nothing(
    live: LiveSettings, tmp_path: Path
) -> None:
    source = tmp_path / "scenario"
    shutil.copytree(K8S, source)
    (source / "violating" / "gadget.yaml").write_text(
        "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: paa}\n"
    )
    scenario = benchmark_scenario(ciso_scenario(source, ScenarioClass.KYVERNO))
    workspace = tmp_path / "trial"
    workspace.mkdir()
    with (
        pytest.raises(LiveError, match="the cluster serves no Gadget in example.com/v1"),
        trial_environment(scenario, workspace, live),
    ):
        raise AssertionError("the agent must not start")
    # the live fixture asserts that the namespace and workloads created before it are gone


# -- kyverno -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "scores"),
    [
        ("correct", (1, 1, 1.0, 1.0)),
        # a Pod-only policy: the CronJob is missed (the cluster derives no Pods from it)
        ("misses-tricky", (1, 0, 0.5, 1.0)),
        # flags web-plain too: 2 of 3 flagged objects are violating, the compliant one fails
        ("too-broad", (1, 0, 1.0, round(2 / 3, 4))),
    ],
)
def test_kyverno_scores_from_the_clusters_policy_reports(
    live: LiveSettings, tmp_path: Path, case: str, scores: tuple
) -> None:
    trial = trial_dir(tmp_path, "kyverno", case)
    result = evaluate_trial(KYVERNO, trial, live)
    names = ("itbench_pass", "strict_pass", "resource_recall", "resource_precision")
    assert result.scores == dict(zip(names, scores, strict=True))
    assert result.details["engines"]["kyverno"].startswith("live-cluster-kyverno ")


@pytest.mark.parametrize("case", ["correct", "misses-tricky", "too-broad"])
def test_kyverno_live_agrees_with_the_offline_engine(
    live: LiveSettings, tmp_path: Path, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same reports decide, reached two ways: the cluster's background scan under the
    trial's names, and the offline scan of the declared objects."""
    live_result = evaluate_trial(KYVERNO, trial_dir(tmp_path / "live", "kyverno", case), live)
    monkeypatch.setenv("ITBENCH_KYVERNO_ENGINE", "itbench")
    offline = evaluate_trial(KYVERNO, trial_dir(tmp_path / "offline", "kyverno", case))
    assert live_result.scores == offline.scores
    live_envs, offline_envs = live_result.details["environments"], offline.details["environments"]
    assert (
        live_envs["violating"]["violating_caught"] == offline_envs["violating"]["violating_caught"]
    )
    # live Pods and ReplicaSets have the cluster's random names: their reports count for their
    # declared owner, which the offline evaluator lists beside them
    derived = ("Pod/", "ReplicaSet/", "Job/")
    for environment in ("violating", "compliant"):
        assert live_envs[environment]["failed"] == [
            f for f in offline_envs[environment]["failed"] if not f.startswith(derived)
        ]


def test_kyverno_live_without_a_policy_deploys_nothing(live: LiveSettings, tmp_path: Path) -> None:
    result = evaluate_trial(KYVERNO, trial_dir(tmp_path, "kyverno", "empty"), live)
    assert result.scores["strict_pass"] == 0
    assert result.details["failure"]["step"] == "policies"


def test_kyverno_policy_the_cluster_refuses_is_the_reason(
    live: LiveSettings, tmp_path: Path
) -> None:
    policy = yaml.safe_load((K8S / "solution" / "kyverno-policy.yaml").read_text())
    policy["spec"]["validationFailureAction"] = "Sideways"
    trial = tmp_path / "trial"
    trial.mkdir()
    (trial / "policy.yaml").write_text(yaml.safe_dump(policy))
    result = evaluate_trial(KYVERNO, trial, live)
    assert result.scores["itbench_pass"] == 0 and result.scores["strict_pass"] == 0
    failure = result.details["failure"]
    assert failure["step"] == "scan (violating)"
    assert failure["reason"].startswith("the live cluster refused every policy: creating ")
    assert "Sideways" in failure["reason"]


# -- kubectl-opa ---------------------------------------------------------------------------------


@needs_sandbox
@needs_kubectl
@pytest.mark.parametrize(
    ("case", "scores", "failed_step"),
    [
        ("correct", (1, 1, 1.0), None),
        ("misses-tricky", (1, 0, 0.5), "rego (leave-one-in CronJob/paa/backup-hostnet)"),
        ("too-broad", (1, 0, 1.0), "rego (compliant)"),
    ],
)
def test_kubectl_opa_fetcher_runs_against_the_live_api(
    live: LiveSettings, tmp_path: Path, case: str, scores: tuple, failed_step: str | None
) -> None:
    result = evaluate_trial(KUBECTL, trial_dir(tmp_path, "kubectl-opa", case), live)
    names = ("itbench_pass", "strict_pass", "resource_recall")
    assert result.scores == dict(zip(names, scores, strict=True))
    assert result.details["engines"]["cluster"] == "live cluster (--kubeconfig)"
    assert set(result.details["environments"]) == {
        "violating",
        "compliant",
        "leave-one-in Deployment/paa/web-hostnet",
        "leave-one-in CronJob/paa/backup-hostnet",
    }
    assert result.details.get("failure", {}).get("step") == failed_step


# -- the command line ----------------------------------------------------------------------------


@needs_sandbox
@needs_kubectl
def test_ciso_run_with_kubeconfig_runs_live_and_cleans_up(
    cluster: RunningCluster, itbench_bin: str, tmp_path: Path
) -> None:
    scenarios = tmp_path / "scenarios"
    shutil.copytree(K8S, scenarios / K8S.name)
    out = tmp_path / "out"
    done = subprocess.run(
        [
            itbench_bin,
            "ciso",
            "run",
            "--scenarios",
            str(scenarios),
            "--agent",
            "oracle",
            "--kubeconfig",
            str(cluster.kubeconfig_path),
            "--live-scan-timeout",
            "10",
            "--output",
            str(out),
            "--format",
            "json",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    results = {r["incident_id"]: r for r in json.loads(done.stdout)["raw_results"]}
    for class_ in ("kyverno", "kubectl-opa"):
        row = results[f"fixture-k8s-5.2.5-host-network.{class_}"]
        assert row["scores"]["strict_pass"] == 1, row
        details = json.loads(
            (out / f"fixture-k8s-5.2.5-host-network.{class_}" / "1" / "evaluation.json").read_text()
        )["details"]
        assert "live" in json.dumps(details["engines"]), details["engines"]
    assert leftovers(cluster) == []


def test_an_unreachable_cluster_fails_before_any_trial(itbench_bin: str, tmp_path: Path) -> None:
    dead = tmp_path / "dead.yaml"
    dead.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "x",
                "contexts": [{"name": "x", "context": {"cluster": "x", "user": "x"}}],
                "clusters": [{"name": "x", "cluster": {"server": "http://127.0.0.1:9"}}],
                "users": [{"name": "x", "user": {}}],
            }
        )
    )
    done = subprocess.run(
        [itbench_bin, "ciso", "run", "--kubeconfig", str(dead), "--output", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3
    assert f"--kubeconfig {dead}: the cluster does not answer: " in done.stderr
    assert "Connection refused" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "o").exists()


def test_only_the_ciso_domain_has_the_live_option(itbench_bin: str) -> None:
    ciso_help = subprocess.run(
        [itbench_bin, "ciso", "eval", "--help"], capture_output=True, text=True, timeout=60
    )
    finops_help = subprocess.run(
        [itbench_bin, "finops", "run", "--help"], capture_output=True, text=True, timeout=60
    )
    assert "--kubeconfig" in ciso_help.stdout
    assert "--kubeconfig" not in finops_help.stdout


# -- the kubeconfig handed on --------------------------------------------------------------------


def test_the_kubeconfig_is_flattened_to_its_current_context(tmp_path: Path) -> None:
    (tmp_path / "ca.crt").write_bytes(b"CA")
    source = tmp_path / "config"
    source.write_text(
        yaml.safe_dump(
            {
                "current-context": "b",
                "contexts": [
                    {"name": "a", "context": {"cluster": "ca", "user": "ua"}},
                    {"name": "b", "context": {"cluster": "cb", "user": "ub"}},
                ],
                "clusters": [
                    {"name": "ca", "cluster": {"server": "https://a"}},
                    {
                        "name": "cb",
                        "cluster": {"server": "https://b", "certificate-authority": "ca.crt"},
                    },
                ],
                "users": [
                    {"name": "ua", "user": {"token": "A"}},
                    {"name": "ub", "user": {"token": "B"}},
                ],
            }
        )
    )
    flat = flattened(source)
    assert [c["name"] for c in flat["contexts"]] == ["b"]
    assert flat["clusters"] == [
        {"name": "cb", "cluster": {"server": "https://b", "certificate-authority-data": "Q0E="}}
    ]
    assert flat["users"] == [{"name": "ub", "user": {"token": "B"}}]


def test_a_kubeconfig_naming_a_missing_file_is_an_error_naming_both(tmp_path: Path) -> None:
    source = tmp_path / "config"
    source.write_text(
        yaml.safe_dump(
            {
                "current-context": "b",
                "contexts": [{"name": "b", "context": {"cluster": "cb", "user": "ub"}}],
                "clusters": [{"name": "cb", "cluster": {"server": "https://b"}}],
                "users": [{"name": "ub", "user": {"client-key": "missing.key"}}],
            }
        )
    )
    with pytest.raises(InputError, match=rf"{source}: client-key .*missing.key"):
        flattened(source)


def test_an_unreadable_kubeconfig_is_an_error_naming_the_file(
    itbench_bin: str, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("clusters: [\n")
    done = subprocess.run(
        [itbench_bin, "ciso", "eval", "--outputs", str(tmp_path), "--kubeconfig", str(broken)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3
    assert f"{broken}: unreadable kubeconfig: line 2" in done.stderr
    assert "Traceback" not in done.stderr
