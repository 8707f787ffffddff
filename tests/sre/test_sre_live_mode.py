"""Live mode (``itbench sre run --task mitigate --kubeconfig FILE --prometheus URL``) against real
parts: ``itbench cluster serve`` as a separate process holding the demo's objects, a Prometheus
on 127.0.0.1 written here whose alerts follow the cluster's state (firing while the fault is in
place, resolved once it is repaired), and real kubectl. Intervals are a fraction of a second so
the recovery watcher's two consecutive passes take well under a second."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from itbench.errors import UsageError
from sre.generator.faults import FAULT_TYPES
from sre.generator.snapshot import write_incident
from sre.live.environment import LiveSettings, LiveTrial
from sre.live.injection import render_injection
from sre.live.janitor import clean_up
from sre.live.kube import LiveKubectl
from sre.live.watch import Check, LiveBlastRadius, pointer_value, verdict, watch
from sre.twin.suite import write_recipe
from tests._support.cli import itbench_executable, run_cli

pytestmark = [
    pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent"),
]
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is absent: command agents refuse to run"
)

IMAGE_FAULT = ("nonexistent-image", 41)
POLICY_FAULT = ("network-policy", 42)
FAST = ["--recovery-interval", "0.2", "--recovery-timeout", "2", "--fault-timeout", "5"]


# -- the real parts -------------------------------------------------------------------------------
def _baseline(tmp: Path) -> Path:
    """The demo's objects, and the namespace Chaos Mesh experiments live in."""
    objects = list(render_injection("network-delay", 1).baseline)
    path = tmp / "baseline.yaml"
    path.write_text(yaml.safe_dump_all(objects), encoding="utf-8")
    return path


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Path]:
    """``itbench cluster serve`` of the demo's objects, its kubeconfig."""
    kubeconfig = tmp_path / "cluster" / "kubeconfig.yaml"
    kubeconfig.parent.mkdir()
    proc = subprocess.Popen(
        [itbench_executable(), "cluster", "serve", str(_baseline(kubeconfig.parent)),
         "--kubeconfig", str(kubeconfig)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.strip() == str(kubeconfig), proc.stderr.read() if proc.stderr else line
        yield kubeconfig
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _kubectl(
    kubeconfig: Path, *args: str, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KUBECONFIG": str(kubeconfig)}
    return subprocess.run(["kubectl", *args], capture_output=True, text=True, env=env, timeout=60,
                          input=input)  # fmt: skip


def _get(kubeconfig: Path, *args: str) -> dict | None:
    done = _kubectl(kubeconfig, "get", *args, "-o", "json")
    return json.loads(done.stdout) if done.returncode == 0 else None


class FakePrometheus:
    """``GET /api/v1/alerts`` answered from ``rules(kubeconfig)``: the alerts a real Prometheus
    would hold for the cluster's present state. ``Watchdog`` always fires (it was firing before
    any fault: never the fault's, never new)."""

    def __init__(self, rules: Callable[[], list[dict]]) -> None:
        self.rules = rules
        self.requests = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.requests += 1
                if self.path != "/api/v1/alerts":
                    self.send_error(404)
                    return
                alerts = [{"labels": {"alertname": "Watchdog"}, "state": "firing"}]
                alerts += outer.rules()
                body = json.dumps({"status": "success", "data": {"alerts": alerts}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _image_rules(kubeconfig: Path, target: str) -> Callable[[], list[dict]]:
    """KubePodNotReady while the target runs an image that does not exist (its pods gone, as
    after a namespace deletion, raise nothing)."""

    def rules() -> list[dict]:
        dep = _get(kubeconfig, "deployment", target, "-n", "otel-demo")
        if dep and dep["spec"]["template"]["spec"]["containers"][0]["image"].endswith("-missing"):
            labels = {"alertname": "KubePodNotReady", "namespace": "otel-demo",
                      "deployment": target, "pod": f"{target}-abc"}  # fmt: skip
            return [{"labels": labels, "state": "firing"}]
        return []

    return rules


def _policy_rules(kubeconfig: Path, target: str, policy: str) -> Callable[[], list[dict]]:
    def rules() -> list[dict]:
        if _get(kubeconfig, "networkpolicy", policy, "-n", "otel-demo") is not None:
            labels = {"alertname": "RequestErrorRate", "service_name": target}
            return [{"labels": labels, "state": "firing"}]
        return []

    return rules


@pytest.fixture
def prometheus() -> Iterator[Callable[[Callable[[], list[dict]]], FakePrometheus]]:
    started: list[FakePrometheus] = []

    def start(rules: Callable[[], list[dict]]) -> FakePrometheus:
        started.append(FakePrometheus(rules))
        return started[-1]

    yield start
    for server in started:
        server.close()


def _scenario(root: Path, fault: str, seed: int) -> Path:
    folder = root / f"Scenario-{fault}"
    write_incident(folder, fault, seed)
    write_recipe(folder, fault, seed)
    return folder


def _run(args: list[str], out: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    # a process of its own: the fake Prometheus serves from this one, and what its threads print
    # (a handler's traceback when a test cuts it off) must not land in the run's stderr
    return run_cli(["sre", "run", "--task", "mitigate", "--output", str(out), *args],
                   timeout=timeout, subprocess_only=True)  # fmt: skip


def _evaluation(out: Path) -> dict:
    (path,) = sorted(out.glob("*/1/evaluation.json"))
    return json.loads(path.read_text())


# -- end to end through the CLI -------------------------------------------------------------------
def test_baseline_repairs_the_live_cluster(cluster: Path, prometheus, tmp_path: Path) -> None:
    fault, seed = POLICY_FAULT
    injection = render_injection(fault, seed)
    policy = injection.root.name
    prom = prometheus(_policy_rules(cluster, injection.target, policy))
    scenario = _scenario(tmp_path, fault, seed)
    out = tmp_path / "out"
    proc = _run(["--scenarios", str(scenario), "--agent", "baseline", "--kubeconfig",
                 str(cluster), "--prometheus", prom.url, *FAST], out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    e = _evaluation(out)
    assert e["error"] is None, e
    assert e["scores"]["mitigation_pass"] == 1.0, e["details"]
    assert e["scores"]["strict_mitigation_pass"] == 1.0, e["details"]
    assert e["scores"]["mttr_wall_s"] >= 0
    # the agent reached the cluster through the write-counting proxy: its one write (the
    # NetworkPolicy's deletion) is the repair's
    assert e["scores"]["agent_writes"] == 1.0 and e["scores"]["mttr_writes"] == 1.0
    details = e["details"]
    assert details["mode"] == "live"
    assert details["fault_alerts"] == [f"RequestErrorRate service_name={injection.target}"]
    # two consecutive passing checks ended the watch at once
    assert [c["passed"] for c in details["checks"]] == [True, True]
    assert details["blast"] == {"objects_changed": [], "services_made_unhealthy": [],
                                "pods_restarted_for_nothing": []}  # fmt: skip
    assert details["cleanup"]["complete"] is True
    assert details["cleanup"]["deleted"] == [f"networkpolicies.networking.k8s.io/{policy}"]
    # Table 4's MTTR is the live run's wall seconds, and the note says so
    overall = next(line for line in proc.stdout.splitlines() if line.startswith("overall"))
    assert overall.split()[-2:] == ["100.00", f"{e['scores']['mttr_wall_s']:.2f}"]
    assert "MTTR in wall seconds on a live cluster" in proc.stdout
    assert _get(cluster, "networkpolicy", policy, "-n", "otel-demo") is None
    # the agent's copy of the credentials does not outlive the trial
    assert not (out / scenario.name.removeprefix("Scenario-") / "1" / "kubeconfig.yaml").exists()


@needs_bwrap
def test_command_agent_fixing_the_image_passes(cluster: Path, prometheus, tmp_path: Path) -> None:
    fault, seed = IMAGE_FAULT
    injection = render_injection(fault, seed)
    target = injection.target
    released = _get(cluster, "deployment", target, "-n", "otel-demo")
    image = released["spec"]["template"]["spec"]["containers"][0]["image"]
    prom = prometheus(_image_rules(cluster, target))
    scenario = _scenario(tmp_path, fault, seed)
    # the agent also tries Prometheus on the host's loopback: its network is the API server only
    reach = (f"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", "
             f"{prom.url.rsplit(':', 1)[1]}), timeout=3)' 2>/dev/null && echo open > reach.txt "
             "|| echo shut > reach.txt")  # fmt: skip
    command = f"kubectl -n otel-demo set image deployment/{target} {target}={image}; {reach}"
    out = tmp_path / "out"
    proc = _run(["--scenarios", str(scenario), "--agent-cmd", command, "--kubeconfig",
                 str(cluster), "--prometheus", prom.url, *FAST], out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    e = _evaluation(out)
    assert e["error"] is None, e
    assert e["scores"]["mitigation_pass"] == 1.0, e["details"]
    (trial,) = sorted(out.glob("*/1"))
    assert (trial / "reach.txt").read_text().strip() == "shut"
    # its write went through the sandbox's one endpoint, the proxy, which counted it
    assert e["scores"]["agent_writes"] == 1.0
    assert e["details"]["fault_alerts"] == [
        f"KubePodNotReady namespace=otel-demo deployment={target}"
    ]
    assert e["details"]["cleanup"]["restored"] == [f"deployment/{target}"]


@needs_bwrap
def test_agent_doing_nothing_fails_after_the_timeout_and_is_cleaned_up(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    fault, seed = IMAGE_FAULT
    injection = render_injection(fault, seed)
    target = injection.target
    before = _get(cluster, "deployment", target, "-n", "otel-demo")
    prom = prometheus(_image_rules(cluster, target))
    out = tmp_path / "out"
    started = time.monotonic()
    proc = _run(["--scenarios", str(_scenario(tmp_path, fault, seed)), "--agent-cmd", "true",
                 "--kubeconfig", str(cluster), "--prometheus", prom.url, *FAST], out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    e = _evaluation(out)
    assert e["error"] is None, e
    assert e["scores"]["mitigation_pass"] == 0.0
    assert e["scores"]["strict_mitigation_pass"] == 0.0
    assert "mttr_wall_s" not in e["scores"]
    assert e["scores"]["agent_writes"] == 0.0 and "mttr_writes" not in e["scores"]
    details = e["details"]
    assert details["still_firing"] == [f"KubePodNotReady namespace=otel-demo deployment={target}"]
    assert "still holds the fault's change" in details["root_problem"]
    # watched until the 2 s timeout, none passing. Checks are 0.2 s apart, but each is a kubectl
    # and an HTTP read: on a loaded machine a check can take most of a second, so the count is
    # only "more than the first"; the last check's time is what shows it watched to the end
    assert len(details["checks"]) >= 2 and not any(c["passed"] for c in details["checks"])
    assert details["checks"][-1]["at_s"] >= 1.5
    assert time.monotonic() - started < 120
    # the clean-up put the Deployment back as the cluster held it before the injection
    after = _get(cluster, "deployment", target, "-n", "otel-demo")
    assert after["spec"]["template"] == before["spec"]["template"]
    assert details["cleanup"] == {"deleted": [], "restored": [f"deployment/{target}"],
                                  "errors": [], "complete": True, "by": "trial"}  # fmt: skip


@needs_bwrap
def test_agent_deleting_the_namespace_is_a_recorded_failure(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    fault, seed = IMAGE_FAULT
    injection = render_injection(fault, seed)
    prom = prometheus(_image_rules(cluster, injection.target))
    out = tmp_path / "out"
    proc = _run(["--scenarios", str(_scenario(tmp_path, fault, seed)), "--agent-cmd",
                 "kubectl delete namespace otel-demo", "--kubeconfig", str(cluster),
                 "--prometheus", prom.url, *FAST], out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    e = _evaluation(out)
    assert e["error"] is None, e
    # the alert is gone with the pods, but the service is not repaired: no pass
    assert e["details"]["still_firing"] == []
    assert e["details"]["target_serving"] is False
    assert e["scores"]["mitigation_pass"] == 0.0
    changed = e["details"]["blast"]["objects_changed"]
    assert "Namespace otel-demo deleted" in changed
    assert "Deployment otel-demo/frontend deleted" in changed
    assert "Service otel-demo/frontend deleted" in changed
    assert e["scores"]["blast_objects_changed"] == len(changed)
    assert any("(gone)" in p for p in e["details"]["blast"]["pods_restarted_for_nothing"])
    unhealthy = e["details"]["blast"]["services_made_unhealthy"]
    assert "frontend" in unhealthy and injection.target not in unhealthy


# -- bad input: clear errors before any trial -----------------------------------------------------
def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_kubeconfig_pointing_nowhere_is_a_usage_error(tmp_path: Path) -> None:
    kubeconfig = tmp_path / "nowhere.yaml"
    port = _closed_port()
    kubeconfig.write_text(yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": "x",
        "clusters": [{"name": "x", "cluster": {"server": f"http://127.0.0.1:{port}"}}],
        "users": [{"name": "x", "user": {"token": "t"}}],
        "contexts": [{"name": "x", "context": {"cluster": "x", "user": "x"}}],
    }))  # fmt: skip
    out = tmp_path / "out"
    started = time.monotonic()
    proc = _run(["--scenarios", str(_scenario(tmp_path, *IMAGE_FAULT)), "--kubeconfig",
                 str(kubeconfig)], out, timeout=60)  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"--kubeconfig {kubeconfig}" in proc.stderr
    assert f"127.0.0.1:{port} does not answer" in proc.stderr
    assert "no trial was started" in proc.stderr
    assert not list(out.glob("*/1/evaluation.json"))
    assert time.monotonic() - started < 40


def test_missing_kubeconfig_and_prometheus_unreachable_are_usage_errors(
    cluster: Path, tmp_path: Path
) -> None:
    scenario = _scenario(tmp_path, *IMAGE_FAULT)
    proc = _run(["--scenarios", str(scenario), "--kubeconfig", str(tmp_path / "absent.yaml")],
                tmp_path / "o1", timeout=60)  # fmt: skip
    assert proc.returncode == 2 and "absent.yaml: no such file" in proc.stderr, proc.stderr
    url = f"http://127.0.0.1:{_closed_port()}"
    proc = _run(["--scenarios", str(scenario), "--kubeconfig", str(cluster), "--prometheus", url],
                tmp_path / "o2", timeout=60)  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert f"--prometheus: Prometheus {url}/api/v1/alerts" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not list((tmp_path / "o2").glob("*/1/evaluation.json"))


def test_scenario_without_a_fault_entry_is_a_usage_error(cluster: Path, tmp_path: Path) -> None:
    folder = tmp_path / "Scenario-recorded"
    write_incident(folder, *IMAGE_FAULT)  # a snapshot, no mitigation.json
    proc = _run(["--scenarios", str(folder), "--kubeconfig", str(cluster)], tmp_path / "o")
    assert proc.returncode == 2, proc.stderr
    assert "no mitigation.json" in proc.stderr and "Traceback" not in proc.stderr


def test_kubeconfig_needs_the_mitigation_task(cluster: Path, tmp_path: Path) -> None:
    proc = run_cli(["sre", "run", "--kubeconfig", str(cluster), "--output", str(tmp_path)])
    assert proc.returncode == 2
    assert "--kubeconfig (live mode) needs --task mitigate" in proc.stderr
    proc = run_cli(["sre", "eval", "--task", "mitigate", "--kubeconfig", str(cluster),
                    "--ground-truth", str(tmp_path), "--outputs", str(tmp_path)])  # fmt: skip
    assert proc.returncode == 2
    assert "runs in sre run with the local executor only" in proc.stderr


# -- the injection itself, every fault type, through real kubectl ---------------------------------
#: faults whose injection deletes an object, or installs the scenario's own objects first
DELETES = {"deleted-service"}
INSTALLS = {"corrupted-secret", "hpa-misconfigured", "strict-mtls", "gateway-deny", "ambient-off"}


def _op_holds(live: dict, op: dict) -> bool:
    """Whether the cluster's object holds what one JSON-patch operation wrote."""
    if op["path"].endswith("/-"):  # appended to a list
        return op["value"] in pointer_value(live, op["path"][:-2])
    return pointer_value(live, op["path"]) == op["value"]


def _comparable(obj: dict) -> dict:
    return {"spec": obj.get("spec"), "data": obj.get("data"),
            "labels": (obj.get("metadata") or {}).get("labels")}  # fmt: skip


def test_every_injectable_fault_goes_in_and_comes_out(cluster: Path, tmp_path: Path) -> None:
    """Each fault's injection applied to the served demo: the scenario's installation made
    (objects created, changes in place), the patched fields hold the generator's faulty values,
    the created objects exist, the deleted ones are gone; the clean-up brings back what was
    there and removes what was not."""
    home = tmp_path / "home"
    kubectl = LiveKubectl(cluster, home)
    settings = LiveSettings(cluster, None, 0.1, 0.1, 0.1, tmp_path)
    seen_deletes, seen_installs = set(), set()
    for fault in sorted(FAULT_TYPES):
        if fault == "node-disk-pressure":  # the kubelet reports the condition
            with pytest.raises(UsageError, match="reported by its kubelet"):
                render_injection(fault, 7)
            continue
        injection = render_injection(fault, 7)
        trial = LiveTrial(settings, injection, tmp_path / fault)
        trial.resolve_node()  # a node fault lands on the node the target's pod runs on
        injection = trial.injection
        assert injection.creates or injection.patches or injection.deletes, fault
        assert bool(injection.deletes) == (fault in DELETES), fault
        assert bool(injection.setup_creates or injection.setup_patches) == (fault in INSTALLS)
        touched = [(p.resource, p.ref) for p in (*injection.setup_patches, *injection.patches)
                   if not injection.set_up(p.ref)]  # fmt: skip
        touched += [(d.resource, d.ref) for d in injection.deletes]
        saved = {ref: kubectl.get(resource, ref.name, ref.namespace) for resource, ref in touched}
        assert all(v is not None for v in saved.values()), fault
        made = [*injection.setup_creates, *injection.creates]
        trial.preflight()
        trial.inject()
        # what the installation set, unless the fault changed it after (ambient-off's label)
        later = {(p.ref, op["path"]) for p in injection.patches for op in p.ops}
        for step in (*injection.setup_patches, *injection.patches):
            live = kubectl.get(step.resource, step.ref.name, step.ref.namespace)
            for op in step.ops:
                overridden = step in injection.setup_patches and (step.ref, op["path"]) in later
                if op["op"] != "remove" and not overridden:
                    assert _op_holds(live, op), (fault, step.ref, op["path"])
        for step in made:
            live = kubectl.get(step.resource, step.ref.name, step.ref.namespace)
            assert live is not None, (fault, step.ref)
            if step in injection.creates:
                # the body's content (spec, or a PriorityClass's value and description), as sent
                for key, value in step.body.items():
                    if key not in ("apiVersion", "kind", "metadata"):
                        assert live.get(key) == value, (fault, key)
        for gone in injection.deletes:
            assert kubectl.get(gone.resource, gone.ref.name, gone.ref.namespace) is None, fault
            seen_deletes.add(fault)
        if injection.setup_creates or injection.setup_patches:
            seen_installs.add(fault)
        record = clean_up(trial.cleanup_plan())
        assert record.errors == [], (fault, record.errors)
        for step in made:
            assert kubectl.get(step.resource, step.ref.name, step.ref.namespace) is None, fault
        for resource, ref in touched:
            live = kubectl.get(resource, ref.name, ref.namespace)
            assert live is not None, (fault, ref)
            assert _comparable(live) == _comparable(saved[ref]), (fault, ref)
    assert seen_deletes == DELETES and seen_installs == INSTALLS


def _service_rules(kubeconfig: Path, target: str) -> Callable[[], list[dict]]:
    """RequestErrorRate at the target's callers while its Service is missing."""

    def rules() -> list[dict]:
        if _get(kubeconfig, "service", target, "-n", "otel-demo") is None:
            labels = {"alertname": "RequestErrorRate", "service_name": target}
            return [{"labels": labels, "state": "firing"}]
        return []

    return rules


@needs_bwrap
def test_agent_recreating_a_deleted_service_passes_live(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    """deleted-service injected live (a delete step): an agent that creates the Service again
    passes, the alert clears, and the clean-up leaves the cluster's own Service in place."""
    from sre.live.injection import restorable

    injection = render_injection("deleted-service", 7)
    (gone,) = injection.deletes
    before = _get(cluster, "service", gone.ref.name, "-n", "otel-demo")
    manifest = restorable(before)
    manifest["spec"] = {k: v for k, v in manifest["spec"].items() if not k.startswith("clusterIP")}
    prom = prometheus(_service_rules(cluster, gone.ref.name))
    out = tmp_path / "out"
    command = f"echo '{json.dumps(manifest)}' | kubectl create -f -"
    proc = _run(["--scenarios", str(_scenario(tmp_path, "deleted-service", 7)), "--agent-cmd",
                 command, "--kubeconfig", str(cluster), "--prometheus", prom.url, *FAST],
                out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    e = _evaluation(out)
    assert e["error"] is None, e
    assert e["details"]["injection"]["deleted"] == [f"Service {gone.ref.name}"]
    assert e["details"]["fault_alerts"] == [f"RequestErrorRate service_name={gone.ref.name}"]
    assert e["scores"]["mitigation_pass"] == 1.0, e["details"]
    assert e["scores"]["agent_writes"] == 1.0
    assert e["details"]["cleanup"]["complete"] is True
    after = _get(cluster, "service", gone.ref.name, "-n", "otel-demo")
    assert after is not None and after["spec"]["ports"] == before["spec"]["ports"]


def _trial_without_alert(
    cluster: Path,
    prometheus: Callable[[Callable[[], list[dict[str, Any]]]], FakePrometheus],
    tmp_path: Path,
    fault: str,
) -> dict[str, Any]:
    """The baseline's trial of ``fault`` (seed 7) while Prometheus shows no alert: the fault
    timeout passes and the trial ends in a recorded error; its evaluation."""
    prom = prometheus(lambda: [])
    out = tmp_path / "out"
    proc = _run(["--scenarios", str(_scenario(tmp_path, fault, 7)), "--agent", "baseline",
                 "--kubeconfig", str(cluster), "--prometheus", prom.url,
                 "--recovery-interval", "0.2", "--fault-timeout", "0.5"], out)  # fmt: skip
    assert "Traceback" not in proc.stderr
    e = _evaluation(out)
    assert "raised no alert" in e["error"], e
    return e


def test_a_failed_trial_still_recreates_the_deleted_service(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    """The Service deleted, then no alert fires within --fault-timeout: a recorded error, and
    the clean-up creates the Service again as the cluster held it."""
    injection = render_injection("deleted-service", 7)
    (gone,) = injection.deletes
    before = _get(cluster, "service", gone.ref.name, "-n", "otel-demo")
    e = _trial_without_alert(cluster, prometheus, tmp_path, "deleted-service")
    assert f"restored service/{gone.ref.name} (recreated)" in e["error"], e
    after = _get(cluster, "service", gone.ref.name, "-n", "otel-demo")
    assert after is not None and _comparable(after) == _comparable(before)


def _cordon_rules(kubeconfig: Path, target: str) -> Callable[[], list[dict]]:
    """KubePodNotReady on the target while the node its pod runs on is cordoned (on a real
    cluster whose other nodes are full, its evicted pod finds no place)."""

    def rules() -> list[dict]:
        pods = _get(kubeconfig, "pods", "-n", "otel-demo", "-l",
                    f"app.kubernetes.io/name={target}") or {"items": []}  # fmt: skip
        for pod in pods["items"]:
            node = _get(kubeconfig, "node", pod["spec"]["nodeName"])
            if node and node["spec"].get("unschedulable"):
                labels = {"alertname": "KubePodNotReady", "namespace": "otel-demo",
                          "deployment": target}  # fmt: skip
                return [{"labels": labels, "state": "firing"}]
        return []

    return rules


def _node_of(kubeconfig: Path, target: str) -> str:
    pods = _get(kubeconfig, "pods", "-n", "otel-demo", "-l", f"app.kubernetes.io/name={target}")
    return pods["items"][0]["spec"]["nodeName"]


def test_cordoned_node_injection_cordons_drains_and_cleans_up(
    cluster: Path, tmp_path: Path
) -> None:
    """cordoned-node live: the node the target's pod runs on is cordoned (spec.unschedulable,
    the taint left to the node controller) and the target's pod evicted through the Eviction
    API; the clean-up uncordons the node and touches nothing else of it."""
    injection = render_injection("cordoned-node", 7)
    assert injection.node_fault is not None and injection.node_fault.drain
    assert injection.node_fault.taints == ()  # node.kubernetes.io/unschedulable: the controller's
    settings = LiveSettings(cluster, None, 0.1, 0.1, 0.1, tmp_path)
    trial = LiveTrial(settings, injection, tmp_path / "w")
    trial.resolve_node()
    node = _node_of(cluster, injection.target)
    assert trial.injection.root.kind == "Node" and trial.injection.root.name == node
    assert trial.injection.injected_values(trial.injection.root) == {"/spec/unschedulable": True}
    before = _get(cluster, "node", node)
    # a pod of the target's on the node that the served cluster lets go of (the pods its
    # emulated controllers make cannot be deleted without a reconciler: a 404, which the drain
    # takes for a pod already gone, as kubectl drain does); one on another node stays
    for name, where in ((f"{injection.target}-extra", node), (f"{injection.target}-far", "n2")):
        pod = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": name,
                "namespace": "otel-demo",
                "labels": {"app.kubernetes.io/name": injection.target},
            },
            "spec": {"nodeName": where, "containers": [{"name": "c", "image": "busybox"}]},
        }
        made = _kubectl(cluster, "create", "-f", "-", input=json.dumps(pod))
        assert made.returncode == 0, made.stderr
    trial.preflight()
    trial.inject()
    assert _get(cluster, "node", node)["spec"].get("unschedulable") is True
    assert trial.evicted == [f"{injection.target}-extra"]
    assert _get(cluster, "pod", f"{injection.target}-extra", "-n", "otel-demo") is None
    assert _get(cluster, "pod", f"{injection.target}-far", "-n", "otel-demo") is not None
    record = clean_up(trial.cleanup_plan())
    assert record.errors == [] and record.restored == [f"node/{node}"], record
    after = _get(cluster, "node", node)
    assert "unschedulable" not in after["spec"]
    assert after["metadata"]["labels"] == before["metadata"]["labels"]


@needs_bwrap
def test_agent_uncordoning_the_node_passes_live(cluster: Path, prometheus, tmp_path: Path) -> None:
    """cordoned-node through the CLI: the fault's alert fires once the node is cordoned, an
    agent that uncordons it passes (strictly too: the node no longer unschedulable), the
    injection names the node and the evicted pod, and the clean-up is complete."""
    target = render_injection("cordoned-node", 7).target
    node = _node_of(cluster, target)
    prom = prometheus(_cordon_rules(cluster, target))
    out = tmp_path / "out"
    proc = _run(["--scenarios", str(_scenario(tmp_path, "cordoned-node", 7)), "--agent-cmd",
                 f"kubectl uncordon {node}", "--kubeconfig", str(cluster), "--prometheus",
                 prom.url, *FAST], out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    e = _evaluation(out)
    assert e["error"] is None, e
    assert e["details"]["injection"]["patched"] == [f"Node {node}"]
    # the served cluster's own pods cannot be evicted (see the test above): none recorded
    assert e["details"]["injection"]["evicted"] == []
    assert e["details"]["fault_alerts"] == [
        f"KubePodNotReady namespace=otel-demo deployment={target}"
    ]
    assert e["scores"]["mitigation_pass"] == 1.0, e["details"]
    assert e["scores"]["strict_mitigation_pass"] == 1.0, e["details"]
    assert e["details"]["cleanup"] == {"deleted": [], "restored": [f"node/{node}"],
                                       "errors": [], "complete": True, "by": "trial"}  # fmt: skip


def test_a_failed_node_fault_trial_still_uncordons(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    """The node cordoned, then no alert within --fault-timeout: a recorded error whose clean-up
    uncordons the node."""
    target = render_injection("cordoned-node", 7).target
    node = _node_of(cluster, target)
    e = _trial_without_alert(cluster, prometheus, tmp_path, "cordoned-node")
    assert f"restored node/{node}" in e["error"], e
    assert "unschedulable" not in _get(cluster, "node", node)["spec"]


def test_generate_emits_the_injection_as_manifests(tmp_path: Path) -> None:
    proc = run_cli(["sre", "generate", "--fault", "network-delay", "--seed", "5", "--out",
                    str(tmp_path / "inc"), "--emit-manifests", str(tmp_path / "m")])  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (folder,) = (tmp_path / "m").iterdir()
    assert sorted(p.name for p in folder.iterdir()) == [
        "baseline.yaml", "inject.yaml", "injection.json"
    ]  # fmt: skip
    (chaos,) = yaml.safe_load_all((folder / "inject.yaml").read_text())
    assert chaos["kind"] == "NetworkChaos" and chaos["spec"]["action"] == "delay"
    doc = json.loads((folder / "injection.json").read_text())
    assert doc["root"] == {"kind": "NetworkChaos", "name": chaos["metadata"]["name"],
                           "namespace": "chaos-mesh"}  # fmt: skip


# -- Ctrl-C ---------------------------------------------------------------------------------------
@needs_bwrap
def test_interrupted_run_still_cleans_up(cluster: Path, prometheus, tmp_path: Path) -> None:
    fault, seed = IMAGE_FAULT
    injection = render_injection(fault, seed)
    target = injection.target
    before = _get(cluster, "deployment", target, "-n", "otel-demo")
    prom = prometheus(_image_rules(cluster, target))
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [itbench_executable(), "sre", "run", "--task", "mitigate", "--output", str(out),
         "--scenarios", str(_scenario(tmp_path, fault, seed)), "--agent-cmd", "sleep 60",
         "--kubeconfig", str(cluster), "--prometheus", prom.url, *FAST],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            dep = _get(cluster, "deployment", target, "-n", "otel-demo")
            if dep["spec"]["template"]["spec"]["containers"][0]["image"].endswith("-missing"):
                break
            time.sleep(0.2)
        else:
            pytest.fail("the fault was never injected")
        time.sleep(1.0)  # the agent is running
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole foreground group
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "Traceback" not in stderr, stderr
    # the runner killed the trial's worker: its janitor, in a session of its own, cleans up
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        after = _get(cluster, "deployment", target, "-n", "otel-demo")
        if after["spec"]["template"] == before["spec"]["template"]:
            break
        time.sleep(0.2)
    else:
        pytest.fail("the injected fault was left in the cluster")
    deadline = time.monotonic() + 30
    while not (found := list(out.glob("*/1/.itbench/mitigation.json"))):
        assert time.monotonic() < deadline, "the janitor recorded nothing"
        time.sleep(0.1)
    details = json.loads(found[0].read_text())["details"]
    assert details["cleanup"] == {"deleted": [], "restored": [f"deployment/{target}"],
                                  "errors": [], "complete": True, "by": "janitor"}  # fmt: skip
    assert "before its clean-up" in details["error"]
    # the agent's copy of the credentials went with it
    assert not list(out.glob("*/1/kubeconfig.yaml"))


# -- the watcher's rule ---------------------------------------------------------------------------
def _check(passed: bool, at: float) -> Check:
    return Check(at, () if passed else ("A",), (), True, "", ())


@pytest.mark.parametrize(
    ("sequence", "checks_made", "cleared", "mttr"),
    [
        ([True, True], 2, True, 0.0),
        ([True, False, True, True], 4, True, 2.0),  # a relapse restarts the count
        ([False, True, False, True, False, True], 6, False, None),  # never two in a row
        ([False] * 20, 6, False, None),  # the timeout ends it: 5 intervals of 1 s
    ],
)
def test_two_consecutive_passing_checks(sequence, checks_made, cleared, mttr) -> None:
    clock = {"t": 0.0}
    answers = iter(sequence)

    def check() -> Check:
        return _check(next(answers), clock["t"])

    def sleep(s: float) -> None:
        clock["t"] += s

    checks = watch(check, interval_s=1.0, timeout_s=5.0, sleep=sleep, clock=lambda: clock["t"])
    assert len(checks) == checks_made
    result = verdict(("A",), checks, LiveBlastRadius((), (), ()))
    assert result.mitigation_pass is cleared
    assert result.mttr_wall_s == mttr


def test_mttr_counts_the_writes_made_before_the_repair_held() -> None:
    checks = [_check(False, 0.0), _check(True, 1.0), _check(True, 2.0)]
    result = verdict(("A",), checks, LiveBlastRadius((), (), ()), writes=[0.2, 0.9, 1.5])
    assert (result.writes, result.mttr_writes) == (3, 2)  # the third came after the repair
    assert result.scores()["mttr_writes"] == 2.0 and result.scores()["agent_writes"] == 3.0
    unknown = verdict(("A",), checks, LiveBlastRadius((), (), ()))
    assert unknown.writes is None and "agent_writes" not in unknown.scores()


def test_the_proxy_counts_writes_and_streams_reads(cluster: Path, tmp_path: Path) -> None:
    """kubectl through the proxy reads and writes the served cluster; only the writes count."""
    from sre.live.kube import flat_kubeconfig
    from sre.live.write_counter import start_proxy

    proxy = start_proxy(flat_kubeconfig(cluster, tmp_path / "home"), tmp_path / "scratch")
    assert proxy is not None
    config = tmp_path / "agent.yaml"
    config.write_text(proxy.kubeconfig_text())
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    try:

        def kubectl(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(["kubectl", "--kubeconfig", str(config), *args],
                                  capture_output=True, text=True, env=env, timeout=60)  # fmt: skip

        assert kubectl("-n", "otel-demo", "get", "deployments").returncode == 0
        assert proxy.writes == []
        made = kubectl("-n", "otel-demo", "create", "configmap", "proxied", "--from-literal=a=b")
        assert made.returncode == 0, made.stderr
        gone = kubectl("-n", "otel-demo", "delete", "configmap", "proxied")
        assert gone.returncode == 0, gone.stderr
        assert [(w.method, w.status) for w in proxy.writes] == [("POST", 201), ("DELETE", 200)]
        assert "proxied" not in kubectl("-n", "otel-demo", "get", "configmaps").stdout
    finally:
        proxy.stop()


# -- the llm agent's guarded kubectl tool is bound to the live cluster ----------------------------
def test_llm_agent_repairs_the_live_cluster_through_its_kubectl_tool(
    cluster: Path, prometheus, tmp_path: Path
) -> None:

    from tests._support.fake_openai import ScriptedServer, Step, chat_reply

    fault, seed = POLICY_FAULT
    injection = render_injection(fault, seed)
    policy = injection.root.name
    prom = prometheus(_policy_rules(cluster, injection.target, policy))

    def call(args: list[str]) -> Step:
        payload = json.dumps({"args": args})
        return Step(chat_reply(tool_calls=[{"name": "kubectl", "arguments": payload}]))

    steps = [
        # another cluster is refused: the tool talks to the trial's context only
        call(["--server", "https://prod.example:6443", "get", "pods"]),
        call(["-n", "otel-demo", "delete", "networkpolicy", policy]),
        Step(chat_reply("deleted the NetworkPolicy that blocked every port")),
    ]
    env = {"OPENAI_API_KEY": "sk-sre-test-abcdef123456", "PATH": os.environ["PATH"],
           "HOME": str(tmp_path)}  # fmt: skip
    with ScriptedServer(steps) as server:
        proc = run_cli(
            ["sre", "run", "--task", "mitigate", "--scenarios", str(_scenario(tmp_path, fault,
             seed)), "--agent", "llm", "--model", "openai/scripted", "--api-base",
             server.api_base, "--reflection-rounds", "0", "--output", str(tmp_path / "run"),
             "--kubeconfig", str(cluster), "--prometheus", prom.url, *FAST],
            env=env, timeout=300,
        )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    e = _evaluation(tmp_path / "run")
    assert e["error"] is None, e
    assert e["scores"]["mitigation_pass"] == 1.0, e["details"]
    # the last request carries the whole conversation
    tool_results = [m for m in server.requests[-1]["messages"] if m.get("role") == "tool"]
    assert "not allowed" in tool_results[0]["content"]
    assert f'networkpolicy.networking.k8s.io \\"{policy}\\" deleted' in tool_results[1]["content"]


# -- failures inside a trial: recorded, cleaned up ------------------------------------------------
def test_fault_that_raises_no_alert_is_a_recorded_error_and_cleaned_up(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    fault, seed = IMAGE_FAULT
    target = render_injection(fault, seed).target
    before = _get(cluster, "deployment", target, "-n", "otel-demo")
    prom = prometheus(lambda: [])  # only Watchdog, which fired before the fault
    out = tmp_path / "out"
    proc = _run(["--scenarios", str(_scenario(tmp_path, fault, seed)), "--agent-cmd", "true",
                 "--kubeconfig", str(cluster), "--prometheus", prom.url, *FAST,
                 "--fault-timeout", "1"], out)  # fmt: skip
    assert proc.returncode == 3, proc.stderr  # no trial scored
    assert "Traceback" not in proc.stderr
    e = _evaluation(out)
    assert "raised no alert in Prometheus" in e["error"]
    assert f"clean-up: restored deployment/{target}" in e["error"]
    after = _get(cluster, "deployment", target, "-n", "otel-demo")
    assert after["spec"]["template"] == before["spec"]["template"]


@needs_bwrap
def test_prometheus_lost_during_the_watch_is_a_recorded_error_and_cleaned_up(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    fault, seed = POLICY_FAULT
    injection = render_injection(fault, seed)
    policy = injection.root.name

    injected: list[bool] = []

    def rules() -> list[dict]:
        if _get(cluster, "networkpolicy", policy, "-n", "otel-demo") is not None:
            injected.append(True)
            return [{"labels": {"alertname": "RequestErrorRate"}, "state": "firing"}]
        if injected:  # the agent has repaired: Prometheus is gone, its answer cut off
            raise ConnectionError("Prometheus went away")
        return []

    prom = prometheus(rules)
    out = tmp_path / "out"
    command = f"kubectl -n otel-demo delete networkpolicy {policy}"
    proc = _run(["--scenarios", str(_scenario(tmp_path, fault, seed)), "--agent-cmd", command,
                 "--kubeconfig", str(cluster), "--prometheus", prom.url, *FAST], out)  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr
    e = _evaluation(out)
    assert e["error"].startswith(f"environment: Prometheus {prom.url}/api/v1/alerts"), e["error"]
    assert f"clean-up: deleted networkpolicies.networking.k8s.io/{policy}" in e["error"]


@needs_bwrap
def test_repair_that_raises_a_new_alert_passes_but_not_strictly(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    """The fault's alert clears (mitigation_pass), but scaling a healthy service to zero on the
    way raises an alert that was not firing before and is a needless change."""
    fault, seed = POLICY_FAULT
    injection = render_injection(fault, seed)
    policy = injection.root.name
    fault_rules = _policy_rules(cluster, injection.target, policy)

    def rules() -> list[dict]:
        alerts = fault_rules()
        ad = _get(cluster, "deployment", "ad", "-n", "otel-demo")
        if ad is not None and ad["spec"]["replicas"] == 0:
            labels = {"alertname": "KubeDeploymentReplicasZero", "namespace": "otel-demo",
                      "deployment": "ad"}  # fmt: skip
            alerts.append({"labels": labels, "state": "firing"})
        return alerts

    prom = prometheus(rules)
    command = (f"kubectl -n otel-demo delete networkpolicy {policy} && "
               "kubectl -n otel-demo scale deployment/ad --replicas=0")  # fmt: skip
    out = tmp_path / "out"
    proc = _run(["--scenarios", str(_scenario(tmp_path, fault, seed)), "--agent-cmd", command,
                 "--kubeconfig", str(cluster), "--prometheus", prom.url, *FAST], out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    e = _evaluation(out)
    assert e["error"] is None, e
    assert e["scores"]["mitigation_pass"] == 1.0, e["details"]
    assert e["scores"]["strict_mitigation_pass"] == 0.0
    assert e["details"]["new_alerts"] == ["KubeDeploymentReplicasZero namespace=otel-demo "
                                          "deployment=ad"]  # fmt: skip
    assert e["details"]["root_healthy"] is True
    assert e["details"]["blast"]["objects_changed"] == ["Deployment otel-demo/ad changed"]


def test_chaos_experiment_health_read_from_the_cluster(cluster: Path, tmp_path: Path) -> None:
    """The faulty object of a chaos fault: still in place even with fields the cluster added
    (a webhook's defaults), repaired once paused or deleted."""
    from sre.live.watch import root_problem

    injection = render_injection("network-delay", 3)
    trial = LiveTrial(LiveSettings(cluster, None, 0.1, 0.1, 0.1, tmp_path), injection, tmp_path)
    trial.preflight()
    trial.inject()
    ref = injection.root
    kubectl = LiveKubectl(cluster, tmp_path / "home")
    resource = f"networkchaos.chaos-mesh.org/{ref.name}"
    assert kubectl("patch", resource, "-n", ref.namespace, "--type=merge", "-p",
                   '{"spec": {"duration": "1h"}}').code == 0  # fmt: skip
    assert root_problem(kubectl, injection, {}) == (
        f"NetworkChaos chaos-mesh/{ref.name} is still in place"
    )
    assert kubectl("annotate", resource, "-n", ref.namespace,
                   "experiment.chaos-mesh.org/pause=true").code == 0  # fmt: skip
    assert root_problem(kubectl, injection, {}) == ""
    assert kubectl("delete", resource, "-n", ref.namespace).code == 0
    assert root_problem(kubectl, injection, {}) == ""


def test_unreadable_kubeconfig_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("clusters: [\n")
    proc = _run(["--scenarios", str(_scenario(tmp_path, *IMAGE_FAULT)), "--kubeconfig", str(bad)],
                tmp_path / "o", timeout=60)  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert f"--kubeconfig {bad}: not a usable kubeconfig" in proc.stderr
    assert "Traceback" not in proc.stderr


# -- a sandboxed agent's network is the API server alone ------------------------------------------
_PROBE = (
    "import socket, sys\n"
    "try:\n"
    "    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3).close()\n"
    "    print('open')\n"
    "except OSError as exc:\n"
    "    print('refused', type(exc).__name__)\n"
)


def _server_address(kubeconfig: Path) -> tuple[str, int]:
    server = yaml.safe_load(kubeconfig.read_text())["clusters"][0]["cluster"]["server"]
    # the address only: the offline cluster's URL carries its token as user:password@
    parts = urlsplit(server)
    assert parts.hostname is not None and parts.port is not None, server
    return parts.hostname, parts.port


@needs_bwrap
def test_sandboxed_agent_reaches_the_api_server_and_nothing_else(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    """The sandbox of a live trial's command agent: kubectl through the proxy reads and writes
    (and the writes are counted); another port of the host's loopback, the API server's own
    address and an address outside are unreachable."""
    from itbench.sandbox.agent import AgentConfinement, agent_bwrap_argv, run_agent_command
    from sre.live.kube import flat_kubeconfig
    from sre.live.write_counter import start_proxy

    proxy = start_proxy(flat_kubeconfig(cluster, tmp_path / "home"), tmp_path / "scratch")
    assert proxy is not None
    other = prometheus(lambda: [])  # a service on the host's loopback the agent must not reach
    other_port = int(other.url.rsplit(":", 1)[1])
    api_host, api_port = _server_address(cluster)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "kubeconfig.yaml").write_text(proxy.kubeconfig_text())
    (workspace / "probe.py").write_text(_PROBE)
    script = " ; ".join([
        "kubectl -n otel-demo get deployments -o name > got.txt",
        "kubectl -n otel-demo create configmap from-the-sandbox --from-literal=a=b > made.txt",
        f"python3 probe.py 127.0.0.1 {other_port} > other.txt",
        f"python3 probe.py {api_host} {api_port} > api.txt",
        "python3 probe.py 192.0.2.1 443 > outside.txt",
    ])  # fmt: skip
    os.chmod(workspace, 0o777)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp",
           "KUBECONFIG": str(workspace / "kubeconfig.yaml")}  # fmt: skip
    try:
        argv = agent_bwrap_argv(script, workspace=workspace, read_only_inputs=[],
                                hidden=[tmp_path / "cluster", tmp_path / "scratch"],
                                confinement=AgentConfinement(), env=env,
                                endpoint=proxy.endpoint)  # fmt: skip
        outcome = run_agent_command(argv, cwd=workspace, env={}, timeout_s=120,
                                    max_processes=256)  # fmt: skip
        assert outcome.exit_code == 0, outcome.stderr
        got = (workspace / "got.txt").read_text().split()
        assert "deployment.apps/frontend" in got, outcome.stderr
        assert "created" in (workspace / "made.txt").read_text(), outcome.stderr
        assert [(w.method, w.status) for w in proxy.writes] == [("POST", 201)]
        assert _get(cluster, "configmap", "from-the-sandbox", "-n", "otel-demo") is not None
        for name in ("other", "api", "outside"):
            assert (workspace / f"{name}.txt").read_text().startswith("refused"), name
        # the same probes from the host: the first two answer there (the sandbox is what
        # shuts them)
        for host, port in (("127.0.0.1", other_port), (api_host, api_port)):
            done = subprocess.run(["python3", "-c", _PROBE, host, str(port)],
                                  capture_output=True, text=True, timeout=30)  # fmt: skip
            assert done.stdout.startswith("open"), (host, port)
    finally:
        proxy.stop()
    assert not proxy.socket_path.exists()


@needs_bwrap
def test_sandbox_without_the_network_keeps_the_endpoint_shut(cluster: Path, tmp_path: Path) -> None:
    """``--agent-network none`` is none: the trial's endpoint is not relayed either."""
    from itbench.sandbox.agent import AgentConfinement, agent_bwrap_argv
    from sre.live.kube import flat_kubeconfig
    from sre.live.write_counter import start_proxy

    proxy = start_proxy(flat_kubeconfig(cluster, tmp_path / "home"), tmp_path / "scratch")
    assert proxy is not None
    try:
        argv = agent_bwrap_argv("true", workspace=tmp_path, read_only_inputs=[], hidden=[],
                                confinement=AgentConfinement(network="none"), env={},
                                endpoint=proxy.endpoint)  # fmt: skip
        assert str(proxy.socket_path) not in argv
        assert "--unshare-net" in argv or ("--unshare-all" in argv and "--share-net" not in argv)
    finally:
        proxy.stop()


# -- the diagnosis snapshot is the cluster's ------------------------------------------------------
def test_baseline_diagnoses_from_the_snapshot_collected_from_the_cluster(
    cluster: Path, prometheus, tmp_path: Path
) -> None:
    """The workspace's snapshot in a live trial: the served cluster's objects (before the
    injection and at the call-in), its events, the fake Prometheus' alerts; no generated
    metrics, traces or logs, and the metadata says why. The baseline diagnoses from it."""
    fault, seed = POLICY_FAULT
    injection = render_injection(fault, seed)
    policy = injection.root.name
    prom = prometheus(_policy_rules(cluster, injection.target, policy))
    scenario = _scenario(tmp_path, fault, seed)
    generated_alerts = sorted(p.name for p in (scenario / "alerts").iterdir())
    out = tmp_path / "out"
    proc = _run(["--scenarios", str(scenario), "--agent", "baseline", "--kubeconfig",
                 str(cluster), "--prometheus", prom.url, *FAST], out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (trial,) = sorted(out.glob("*/1"))
    e = _evaluation(out)
    meta = json.loads((trial / "live_snapshot.json").read_text())
    assert meta == e["details"]["snapshot"]
    assert meta["source"] == "live cluster" and len(meta["observed_at"]) == 2
    assert sorted(meta["not_collected"]) == ["logs", "metrics", "traces"]
    for name in ("otel_traces_raw.tsv", "otel_logs_raw.tsv", "metrics"):
        assert not (trial / name).exists(), name
    # the alerts are Prometheus': before the fault (Watchdog alone), at the call-in (the fault's)
    files = sorted((trial / "alerts").iterdir())
    assert len(files) == 2 and not {f.name for f in files} & set(generated_alerts)
    names = [sorted(a["labels"]["alertname"] for a in json.loads(f.read_text())["data"]["alerts"])
             for f in files]  # fmt: skip
    assert names == [["Watchdog"], ["RequestErrorRate", "Watchdog"]]
    # the objects: the cluster's, the NetworkPolicy only in the second observation
    rows = (trial / "k8s_objects_raw.tsv").read_text().splitlines()[1:]
    stamps = sorted({r.split("\t")[0] for r in rows})
    assert len(stamps) == 2 and all(s.startswith(meta["observed_at"][0][:10]) for s in stamps)
    with_policy = {r.split("\t")[0] for r in rows if f'""name"":""{policy}""' in r}
    assert with_policy == {stamps[1]}
    # the baseline read this snapshot (it notes the traces it did not find) and blamed the policy
    (line,) = [json.loads(x) for x in (trial / "transcript.jsonl").read_text().splitlines()
               if '"event": "baseline"' in x]  # fmt: skip
    assert line["root_causes"] == [f"otel-demo/NetworkPolicy/{policy}"]
    assert any("traces file is missing" in note for note in line["notes"])
    assert e["scores"]["mitigation_pass"] == 1.0


# -- connection upgrades (exec, attach, port-forward) through the proxy ---------------------------
class _SwitchingServer:
    """An API server stand-in on 127.0.0.1 that switches protocols on an upgrade request and
    then answers every byte upper-cased (a stream of an exec session); it keeps each request
    head it received."""

    def __init__(self) -> None:
        self.heads: list[str] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._session, args=(conn,), daemon=True).start()

    def _session(self, conn: socket.socket) -> None:
        with conn:
            head = b""
            while b"\r\n\r\n" not in head:
                head += conn.recv(4096)
            self.heads.append(head.decode("latin-1"))
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n"
                         b"Upgrade: SPDY/3.1\r\n\r\n")  # fmt: skip
            while data := conn.recv(4096):
                conn.sendall(data.upper())

    def close(self) -> None:
        self.listener.close()


def _kubeconfig_for(server: str, token: str) -> str:
    return yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": "c",
        "clusters": [{"name": "c", "cluster": {"server": server}}],
        "users": [{"name": "u", "user": {"token": token}}],
        "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
    })  # fmt: skip


def _upgrade(port: int, method: str, path: str) -> tuple[bytes, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(
            f"{method} {path} HTTP/1.1\r\nHost: agent\r\nAuthorization: Bearer "
            "forged\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += client.recv(4096)
        client.sendall(b"ls /tmp")
        echoed = b""
        while len(echoed) < 7:
            echoed += client.recv(4096)
        return head, echoed


def test_the_proxy_splices_exec_and_port_forward_and_counts_exec(tmp_path: Path) -> None:
    from sre.live.write_counter import start_proxy

    server = _SwitchingServer()
    proxy = start_proxy(_kubeconfig_for(f"http://127.0.0.1:{server.port}", "s3cret"), tmp_path)
    assert proxy is not None
    port = int(proxy.url.rsplit(":", 1)[1])
    exec_path = "/api/v1/namespaces/otel-demo/pods/cart-1/exec"
    try:
        head, echoed = _upgrade(port, "POST", exec_path + "?command=ls&stdout=true")
        assert head.startswith(b"HTTP/1.1 101 "), head
        assert echoed == b"LS /TMP"
        forward = "/api/v1/namespaces/otel-demo/pods/cart-1/portforward"
        head, echoed = _upgrade(port, "GET", forward + "?ports=8080")
        assert head.startswith(b"HTTP/1.1 101 ") and echoed == b"LS /TMP"
        # the exec is a write (it can change the container), the port-forward is not
        assert [(w.method, w.path, w.status) for w in proxy.writes] == [("POST", exec_path, 101)]
        # upstream saw the user's credentials, never the agent's
        assert all("Authorization: Bearer s3cret" in h for h in server.heads)
        assert not any("forged" in h for h in server.heads)
        assert all("Upgrade: SPDY/3.1" in h for h in server.heads)
    finally:
        proxy.stop()
        server.close()


# -- credentials from an exec plugin ---------------------------------------------------------------
_PLUGIN = """#!/bin/sh
# an exec credential plugin: token-<run number>, expiring at $1
n=$(( $(cat "$0.runs" 2>/dev/null || echo 0) + 1 ))
echo $n > "$0.runs"
echo "$KUBERNETES_EXEC_INFO" > "$0.info"
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",'
printf '"status":{"token":"token-%s","expirationTimestamp":"%s"}}' "$n" "$1"
"""


class _HeaderServer:
    """An API server stand-in that answers ``{}`` and keeps each request's Authorization."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.seen.append(self.headers.get("Authorization", ""))
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize(("expiry", "tokens"), [
    ("2999-01-01T00:00:00Z", ["token-1", "token-1"]),  # held until it expires
    ("2000-01-01T00:00:00Z", ["token-2", "token-3"]),  # expired: the plugin runs again
])  # fmt: skip
def test_the_proxy_gets_credentials_from_an_exec_plugin(
    tmp_path: Path, expiry: str, tokens: list[str]
) -> None:
    import urllib.request

    from sre.live.write_counter import start_proxy

    plugin = tmp_path / "plugin.sh"
    plugin.write_text(_PLUGIN)
    plugin.chmod(0o755)
    server = _HeaderServer()
    config = yaml.safe_load(_kubeconfig_for(server.url, "unused"))
    config["users"][0]["user"] = {"exec": {
        "apiVersion": "client.authentication.k8s.io/v1", "command": str(plugin),
        "args": [expiry], "interactiveMode": "Never"}}  # fmt: skip
    proxy = start_proxy(yaml.safe_dump(config), tmp_path / "scratch")
    assert proxy is not None  # a plugin is no reason to hand the agent the user's own context
    try:
        for _ in range(2):
            with urllib.request.urlopen(proxy.url + "/version", timeout=10) as answer:
                assert answer.status == 200
        assert server.seen == [f"Bearer {t}" for t in tokens]
        info = json.loads((tmp_path / "plugin.sh.info").read_text())
        assert info["kind"] == "ExecCredential" and info["spec"]["interactive"] is False
    finally:
        proxy.stop()
        server.close()


def test_a_failing_exec_plugin_is_an_error_naming_it(tmp_path: Path) -> None:
    from itbench.errors import InputError
    from sre.live.write_counter import start_proxy

    config = yaml.safe_load(_kubeconfig_for("http://127.0.0.1:1", "unused"))
    config["users"][0]["user"] = {"exec": {"apiVersion": "client.authentication.k8s.io/v1",
                                           "command": "false"}}  # fmt: skip
    with pytest.raises(InputError, match="kubeconfig exec plugin false: no ExecCredential"):
        start_proxy(yaml.safe_dump(config), tmp_path / "scratch")
