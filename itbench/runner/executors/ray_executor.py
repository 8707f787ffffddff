"""Run trials on a Ray cluster: a pool of ``jobs`` actors, each holding the domain and agent.

The driver (the ``itbench … run`` process) ships one payload to the object store — the run
context, the trial specs and, when workers cannot see the driver's files, the scenarios' inputs —
and starts ``jobs`` actors that each deserialise it once. Every actor forks one persistent local
worker (``itbench.runner.pool.SingleSlot``), so a trial there has exactly the local runner's hard
time limit, process-group kill, sweep of leftovers and death with its parent.

Files. At start each actor looks for a marker the driver wrote in the run directory:

- seen (one machine, or a shared filesystem such as an NFS or ReadWriteMany volume mounted at the
  same path on every node): the actor writes the trial directory in place, as locally;
- not seen (``transfer``): inputs come from the payload, unpacked once per actor into a local
  scratch directory; the trial runs there and its directory comes back to the driver as a tar
  archive in the object store, which the driver unpacks, committing ``evaluation.json`` last.

``ITBENCH_RAY_FILES=shared|transfer`` forces either mode (``auto`` by default).

Faults. A call that fails because its actor died (a killed worker process, a lost node) puts the
trial back at the front of the queue and a fresh actor takes the slot; a trial whose worker dies
a second time is recorded as an error and the run goes on. A driver killed mid-run takes its
actors with it (Ray ends the actors of a dead owner); evaluations are committed by rename, so
rerunning the command redoes exactly the trials without one.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import secrets
import shutil
import socket
import sys
import tarfile
import tempfile
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itbench.errors import ItbenchError, UsageError
from itbench.models import AgentResult, Evaluation
from itbench.plugins.spec import Task
from itbench.runner.executors.base import OnTrial, record_failure, settle_trial
from itbench.runner.layout import EVALUATION_FILE, safe_name
from itbench.runner.trial import RunContext, TrialSpec, execute_trial, write_evaluation

if TYPE_CHECKING:
    from itbench.runner.benchmark import RunRequest

FILES_ENV = "ITBENCH_RAY_FILES"
FILE_MODES = ("auto", "shared", "transfer")
#: A trial whose worker dies this many times is recorded as an error instead of re-queued.
MAX_WORKER_LOSSES = 2
#: Workers that fail to start, in a row, before the run gives up (one that cannot import the
#: domain, say): re-creating them forever would hang the run.
MAX_STARTUP_FAILURES = 3
#: Beyond the trial's own limit (enforced on the worker), how long the driver waits for a call
#: before it treats the worker as lost (a hung node, a partitioned network).
DRIVER_GRACE_S = 120.0
#: Seconds without any worker placed between two notes on stderr.
WAIT_NOTE_S = 60.0


class RayExecutorError(ItbenchError):
    """Ray is missing, unreachable, or its workers cannot run trials (exit 3)."""


def import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RayExecutorError(
            f"--executor ray needs Ray: pip install 'itbench[ray]' ({exc})"
        ) from exc
    return ray


# --- what travels to the workers -------------------------------------------------------------


@dataclass(frozen=True)
class Payload:
    """Everything an actor needs, put in the object store once per run."""

    ctx: RunContext
    specs: tuple[TrialSpec, ...]
    #: The run's request: each actor opens the domain's session from it (``ctx.session``, the
    #: driver's, stays behind).
    request: RunRequest | None
    run_id: str
    marker: Path
    mode: str
    #: scenario id -> {workspace name: tar archive of the input}; empty in ``shared`` mode.
    inputs: Mapping[str, Mapping[str, bytes]] = field(default_factory=dict)


def _pack(path: Path, arcname: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        archive.add(path, arcname=arcname)
    return buffer.getvalue()


def _unpack(data: bytes, target: Path, *, agent_written: bool = False) -> None:
    """Extract with the ``data`` filter. A trial's directory (``agent_written``) holds what the
    agent left, links to anywhere among it: such a member is left out instead of failing the
    whole run (the worker's evaluator already refused it and said so in the evaluation)."""
    if not hasattr(tarfile, "data_filter"):  # the safe extraction filter arrived in 3.11.4
        raise RayExecutorError("transfer mode needs Python >= 3.11.4 (tarfile data filter)")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r") as archive:
        archive.extractall(target, filter=_skip_refused if agent_written else "data")


def _skip_refused(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    try:
        return tarfile.data_filter(member, dest)
    except tarfile.FilterError:
        return None


def pack_inputs(specs: Sequence[TrialSpec]) -> dict[str, dict[str, bytes]]:
    """Each scenario's inputs once, however many trials it has."""
    packed: dict[str, dict[str, bytes]] = {}
    for spec in specs:
        scenario = spec.scenario
        if scenario.id in packed:
            continue
        try:
            packed[scenario.id] = {
                name: _pack(source, "input") for name, source in scenario.inputs.items()
            }
        except OSError as exc:
            raise RayExecutorError(
                f"scenario {scenario.id}: cannot read input {exc.filename}: {exc.strerror}"
            ) from exc
    return packed


def _pack_trial(directory: Path) -> bytes:
    """The trial directory without ``evaluation.json``: the driver writes that last itself."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for item in sorted(directory.iterdir()):
            if item.name != EVALUATION_FILE:
                archive.add(item, arcname=item.name)
    return buffer.getvalue()


# --- the worker side (runs inside a Ray actor) -----------------------------------------------


class TrialWorker:
    """One pool member: built once from the payload, then runs trials by index."""

    def __init__(self, payload: Payload) -> None:
        ctx = payload.ctx
        if payload.request is not None:
            ctx = ctx.for_session(ctx.domain.open_run(payload.request, worker=True))
        self.payload = replace(payload, ctx=ctx)
        self.mode = payload.mode
        if self.mode == "auto":
            self.mode = "shared" if _marker_matches(payload) else "transfer"
        self.scratch: Path | None = None
        self.specs = list(payload.specs)
        if self.mode == "transfer":
            self.scratch = Path(tempfile.mkdtemp(prefix=f"itbench-ray-{payload.run_id}-"))
            self.specs = self._localise(payload)
        from itbench.runner.pool import SingleSlot

        self.slot = SingleSlot(self.specs, lambda spec: _run_one(spec, ctx))

    def _localise(self, payload: Payload) -> list[TrialSpec]:
        """Unpack every scenario's inputs once and point the specs at the local copies."""
        assert self.scratch is not None
        inputs_root = self.scratch / "inputs"
        runs_root = self.scratch / "run"
        local: dict[str, dict[str, Path]] = {}
        for scenario_id, archives in payload.inputs.items():
            folder = inputs_root / safe_name(scenario_id)
            paths = {}
            for position, (name, data) in enumerate(archives.items()):
                holder = folder / str(position)
                _unpack(data, holder)
                paths[name] = holder / "input"
            local[scenario_id] = paths
        specs = []
        for spec in payload.specs:
            scenario = spec.scenario
            if scenario.id in local:
                scenario = scenario.model_copy(
                    update={"inputs": local[scenario.id], "source_dir": None}
                )
            directory = runs_root / safe_name(scenario.id) / str(spec.number)
            specs.append(TrialSpec(scenario, spec.number, directory))
        return specs

    def describe(self) -> dict[str, Any]:
        return {"mode": self.mode, "host": socket.gethostname(), "pid": os.getpid()}

    def run(self, index: int) -> dict[str, Any]:
        spec = self.specs[index]
        # a previous attempt on a worker that died may have left part of the directory
        if spec.directory.exists():
            shutil.rmtree(spec.directory)
        exit_ = self.slot.run(index, self.payload.ctx.time_limit_s)
        evaluation = settle_trial(spec, self.payload.ctx, exit_.failure, exit_.timed_out)
        reply: dict[str, Any] = {"evaluation": evaluation.model_dump(mode="json")}
        if self.mode == "transfer":
            reply["files"] = _pack_trial(spec.directory)
            shutil.rmtree(spec.directory, ignore_errors=True)
        return reply

    def close(self) -> None:
        self.slot.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


@dataclass(frozen=True)
class _BuiltOnWorker:
    """Stands for the driver's agent in the payload: each worker builds its own."""

    name: str

    def solve(self, task: Task) -> AgentResult:
        raise AssertionError("an agent built on the worker replaces this one")


def _run_one(spec: TrialSpec, ctx: RunContext) -> None:
    execute_trial(spec, ctx)


def _marker_matches(payload: Payload) -> bool:
    try:
        return payload.marker.read_text(encoding="utf-8").strip() == payload.run_id
    except OSError:
        return False


# --- the driver side ---------------------------------------------------------------------------


@dataclass
class _Member:
    actor: Any
    ready: Any  # ObjectRef of describe(): the actor is usable once it resolves
    usable: bool = False


@dataclass
class _Call:
    member: _Member
    index: int
    deadline: float | None


@dataclass(frozen=True)
class RayExecutor:
    address: str | None = None
    request: RunRequest | None = None
    files: str | None = None
    #: CPUs Ray reserves for each concurrent trial.
    cpus_per_trial: float = 1.0

    def execute(
        self,
        specs: Sequence[TrialSpec],
        ctx: RunContext,
        output_dir: Path,
        jobs: int,
        on_trial: OnTrial,
    ) -> None:
        if not specs:
            return
        mode = (self.files or os.environ.get(FILES_ENV) or "auto").lower()
        if mode not in FILE_MODES:
            raise UsageError(f"{FILES_ENV}={mode!r}: expected one of {', '.join(FILE_MODES)}")
        ray = import_ray()
        # Ray prints cluster events (a worker died, …) on the driver's stdout, which is the
        # results document: while connected, stdout is stderr.
        with contextlib.redirect_stdout(sys.stderr):
            connected_here = _connect(ray, self.address)
            try:
                self._execute(ray, specs, ctx, output_dir, jobs, on_trial, mode)
            finally:
                if connected_here:  # also stops Ray's threads that print
                    ray.shutdown()

    def _execute(
        self,
        ray: Any,
        specs: Sequence[TrialSpec],
        ctx: RunContext,
        output_dir: Path,
        jobs: int,
        on_trial: OnTrial,
        mode: str,
    ) -> None:
        run_id = secrets.token_hex(8)
        marker = output_dir.resolve() / f".itbench-ray-{run_id}"
        marker.write_text(run_id + "\n", encoding="utf-8")
        try:
            # the driver's session stays behind, and so does an agent the worker rebuilds
            # (it holds that session)
            shipped = replace(ctx, session=None)
            if ctx.build_agent is not None and self.request is not None:
                shipped = replace(shipped, agent=_BuiltOnWorker(ctx.agent_name))
            payload = Payload(
                ctx=shipped,
                specs=tuple(specs),
                request=self.request,
                run_id=run_id,
                marker=marker,
                mode=mode,
                inputs=pack_inputs(specs) if mode != "shared" else {},
            )
            _Driver(ray, payload, ctx, jobs, self.cpus_per_trial, on_trial).run()
        finally:
            marker.unlink(missing_ok=True)


def _connect(ray: Any, address: str | None) -> bool:
    """Join the cluster at ``address``, else ``$RAY_ADDRESS``, else start a private local
    instance (``auto`` joins one started with ``ray start`` on this machine: never implicitly, as
    a stale record of a stopped one would hang the run); True when this call connected (and the
    run must disconnect), False when the caller had already."""
    import logging

    if ray.is_initialized():
        return False
    target = address or os.environ.get("RAY_ADDRESS") or "local"
    try:
        ray.init(
            address=target,
            include_dashboard=False,
            # workers' output would land on our stdout, which is the results document
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = "a local instance" if target == "local" else target
        raise RayExecutorError(f"cannot connect to Ray at {where}: {exc}") from exc
    return True


class _Driver:
    def __init__(
        self,
        ray: Any,
        payload: Payload,
        ctx: RunContext,
        jobs: int,
        cpus: float,
        on_trial: OnTrial,
    ) -> None:
        self.ray = ray
        self.ctx = ctx
        self.specs = payload.specs
        self.on_trial = on_trial
        try:
            self.payload_ref = ray.put(payload)
        except (TypeError, ValueError, AttributeError, pickle.PicklingError) as exc:
            raise RayExecutorError(
                f"the run cannot be sent to Ray workers (agent {ctx.agent_name!r}, domain "
                f"{ctx.domain.name!r}): {_first_line(exc)}"
            ) from exc
        self.actor_class = ray.remote(TrialWorker).options(
            num_cpus=cpus, max_restarts=0, max_task_retries=0
        )
        self.pending: deque[int] = deque(range(len(self.specs)))
        self.losses: dict[int, int] = {}
        self.startup_failures = 0
        self.members = [self._spawn() for _ in range(max(1, min(jobs, len(self.specs))))]
        self.calls: dict[Any, _Call] = {}
        self.cpus = cpus
        self.waiting_since = time.monotonic()
        self.notes = 0
        self.limit = payload.ctx.time_limit_s

    def _spawn(self) -> _Member:
        actor = self.actor_class.remote(self.payload_ref)
        return _Member(actor, actor.describe.remote())

    def run(self) -> None:
        try:
            while self.pending or self.calls:
                self._dispatch()
                waiting = list(self.calls) + [m.ready for m in self.members if not m.usable]
                ready, _ = self.ray.wait(waiting, num_returns=1, timeout=self._wait_s())
                for ref in ready:
                    if ref in self.calls:
                        self._finish(ref)
                    else:
                        self._started(ref)
                self._expire()
                self._note_waiting()
        finally:
            self._close_all()

    def _close_all(self) -> None:
        """Let idle workers end their forked slot and remove their scratch; then kill them all
        (a worker still busy — the run is being interrupted — dies with its trial)."""
        busy = {id(call.member) for call in self.calls.values()}
        closing = [m.actor.close.remote() for m in self.members if m.usable and id(m) not in busy]
        with contextlib.suppress(Exception):
            self.ray.wait(closing, num_returns=len(closing), timeout=10.0)
        for member in self.members:
            with contextlib.suppress(Exception):
                self.ray.kill(member.actor, no_restart=True)

    def _note_waiting(self) -> None:
        """Say so when no worker has been placed for a while (a cluster without a free CPU, or
        one still scaling up): the run waits for Ray rather than failing, but not silently."""
        if any(m.usable for m in self.members) or self.calls:
            self.waiting_since = time.monotonic()
            return
        waited = time.monotonic() - self.waiting_since
        if waited >= WAIT_NOTE_S * (self.notes + 1):
            self.notes += 1
            print(
                f"ray: no worker placed after {waited:.0f} s; each needs {self.cpus:g} CPU "
                f"(cluster: {self.ray.cluster_resources().get('CPU', 0):g} CPU in all)",
                file=sys.stderr,
            )

    def _dispatch(self) -> None:
        busy = {id(call.member) for call in self.calls.values()}
        for member in self.members:
            if not self.pending:
                return
            if member.usable and id(member) not in busy:
                index = self.pending.popleft()
                deadline = time.monotonic() + self.limit + DRIVER_GRACE_S if self.limit else None
                self.calls[member.actor.run.remote(index)] = _Call(member, index, deadline)

    def _wait_s(self) -> float | None:
        deadlines = [c.deadline for c in self.calls.values() if c.deadline is not None]
        if not deadlines:
            return None if self.calls else 5.0
        return max(0.0, min(deadlines) - time.monotonic())

    def _started(self, ref: Any) -> None:
        member = next(m for m in self.members if m.ready == ref)
        try:
            self.ray.get(ref)
        except self.ray.exceptions.RayError as exc:
            self._startup_failed(member, exc)
            return
        member.usable = True
        self.startup_failures = 0

    def _startup_failed(self, member: _Member, exc: BaseException) -> None:
        self.startup_failures += 1
        if self.startup_failures >= MAX_STARTUP_FAILURES:
            raise RayExecutorError(f"Ray workers cannot start: {_first_line(exc)}") from exc
        print(f"ray: a worker failed to start ({_first_line(exc)}); retrying", file=sys.stderr)
        self._replace(member)

    def _replace(self, member: _Member) -> None:
        with contextlib.suppress(Exception):
            self.ray.kill(member.actor, no_restart=True)
        self.members[self.members.index(member)] = self._spawn()

    def _finish(self, ref: Any) -> None:
        call = self.calls.pop(ref)
        spec = self.specs[call.index]
        try:
            reply = self.ray.get(ref)
        except (self.ray.exceptions.RayActorError, self.ray.exceptions.WorkerCrashedError) as exc:
            self._lost(call, _first_line(exc))
            return
        except self.ray.exceptions.RayError as exc:  # an object lost with its node, say
            self._lost(call, _first_line(exc))
            return
        evaluation = Evaluation.model_validate(reply["evaluation"])
        if "files" in reply:
            _commit_transferred(spec, reply["files"], evaluation)
        self.on_trial(spec, evaluation)

    def _lost(self, call: _Call, reason: str) -> None:
        """The worker died under this trial: re-queue it, or record it after the second loss."""
        spec = self.specs[call.index]
        if call.member in self.members:
            self._replace(call.member)
        losses = self.losses.get(call.index, 0) + 1
        self.losses[call.index] = losses
        if losses >= MAX_WORKER_LOSSES:
            print(f"ray: {spec.label} lost its worker {losses} times; recorded", file=sys.stderr)
            evaluation = record_failure(
                spec, self.ctx, f"worker lost {losses} times: {reason}"[:500]
            )
            self.on_trial(spec, evaluation)
            return
        print(f"ray: {spec.label} lost its worker ({reason}); re-queued", file=sys.stderr)
        self.pending.appendleft(call.index)

    def _expire(self) -> None:
        now = time.monotonic()
        for ref, call in list(self.calls.items()):
            if call.deadline is not None and now >= call.deadline:
                del self.calls[ref]
                self._lost(call, "no reply within the time limit plus grace")


def _commit_transferred(spec: TrialSpec, files: bytes, evaluation: Evaluation) -> None:
    """Unpack a trial sent back by a worker; ``evaluation.json`` last, by rename."""
    if spec.directory.exists():
        shutil.rmtree(spec.directory)
    spec.directory.mkdir(parents=True)
    _unpack(files, spec.directory, agent_written=True)
    write_evaluation(spec.directory, evaluation)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__
