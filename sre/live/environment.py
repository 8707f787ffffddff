"""``itbench sre run --task mitigate --kubeconfig FILE [--prometheus URL]``: the trial's incident
injected into a real cluster running the OpenTelemetry demo, the agent handed that cluster, the
recovery watched, the injection cleaned up whatever happens.

One trial, in order: the cluster and Prometheus answered before any trial started
(:func:`live_settings_from`, when the run's session opens); the trials of a run take turns on the cluster (a lock file in the run
directory); the namespace's alerts are read, the fault injected (:mod:`sre.live.injection`),
Prometheus waited on until the fault's alerts fire, the namespace's objects recorded; the
workspace's snapshot is the cluster's (:mod:`sre.live.snapshot`, observed before the injection
and at the call-in); the agent gets ``KUBECONFIG`` (the kubeconfig's current context only, in its workspace, removed after); then
the recovery watcher (:mod:`sre.live.watch`), the blast radius, and the clean-up: created objects
deleted, patched objects restored as the cluster held them before the injection. The clean-up runs
on failure, on Ctrl-C and on SIGTERM too, and what it did lands in the verdict beside the scores.
"""

from __future__ import annotations

import fcntl
import json
import signal
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itbench.errors import InputError, ItbenchError, UsageError
from itbench.fsutil import atomic_write_text
from sre.generator.model import ObjectRef
from sre.live.injection import (
    CreateStep,
    Injection,
    PatchStep,
    render_injection,
    resource_name,
    restorable,
)
from sre.live.janitor import CleanUpPlan, Janitor, clean_up
from sre.live.kube import LiveKubectl, check_reachable, flat_kubeconfig
from sre.live.prometheus import Prometheus, check_prometheus
from sre.live.snapshot import NAMESPACED, LiveSnapshot
from sre.live.watch import Observer, blast_radius, deployment_ready, namespace_objects, verdict
from sre.live.watch import watch as recovery_watch
from sre.live.write_counter import WriteCountingProxy, start_proxy

if TYPE_CHECKING:
    import click

    from itbench.models import Scenario
    from sre.twin.suite import MitigationTruth

KUBECONFIG_FILE = "kubeconfig.yaml"
LOCK_FILE = ".live-cluster.lock"


@dataclass(frozen=True)
class LiveSettings:
    kubeconfig: Path
    prometheus: str | None
    interval_s: float
    timeout_s: float
    fault_timeout_s: float
    run_directory: Path


def live_options() -> Sequence[click.Option]:
    import click

    return [
        click.Option(
            ["--kubeconfig", "live_kubeconfig"],
            type=click.Path(path_type=Path, dir_okay=False),
            help="Live mode (with --task mitigate): inject each incident into the real cluster "
            "of this kubeconfig's current context (running the OpenTelemetry demo), hand the "
            "agent that context, watch the recovery, clean up.",
        ),
        click.Option(
            ["--prometheus", "live_prometheus"],
            metavar="URL",
            help="Live mode: Prometheus whose alerts (GET /api/v1/alerts) say when the fault "
            "fired and when it cleared; without it only the cluster's state is checked.",
        ),
        click.Option(
            ["--recovery-interval", "live_interval"],
            type=click.FloatRange(min=0.01),
            default=30.0,
            show_default=True,
            help="Live mode: seconds between two recovery checks (ITBench's watcher: 30).",
        ),
        click.Option(
            ["--recovery-timeout", "live_timeout"],
            type=click.FloatRange(min=0.0),
            default=300.0,
            show_default=True,
            help="Live mode: seconds the recovery is watched for after the agent stops; two "
            "consecutive passing checks end it early.",
        ),
        click.Option(
            ["--fault-timeout", "live_fault_timeout"],
            type=click.FloatRange(min=0.0),
            default=300.0,
            show_default=True,
            help="Live mode: seconds to wait after the injection for the fault's first alert "
            "(with --prometheus).",
        ),
    ]


def live_settings_from(
    options: Mapping[str, Any], run_directory: Path | None
) -> LiveSettings | None:
    """The live mode's settings of ``options`` (None: no ``--kubeconfig``), the cluster and
    Prometheus checked before any trial starts (a usage error names what does not answer)."""
    kubeconfig = options.get("live_kubeconfig")
    prometheus = options.get("live_prometheus")
    if kubeconfig is None:
        if prometheus:
            raise UsageError("--prometheus needs --kubeconfig FILE (live mode)")
        return None
    if str(options.get("sre_task") or "diagnose") != "mitigate":
        raise UsageError("--kubeconfig (live mode) needs --task mitigate")
    run_dir = Path(run_directory or Path("outputs") / "sre").resolve()
    home = run_dir / ".itbench-live" / "kubectl-home"
    version = check_reachable(Path(kubeconfig), home)
    alerts = check_prometheus(prometheus) if prometheus else None
    import sys

    print(
        f"sre: live mode on {kubeconfig} (Kubernetes {version})"
        + (
            f", Prometheus {prometheus} ({len(alerts)} alert(s) now)"
            if alerts is not None
            else ", no Prometheus: recovery is read from the cluster only"
        ),  # fmt: skip
        file=sys.stderr,
    )
    return LiveSettings(
        kubeconfig=Path(kubeconfig).resolve(),
        prometheus=prometheus,
        interval_s=float(options.get("live_interval") or 30.0),
        timeout_s=float(options.get("live_timeout", 300.0)),
        fault_timeout_s=float(options.get("live_fault_timeout", 300.0)),
        run_directory=run_dir,
    )


def injectable_only(scenarios: list[Scenario], live: LiveSettings | None) -> list[Scenario]:
    """In live mode (``live``), the scenarios whose fault an API write can inject (the others are
    named on stderr); every scenario otherwise."""
    if live is None:
        return scenarios
    import sys

    from sre.twin.suite import MitigationTruth

    kept = []
    for scenario in scenarios:
        truth = scenario.ground_truth
        if isinstance(truth, MitigationTruth):
            try:
                render_injection(truth.fault_type, truth.seed, truth.target)
            except UsageError as exc:
                print(f"sre: live mode skips {scenario.id}: {exc}", file=sys.stderr)
                continue
        kept.append(scenario)
    if not kept:
        raise UsageError("live mode: none of the scenarios can be injected into a cluster")
    return kept


class Interrupted(BaseException):
    """SIGTERM during a live trial: unwinds like Ctrl-C so the clean-up runs."""


@contextmanager
def _terminate_unwinds() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_interrupted(signum: int, frame: object) -> None:
        raise Interrupted(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, raise_interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def _cluster_turn(run_directory: Path) -> Iterator[None]:
    """One trial at a time on the cluster, whatever ``-j`` says (they would see each other's
    faults)."""
    run_directory.mkdir(parents=True, exist_ok=True)
    with open(run_directory / LOCK_FILE, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@dataclass
class LiveTrial:
    settings: LiveSettings
    injection: Injection
    workspace: Path
    kubectl: LiveKubectl = field(init=False)
    prometheus: Prometheus | None = field(init=False)
    saved: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    #: pods the node fault's drain evicted
    evicted: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.kubectl = LiveKubectl(self.settings.kubeconfig, self.private / "kubectl-home")
        self.prometheus = Prometheus(self.settings.prometheus) if self.settings.prometheus else None

    # -- injection ---------------------------------------------------------------------------
    @property
    def private(self) -> Path:
        """This trial's files the agent must not read (the clean-up plan holds the objects as
        they were before the fault): in the run directory, outside the workspace."""
        return (
            self.settings.run_directory
            / ".itbench-live"
            / (f"{self.workspace.parent.name}-{self.workspace.name}")
        )

    def cleanup_plan(self) -> CleanUpPlan:
        injection = self.injection
        return CleanUpPlan(
            kubeconfig=self.settings.kubeconfig,
            home=self.private / "kubectl-home",
            # deleted in reverse: the fault's objects before the installation's
            created=tuple(
                (c.resource, c.ref.name, c.ref.namespace)
                for c in (*injection.setup_creates, *injection.creates)
            ),  # fmt: skip
            saved=tuple(self.saved),
            agent_kubeconfig=(self.workspace / KUBECONFIG_FILE).resolve(),
        )

    def _save(self, resource: str, ref: ObjectRef, why: str) -> None:
        """Keep ``ref`` as the cluster holds it now (the clean-up writes it back); it must
        exist."""
        live = self.kubectl.get(resource, ref.name, ref.namespace or None)
        if live is None:
            raise InputError(
                f"{self.settings.kubeconfig}: the cluster has no {ref.kind} "
                f"{ref.namespace}/{ref.name} for the {self.injection.fault_type} fault to "
                f"{why} (is the OpenTelemetry demo installed in that namespace?)"
            )
        body = restorable(live)
        meta = body.get("metadata") or {}
        key = (resource, meta.get("namespace"), meta.get("name"))
        if all((r, b["metadata"].get("namespace"), b["metadata"].get("name")) != key
               for r, b in self.saved):  # fmt: skip
            self.saved.append((resource, body))

    def resolve_node(self) -> None:
        """A node fault lands on the node the target's pod runs on in this cluster (the
        generator's nodes are its own): the injection made concrete on it."""
        if self.injection.node_fault is None:
            return
        pods = self._target_pods()
        nodes = sorted({str((p.get("spec") or {}).get("nodeName")) for p in pods
                        if (p.get("spec") or {}).get("nodeName")})  # fmt: skip
        if not nodes:
            raise InputError(
                f"{self.settings.kubeconfig}: no pod of Deployment {self.injection.namespace}/"
                f"{self.injection.target} is scheduled on a node, so there is no node for the "
                f"{self.injection.fault_type} fault (is the OpenTelemetry demo running?)"
            )
        live = self.kubectl.get("node", nodes[0])
        if live is None:
            raise InputError(f"{self.settings.kubeconfig}: the cluster has no Node {nodes[0]}, "
                             f"where {self.injection.target}'s pod runs")  # fmt: skip
        self.injection = self.injection.on_node(live)

    def _target_pods(self) -> list[dict[str, Any]]:
        """The target Deployment's pods, by its own selector."""
        injection = self.injection
        dep = self.kubectl.get("deployment", injection.target, injection.namespace)
        labels = (((dep or {}).get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
        if not labels:
            return []
        selector = ",".join(f"{k}={v}" for k, v in sorted(labels.items()))
        done = self.kubectl("get", "pods", "-n", injection.namespace, "-l", selector, "-o", "json")
        if done.code != 0:
            raise InputError(f"listing the pods of {injection.target}: {done.stderr}")
        return list(json.loads(done.stdout).get("items") or [])

    def drain(self) -> list[str]:
        """Evict the target's pods on the cordoned node (what ``kubectl drain`` does to them,
        through the Eviction API, so a PodDisruptionBudget is honoured): the names evicted."""
        injection = self.injection
        evicted = []
        for pod in self._target_pods():
            name = pod["metadata"]["name"]
            if (pod.get("spec") or {}).get("nodeName") != injection.root.name:
                continue
            eviction = {"apiVersion": "policy/v1", "kind": "Eviction",
                        "metadata": {"name": name, "namespace": injection.namespace}}  # fmt: skip
            done = self.kubectl(
                "create", "--raw",
                f"/api/v1/namespaces/{injection.namespace}/pods/{name}/eviction", "-f", "-",
                stdin=json.dumps(eviction),
            )  # fmt: skip
            if done.not_found:
                continue  # gone already (kubectl drain takes a 404 so too)
            if done.code != 0:
                raise InputError(f"evicting pod {name} from node {injection.root.name}: "
                                 f"{done.stderr}")  # fmt: skip
            evicted.append(name)
        return evicted

    def preflight(self) -> None:
        """Every object the fault (or its scenario's installation) patches or deletes exists and
        is saved as it is; none it creates does (a leftover of an earlier run would be taken
        for the fault)."""
        injection = self.injection
        for step in injection.setup_patches:
            self._save(step.resource, step.ref, "install on")
        for step in injection.patches:
            if not injection.set_up(step.ref):  # made by the installation, deleted at clean-up
                self._save(step.resource, step.ref, "change")
        for gone in injection.deletes:
            self._save(gone.resource, gone.ref, "delete")
        for create in (*injection.setup_creates, *injection.creates):
            ref = create.ref
            if self.kubectl.get(create.resource, ref.name, ref.namespace or None) is not None:
                raise InputError(
                    f"{self.settings.kubeconfig}: {ref.kind} {ref.namespace}/{ref.name} already "
                    "exists (left by an earlier run?); delete it before a live run"
                )

    def _create(self, step: CreateStep) -> None:
        done = self.kubectl("create", "-f", "-", stdin=json.dumps(step.body))
        if done.code != 0:
            raise InputError(f"injecting {step.ref.kind} {step.ref.name}: {done.stderr}")

    def _patch(self, step: PatchStep) -> None:
        ref = step.ref
        ns = ["-n", ref.namespace] if ref.namespace else []
        done = self.kubectl("patch", step.resource, ref.name, *ns, "--type=json", "-p",
                            json.dumps(list(step.ops)))  # fmt: skip
        if done.code != 0:
            raise InputError(f"injecting the change of {ref.kind} {ref.name}: {done.stderr}")

    def inject(self) -> None:
        """The scenario's installation first, then the fault: its objects, its changes, its
        deletions."""
        injection = self.injection
        for create in injection.setup_creates:
            self._create(create)
        for step in injection.setup_patches:
            self._patch(step)
        for create in injection.creates:
            self._create(create)
        for step in injection.patches:
            self._patch(step)
        for gone in injection.deletes:
            ref = gone.ref
            ns = ["-n", ref.namespace] if ref.namespace else []
            done = self.kubectl("delete", gone.resource, ref.name, *ns, "--wait=false")
            if done.code != 0:
                raise InputError(f"injecting the deletion of {ref.kind} {ref.name}: {done.stderr}")
        if injection.node_fault is not None and injection.node_fault.drain:
            self.evicted = self.drain()

    def alerts(self) -> dict[str, str]:
        return self.prometheus.alerts() if self.prometheus else {}

    def wait_for_fault(self, before: frozenset[str]) -> tuple[str, ...]:
        """The alerts the fault raised: firing after the injection and not before it."""
        if self.prometheus is None:
            return ()
        deadline = time.monotonic() + self.settings.fault_timeout_s
        while True:
            firing = {k for k, s in self.alerts().items() if s == "firing"} - before
            if firing:
                return tuple(sorted(firing))
            if time.monotonic() + self.settings.interval_s > deadline:
                raise InputError(
                    f"the {self.injection.fault_type} fault raised no alert in Prometheus "
                    f"{self.settings.prometheus} within {self.settings.fault_timeout_s:g} s "
                    "(the injection was cleaned up)"
                )
            time.sleep(self.settings.interval_s)


def live_snapshot(trial: LiveTrial) -> LiveSnapshot:
    """The trial's observer of the cluster: the fault's namespace and those its objects live in,
    the kinds the tools read, Chaos Mesh's and those the fault creates (unserved kinds are noted,
    not fatal)."""
    from sre.cluster import CHAOS_KINDS

    injection = trial.injection
    namespaces = sorted({injection.namespace} | {c.ref.namespace for c in injection.creates
                                                 if c.ref.namespace})  # fmt: skip
    extra = {resource_name(kind) for kind in CHAOS_KINDS}
    extra |= {c.resource for c in (*injection.creates, *injection.setup_creates)
              if c.ref.namespace}  # fmt: skip
    return LiveSnapshot(trial.kubectl, trial.prometheus, tuple(namespaces), trial.workspace,
                        tuple(sorted(extra - set(NAMESPACED))))  # fmt: skip


def _agent_kubeconfig(trial: LiveTrial) -> tuple[Path, WriteCountingProxy | None]:
    """The agent's kubeconfig: the write-counting proxy in front of the cluster, or (credentials
    from an auth-provider the proxy cannot replay) the user's current context itself."""
    path = (trial.workspace / KUBECONFIG_FILE).resolve()
    text = flat_kubeconfig(trial.settings.kubeconfig, trial.private / "kubectl-home")
    proxy = start_proxy(text, trial.private / "proxy")
    atomic_write_text(path, proxy.kubeconfig_text() if proxy is not None else text)
    path.chmod(0o600)
    return path, proxy


@contextmanager
def live_environment(
    truth: MitigationTruth, workspace: Path, settings: LiveSettings
) -> Iterator[Mapping[str, str]]:
    from itbench.records import write_signed_record
    from sre.twin.suite import VERDICT_FILE

    injection = render_injection(truth.fault_type, truth.seed, truth.target)
    with _cluster_turn(settings.run_directory), _terminate_unwinds():
        trial = LiveTrial(settings, injection, workspace)
        trial.resolve_node()
        injection = trial.injection
        verdict_file = workspace / VERDICT_FILE
        doc: dict[str, Any] = {"mode": "live", "kubeconfig": str(settings.kubeconfig),
                               "prometheus": settings.prometheus}  # fmt: skip
        doc["injection"] = {
            "created": [c.ref.kind + " " + c.ref.name for c in injection.creates],
            "patched": [p.ref.kind + " " + p.ref.name for p in injection.patches],
            "deleted": [d.ref.kind + " " + d.ref.name for d in injection.deletes],
            "installed": [s.ref.kind + " " + s.ref.name for s in injection.setup_creates]
            + [s.ref.kind + " " + s.ref.name for s in injection.setup_patches],
        }
        scores: dict[str, float] = {}
        failure: ItbenchError | None = None
        trial.preflight()
        plan = trial.cleanup_plan()
        plan.write(trial.private / "cleanup-plan.json")
        janitor = Janitor.start(trial.private / "cleanup-plan.json", verdict_file,
                                trial.private / "janitor.log")  # fmt: skip
        snapshot = live_snapshot(trial)
        try:
            # the workspace's snapshot is the cluster's: before the injection and at the call-in
            snapshot.clear()
            snapshot.observe()
            before = frozenset(k for k, s in trial.alerts().items() if s == "firing")
            trial.inject()
            if injection.node_fault is not None and injection.node_fault.drain:
                doc["injection"]["evicted"] = list(trial.evicted)
            fault_alerts = trial.wait_for_fault(before)
            snapshot.observe()
            doc["snapshot"] = snapshot.finish()
            at_call_in = namespace_objects(trial.kubectl, injection.namespace)
            healthy = {o["metadata"]["name"] for k, o in at_call_in.items()
                       if k.startswith("Deployment ") and deployment_ready(o)[0] >= 1
                       and deployment_ready(o)[0] >= deployment_ready(o)[1]}  # fmt: skip
            kubeconfig, proxy = _agent_kubeconfig(trial)
            called_in = time.monotonic()
            # a sandboxed agent's network is the proxy alone (without a proxy, the user's own
            # context: its server is wherever the kubeconfig says, and the host's network stays)
            agent_env = {"KUBECONFIG": str(kubeconfig)}
            if proxy is not None:
                agent_env.update(proxy.endpoint.variable())
            try:
                yield agent_env
            finally:
                if proxy is not None:
                    proxy.stop()
            observer = Observer(trial.kubectl, trial.prometheus, injection, before, fault_alerts,
                                called_in, frozenset(healthy))  # fmt: skip
            checks = recovery_watch(observer.check, settings.interval_s, settings.timeout_s)
            gone = trial.kubectl.get("namespace", injection.namespace)
            namespace_gone = (
                gone is None or (gone.get("status") or {}).get("phase") == "Terminating"
            )
            after = namespace_objects(trial.kubectl, injection.namespace)
            blast = blast_radius(injection, at_call_in, after, namespace_gone, healthy, checks)
            writes = None if proxy is None else [w.at - called_in for w in proxy.writes]
            result = verdict(fault_alerts, checks, blast, writes)
            scores = result.scores()
            doc.update(result.details())
        except ItbenchError as exc:
            # reported after the clean-up, with it: a failed trial has no verdict to carry it
            failure = exc
            doc["error"] = str(exc)
        except BaseException as exc:
            doc["error"] = f"{type(exc).__name__}: {exc}"
            raise
        finally:
            try:
                cleanup = clean_up(plan)
                doc["cleanup"] = cleanup.doc()
                write_signed_record(workspace, VERDICT_FILE, {"scores": scores, "details": doc})
            finally:
                janitor.dismiss()
        if failure is not None:
            raise InputError(f"{failure} ({cleanup.summary()})") from None
