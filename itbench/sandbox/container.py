"""Run a sandboxed command in a container (``--sandbox container``), with bubblewrap's guarantees.

Only what is bound exists besides the image: the working folder (the only writable mount), the
inputs read-only, itbench's own code read-only (answers left out, as in bubblewrap), and for an
evaluation the scenario's host files and cluster manifests read-only. The image's root is
read-only; /tmp and /run are private tmpfs of the file-size cap. Every capability is dropped, no
new privileges; the network is none (loopback only: the trial's cluster runs there) or, for an
agent with ``--agent-network allow``, a namespace of its own with outbound access (never the
host's: abstract UNIX sockets belong to the network namespace) into whose loopback the host's
services the agent is given are relayed. Memory (a cgroup cap on the whole container, and
RLIMIT_DATA per process as in bubblewrap), processes (pids cgroup), file size (RLIMIT_FSIZE),
time (the container is killed) and output (head and tail kept, then killed) are capped. The
container is removed whatever happens.
"""

from __future__ import annotations

import contextlib
import os
import resource
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itbench.sandbox.limits import ResourceLimits
from itbench.sandbox.loopback import LoopbackService, relayed

if TYPE_CHECKING:  # the docker SDK is an optional extra, imported when a container is made
    from docker import APIClient
    from docker.types import Ulimit

    from itbench.sandbox.identity import SandboxUser
    from itbench.sandbox.sandboxed import SandboxResult

#: The file-descriptor and process-count rlimits given explicitly: Docker-compatible engines
#: otherwise set their own (Podman: 1048576), which an engine without CAP_SYS_RESOURCE refuses.
#: The pids cgroup, not RLIMIT_NPROC, is the process cap.
_NPROC_CEILING = 32768


@dataclass(frozen=True)
class Mount:
    source: str
    target: str
    writable: bool = False


@dataclass(frozen=True)
class ContainerSpec:
    """One sandboxed command as a container."""

    image: str
    argv: tuple[str, ...]
    workdir: str
    mounts: tuple[Mount, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    #: the engine's network mode: "none", or an outbound network of the container's own
    #: (:func:`itbench.sandbox.engine.outbound_network`)
    network: str = "none"
    #: the host's loopback services relayed into the container while it runs (their sockets
    #: bound at :attr:`~itbench.sandbox.loopback.LoopbackService.in_sandbox`)
    relays: tuple[LoopbackService, ...] = ()
    #: tmpfs mount points (sized by the file-size cap).
    scratch: tuple[str, ...] = ("/tmp", "/run")
    max_processes: int = 256
    hostname: str = "itbench-sandbox"
    #: "uid:gid" the command runs as (nobody when itbench runs as root, as in bubblewrap); None:
    #: the image's user (root without capabilities)
    user: str | None = None


@dataclass(frozen=True)
class ContainerOutcome:
    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool
    output_capped: bool
    oom_killed: bool
    duration_s: float


class _Bounded:
    """The first and last half of ``cap`` bytes of a stream, and its total size."""

    def __init__(self, cap: int | None) -> None:
        self.cap = cap
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> bool:
        """Keep ``chunk``; True when the stream just passed the cap."""
        before = self.total
        self.total += len(chunk)
        if self.cap is None:
            self.head += chunk
            return False
        half = self.cap // 2
        room = max(0, half - len(self.head))
        self.head += chunk[:room]
        self.tail += chunk[room:]
        if len(self.tail) > self.cap - half:
            del self.tail[: len(self.tail) - (self.cap - half)]
        return before <= self.cap < self.total

    def text(self) -> str:
        if self.cap is None or self.total <= self.cap:
            return bytes(self.head + self.tail).decode(errors="replace")
        omitted = self.total - len(self.head) - len(self.tail)
        return (
            self.head.decode(errors="replace")
            + f"\n[itbench: {omitted} bytes omitted: the output passed its cap of {self.cap} bytes]\n"
            + self.tail.decode(errors="replace")
        )


def _ulimits(limits: ResourceLimits) -> list[Ulimit]:
    import docker.types

    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    nproc = resource.getrlimit(resource.RLIMIT_NPROC)[0]
    nproc = _NPROC_CEILING if nproc in (resource.RLIM_INFINITY, -1) else min(nproc, _NPROC_CEILING)
    found = [
        docker.types.Ulimit(name="nofile", soft=nofile, hard=nofile),
        docker.types.Ulimit(name="nproc", soft=nproc, hard=nproc),
    ]
    if limits.file_size_bytes is not None:
        size = limits.file_size_bytes
        found.append(docker.types.Ulimit(name="fsize", soft=size, hard=size))
    if limits.memory_bytes is not None:
        size = limits.memory_bytes
        found.append(docker.types.Ulimit(name="data", soft=size, hard=size))
    return found


def _host_config(
    api: APIClient, spec: ContainerSpec, limits: ResourceLimits, mounts: Sequence[Mount]
) -> dict[str, Any]:
    from itbench.sandbox.engine import cgroup_parent

    scratch = "" if limits.file_size_bytes is None else f"size={limits.file_size_bytes}"
    tmpfs = {point: ",".join(filter(None, [scratch, "mode=1777"])) for point in spec.scratch}
    # Podman lays a writable tmpfs over /var/tmp of a read-only container on its own: an empty
    # read-only one instead, as nothing but the working folder and the scratch may be written
    tmpfs.setdefault("/var/tmp", "ro,size=64k")
    # the engine's /sys shows the host's root-only files (slab statistics, module parameters) to
    # the container's root: empty, as in bubblewrap (hosttree.sysfs_args says why nothing needs it)
    tmpfs.setdefault("/sys", "ro,size=64k")
    return api.create_host_config(
        binds={m.source: {"bind": m.target, "mode": "rw" if m.writable else "ro"} for m in mounts},
        tmpfs=tmpfs,
        network_mode=spec.network,
        read_only=True,
        cap_drop=["ALL"],
        security_opt=["no-new-privileges"],
        pids_limit=spec.max_processes,
        mem_limit=limits.memory_bytes,
        memswap_limit=limits.memory_bytes,
        ulimits=_ulimits(limits),
        cgroup_parent=cgroup_parent(),
    )


#: How often the state of a container whose output ended is asked for until it has exited.
_EXIT_POLL_S = 0.02

#: The label naming the process that made a container: a trial worker killed at its time limit
#: dies before it can remove its container, which then runs on (for hours: ``sleep`` in a hostile
#: script); the next command on this host removes it (:func:`reap_orphans`).
OWNER_LABEL = "io.itbench.owner"
#: Seconds between two looks for orphans in one process (a look is one engine request).
_REAP_EVERY_S = 30.0
_last_reap = [-_REAP_EVERY_S]


def _owner(pid: int | None = None) -> str:
    import socket

    return f"{socket.gethostname()}:{os.getpid() if pid is None else pid}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def reap_orphans(api: APIClient) -> list[str]:
    """Remove (killing if need be) the containers this host's itbench processes made whose
    maker has died; the ids removed. A maker on another host is left alone."""
    import socket

    host = socket.gethostname()
    removed = []
    for found in api.containers(all=True, filters={"label": OWNER_LABEL}):
        owner = str((found.get("Labels") or {}).get(OWNER_LABEL, ""))
        owner_host, _, pid = owner.rpartition(":")
        if owner_host != host or not pid.isdigit() or _alive(int(pid)):
            continue
        with contextlib.suppress(Exception):  # removed meanwhile by another reaper
            api.remove_container(found["Id"], force=True)
            removed.append(str(found["Id"]))
    return removed


def kill_containers_of(pid: int) -> list[str]:
    """SIGKILL and remove every container the process ``pid`` of this host made: a trial worker
    killed at its time limit (or dead otherwise) cannot remove its own, which would run on past
    the limit. The ids removed; nothing when no engine was used in this process."""
    from itbench.sandbox.engine import engine_client

    try:
        api = engine_client().api
        found = api.containers(all=True, filters={"label": f"{OWNER_LABEL}={_owner(pid)}"})
    except Exception:  # the engine gone: the next command's reaper tries again
        return []
    removed = []
    for container in found:
        with contextlib.suppress(Exception):  # exited already: removed all the same
            api.kill(container["Id"])  # SIGKILL: no grace past a time limit
        with contextlib.suppress(Exception):  # removed meanwhile by a reaper
            api.remove_container(container["Id"], force=True)
            removed.append(str(container["Id"]))
    return removed


def _reap_now_and_then(api: APIClient) -> None:
    now = time.monotonic()
    if now - _last_reap[0] < _REAP_EVERY_S:
        return
    _last_reap[0] = now
    with contextlib.suppress(Exception):  # never the reason a command fails
        reap_orphans(api)


def run_container(
    spec: ContainerSpec, *, limits: ResourceLimits, timeout_s: float | None
) -> ContainerOutcome:
    """Run ``spec`` to its end (or its time or output limit) and remove the container.

    Requests to the engine: create, attach, start, inspect, remove, through the SDK's
    low-level client: the container's end is its output stream closing, then its state says how
    it ended. The engine's ``wait`` is not used: Podman answers it by polling the runtime, which
    costs a third of a second or more per command.
    """
    with relayed(spec.relays) as sockets:
        # bound after /run's tmpfs (the engine mounts the shallower first); connecting to a
        # socket needs no writable mount
        relays = [Mount(str(sockets[service]), service.in_sandbox) for service in spec.relays]
        return _run(spec, (*spec.mounts, *relays), limits=limits, timeout_s=timeout_s)


def _run(
    spec: ContainerSpec,
    mounts: Sequence[Mount],
    *,
    limits: ResourceLimits,
    timeout_s: float | None,
) -> ContainerOutcome:
    from itbench.sandbox.engine import engine_client

    api = engine_client().api
    _reap_now_and_then(api)
    started = time.monotonic()
    deadline = None if timeout_s is None else started + timeout_s
    container = api.create_container(
        spec.image,
        list(spec.argv),
        working_dir=spec.workdir,
        environment=dict(spec.env),
        host_config=_host_config(api, spec, limits, mounts),
        hostname=spec.hostname or None,
        user=spec.user,
        stdin_open=False,
        tty=False,
        detach=True,
        labels={OWNER_LABEL: _owner()},
    )["Id"]
    stdout, stderr = _Bounded(limits.output_bytes), _Bounded(limits.output_bytes)
    capped = threading.Event()

    def kill() -> None:
        with contextlib.suppress(Exception):
            api.kill(container)

    def read(stream: Iterable[tuple[bytes | None, bytes | None]]) -> None:
        with contextlib.suppress(Exception):  # the stream broken by a kill ends the same way
            for out, err in stream:
                for sink, chunk in ((stdout, out), (stderr, err)):
                    if chunk and sink.feed(chunk) and not capped.is_set():
                        capped.set()
                        kill()

    try:
        # attached before the start: Podman sends nothing written before an attach
        stream = api.attach(container, stdout=True, stderr=True, stream=True, demux=True, logs=True)
        reader = threading.Thread(target=read, args=(stream,), daemon=True)
        reader.start()
        api.start(container)
        reader.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        timed_out = reader.is_alive()
        if timed_out:
            kill()
            reader.join(timeout=30)
        state = _exited_state(api, container, deadline, kill)
        timed_out = timed_out or bool(state.get("itbench_timed_out"))
        code = int(state.get("ExitCode", -1))
        if code == -1 and (timed_out or capped.is_set()):
            code = 137  # killed here: the engine may not know the code (Podman says -1)
        oom = bool(state.get("OOMKilled"))
    finally:
        with contextlib.suppress(Exception):
            api.remove_container(container, force=True)
    return ContainerOutcome(
        code,
        stdout.text(),
        stderr.text(),
        timed_out and not capped.is_set(),
        capped.is_set(),
        oom,
        time.monotonic() - started,
    )


def _exited_state(
    api: APIClient, container: str, deadline: float | None, kill: Callable[[], None]
) -> dict[str, Any]:
    """The container's final state, once it has exited. Its output closes when its first process
    exits, or earlier when that process closed stdout and stderr and runs on: then it is killed
    at the deadline, as while its output was open (and given up on 30 s after the kill)."""
    killed_at = None
    while True:
        state = api.inspect_container(container).get("State", {})
        # Podman says "stopped" before it has read the exit code (-1 until then), "exited" once
        # it has cleaned up (-1 for good after a kill)
        status = state.get("Status")
        if status == "exited" or (
            status in ("stopped", "dead") and state.get("ExitCode", -1) != -1
        ):
            break
        now = time.monotonic()
        if killed_at is None and deadline is not None and now > deadline:
            kill()
            killed_at = now
        elif killed_at is not None and now > killed_at + 30:
            break
        time.sleep(_EXIT_POLL_S)
    return state if killed_at is None else {**state, "itbench_timed_out": True}


def code_mounts() -> list[Mount]:
    """itbench's code and the loaded domains' (answers left out), read-only at their own paths:
    what bubblewrap re-exposes, minus the interpreter and environment the image already holds."""
    from itbench.sandbox.hosttree import needed_paths

    in_image = {Path(sys.base_prefix).resolve(), Path(sys.prefix)}
    return [Mount(str(p), str(p)) for p in needed_paths() if p not in in_image]


def evaluation_spec(
    command: Sequence[str],
    *,
    out_dir: Path,
    host_tree: Path | None,
    cluster_manifests: Path | None,
    env: Mapping[str, str],
    extra_ro_binds: Sequence[tuple[Path, str]],
    max_processes: int,
    image: str,
    user: str | None = None,
) -> ContainerSpec:
    """The evaluation sandbox of :func:`itbench.sandbox.runner.run_sandboxed` as a container."""
    from itbench.sandbox.hosttree import host_files

    mounts = code_mounts()
    if host_tree is not None:
        mounts += [Mount(str(source), str(target)) for source, target in host_files(host_tree)]
    mounts += [Mount(str(source), target) for source, target in extra_ro_binds]
    if cluster_manifests is not None:
        mounts.append(Mount(str(cluster_manifests.resolve()), "/tmp/itbench-cluster-manifests"))
    mounts.append(Mount(str(out_dir), str(out_dir), writable=True))
    # HOME (/tmp/home) lies in the private /tmp, empty at the start
    argv = ("/bin/sh", "-c", 'mkdir -p /tmp/home && exec "$@"', "sh", *command)
    return ContainerSpec(
        image=image,
        argv=argv,
        workdir=str(out_dir),
        mounts=tuple(mounts),
        env=dict(env),
        network="none",
        max_processes=max_processes,
        user=user,
    )


def container_user(user: SandboxUser) -> str | None:
    """A :class:`~itbench.sandbox.identity.SandboxUser` as the engine's ``uid:gid`` (None: no
    change, the image's root without capabilities)."""
    return f"{user.uid}:{user.gid}" if user.drops else None


def evaluation_environment(env: Mapping[str, str], *, cluster: bool) -> dict[str, str]:
    """The evaluation sandbox's environment (the same variables bubblewrap sets)."""
    from itbench.sandbox.sandboxed import KUBECONFIG_IN_SANDBOX

    environment = {
        "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp/home",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "KUBECACHEDIR": "/tmp/home/.kube/cache",
        "ANSIBLE_LOCAL_TEMP": "/tmp/ansible-local",
        "ANSIBLE_REMOTE_TMP": "/tmp/ansible-remote",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    if cluster:
        environment["KUBECONFIG"] = KUBECONFIG_IN_SANDBOX
    environment.update(env)
    return environment


def run_evaluation(
    command: Sequence[str],
    *,
    out_dir: Path,
    host_tree: Path | None,
    cluster_manifests: Path | None,
    timeout_s: float,
    max_processes: int,
    env: Mapping[str, str] | None,
    extra_ro_binds: Sequence[tuple[Path, str]],
    limits: ResourceLimits,
) -> SandboxResult:
    """:func:`itbench.sandbox.runner.run_sandboxed` on the container backend (same result)."""
    from itbench.sandbox.engine import engine_client, evaluation_image
    from itbench.sandbox.identity import KEEP, default_user, hand_over
    from itbench.sandbox.limits import cap_hit, format_size
    from itbench.sandbox.sandboxed import SandboxResult, _launcher

    # as in bubblewrap: nobody when itbench runs as root, except over a host tree (root's files)
    user = default_user() if host_tree is None else KEEP
    hand_over(out_dir, user)

    cluster = Path("/tmp/itbench-cluster-manifests") if cluster_manifests is not None else None
    spec = evaluation_spec(
        _launcher(command, cluster),
        out_dir=out_dir,
        host_tree=host_tree,
        cluster_manifests=cluster_manifests,
        env=evaluation_environment(env or {}, cluster=cluster is not None),
        extra_ro_binds=extra_ro_binds,
        max_processes=max_processes,
        image=evaluation_image(engine_client()),
        user=container_user(user),
    )
    done = run_container(spec, limits=limits, timeout_s=timeout_s)
    stderr = done.stderr
    if done.oom_killed and limits.memory_bytes is not None:
        stderr += "\nitbench: out of memory: the container passed its memory cap"
    cap = cap_hit(limits, done.exit_code, stderr[-20000:], done.output_capped)
    if done.timed_out:
        stderr += f"\nitbench: killed after the {timeout_s:g} s time limit"
    elif done.output_capped:
        stderr += (
            f"\nitbench: stopped: its output passed the cap of {format_size(limits.output_bytes)}"
        )
    code = 124 if done.timed_out else (done.exit_code or (125 if done.output_capped else 0))
    return SandboxResult(
        code,
        done.stdout,
        stderr,
        done.timed_out,
        done.duration_s,
        f"container pids {max_processes}",
        cap,
    )
