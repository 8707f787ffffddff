"""Live mode deploys every built-in Kubernetes scenario (issue 34) on a cluster that refuses what a
real API server refuses on create: ``itbench cluster serve`` in its own process, read back with
the real kubectl. Pods declaring ephemeral containers are created plain and get them through the
``ephemeralcontainers`` subresource."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from ciso.live import LiveSettings
from ciso.live.client import LiveCluster, LiveError
from ciso.live.deploy import deployed
from ciso.scenarios.loader import load_benchmark_scenarios, load_builtin
from ciso.scenarios.model import CisoScenario, ScenarioClass
from ciso.scenarios.objects import declared_objects, is_policy, without_ephemeral_containers
from tests._support.ciso import kubectl_missing

pytestmark = pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))

SCENARIOS: dict[str, CisoScenario] = {
    s.base_id: s for s in load_builtin().scenarios if s.scenario_class is ScenarioClass.KYVERNO
}
#: The scenarios whose environments hold a Pod with ephemeral containers, as the issue lists them.
WITH_EPHEMERAL = {"5.2.2", "5.2.6", "5.2.7", "5.2.8", "5.2.9", "5.2.10", "5.4.1", "5.7.2", "5.7.3"}


def _ephemeral_pods(scenario: CisoScenario, compliant: bool) -> list[dict]:
    return [
        o
        for o in declared_objects(scenario, compliant)
        if o.get("kind") == "Pod" and (o.get("spec") or {}).get("ephemeralContainers")
    ]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``itbench cluster serve`` of an empty cluster, in its own process; its kubeconfig."""
    root = tmp_path_factory.mktemp("serve")
    (root / "empty").mkdir()
    itbench = shutil.which("itbench", path=str(Path(os.sys.executable).parent))
    assert itbench is not None
    proc = subprocess.Popen(
        [itbench, "cluster", "serve", str(root / "empty"), "--kubeconfig", str(root / "kc")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.strip(), proc.stderr.read() if proc.stderr else "no kubeconfig printed"
        yield Path(line.strip())
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def _settings(kubeconfig: Path) -> LiveSettings:
    return LiveSettings(
        kubeconfig=kubeconfig,
        scan_timeout_s=5.0,
        scan_settle_s=0.3,
        delete_timeout_s=20.0,
        poll_s=0.1,
    )


def _kubectl(kubeconfig: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "KUBECACHEDIR": str(tmp_path / "c")}
    return subprocess.run(
        ["kubectl", "--kubeconfig", str(kubeconfig), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_the_nine_scenarios_with_ephemeral_containers_are_the_ones_the_issue_names() -> None:
    found = {
        s.cis_id
        for s in SCENARIOS.values()
        if _ephemeral_pods(s, False) or (s.compliant is not None and _ephemeral_pods(s, True))
    }
    assert found == WITH_EPHEMERAL


def test_a_plain_create_of_such_a_pod_is_refused_as_a_real_server_refuses_it(
    served: Path,
) -> None:
    client = LiveCluster.connect(served)
    pod = _ephemeral_pods(SCENARIOS["cis-k8s-5.7.2-seccomp-profile"], False)[0]
    body = {**pod, "metadata": {"name": "plain-create", "namespace": "default"}}
    with pytest.raises(LiveError, match="spec.ephemeralContainers: Forbidden: cannot be set on"):
        client.create(body)
    plain, ephemeral = without_ephemeral_containers(body)
    assert "ephemeralContainers" not in plain["spec"] and ephemeral


@pytest.mark.slow
@pytest.mark.parametrize("base_id", sorted(SCENARIOS))
def test_live_mode_deploys_every_builtin_scenario(
    base_id: str, served: Path, tmp_path: Path
) -> None:
    scenario = SCENARIOS[base_id]
    client = LiveCluster.connect(served)
    settings = _settings(served)
    for index, compliant in enumerate((False, True)):
        if compliant and scenario.compliant is None:
            continue
        objects = [o for o in declared_objects(scenario, compliant) if not is_policy(o)]
        suffix = f"s{abs(hash(base_id)) % 10**4:04d}{index}"
        with deployed(client, objects, suffix, settings) as deployment:
            live_refs = {
                scenario_ref: live for live, scenario_ref in deployment.plan.to_scenario.items()
            }
            for pod in _ephemeral_pods(scenario, compliant):
                ref = next(
                    r for r in live_refs if r.kind == "Pod" and r.name == pod["metadata"]["name"]
                )
                live = live_refs[ref]
                got = _kubectl(
                    served, tmp_path, "get", "pod", live.name, "-n", live.namespace, "-o", "json"
                )
                assert got.returncode == 0, got.stderr
                names = [c["name"] for c in json.loads(got.stdout)["spec"]["ephemeralContainers"]]
                assert names == [c["name"] for c in pod["spec"]["ephemeralContainers"]], ref
            for live, _ in deployment.plan.to_scenario.items():
                kind = live.kind.lower()
                args = ["get", kind, live.name, "-o", "name"]
                if live.namespace:
                    args += ["-n", live.namespace]
                got = _kubectl(served, tmp_path, *args)
                assert got.returncode == 0, (base_id, str(live), got.stderr)


def test_the_loader_warns_about_objects_a_real_cluster_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = SCENARIOS["cis-k8s-5.7.2-seccomp-profile"].source
    assert source is not None
    copy = tmp_path / "scenarios" / "refused"
    shutil.copytree(source, copy)
    with (copy / "violating" / "workloads.yaml").open("a") as handle:
        handle.write(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {name: twin, namespace: ops}\n"
            "spec:\n  containers: [{name: app, image: nginx:1.27}]\n"
            "  ephemeralContainers: [{name: app, image: busybox:1.36}]\n"
        )
    load_benchmark_scenarios(str(tmp_path / "scenarios"))
    err = capsys.readouterr().err
    assert (
        "warning: scenario cis-k8s-5.7.2-seccomp-profile (violating): Pod/ops/twin: a real "
        'cluster refuses it: spec.ephemeralContainers[0].name: Duplicate value: "app"'
    ) in err
    assert err.count("a real cluster refuses it") == 1  # the suite's own Pods deploy


def test_the_builtin_suite_loads_without_such_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    load_benchmark_scenarios(None)
    assert "a real cluster refuses" not in capsys.readouterr().err
