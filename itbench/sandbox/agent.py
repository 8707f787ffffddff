"""Confinement of an external agent command (``--agent-cmd``) in bubblewrap.

The agent sees the operating system's folders read-only (``SYSTEM_TOP``) and nothing else at
``/``: people's and projects' directories, any unknown top-level folder and ``/var/tmp`` (other
runs' suites and results) are empty, and none of itbench's own folders is re-exposed (an agent
needs no harness code, and the domain packages hold built-in reference answers). On top of that:

- its workspace read-write (the working directory) with the scenario's inputs read-only in it;
- a private ``/tmp`` and a private ``HOME`` (``/home/itbench-agent``), or the directory named with
  ``--agent-home`` bound read-write as ``HOME`` (CLI login state);
- every path the runner names (``solve_confined``) covered by an empty read-only tmpfs: the run
  directory (other trials), the scenario source folders (ground truth lies beside the inputs),
  the itbench cache, the domain packages (built-in reference answers);
- the host's network by default (model APIs, the trial's cluster on the host's loopback), or with
  ``--agent-network none`` a private network namespace holding only its own loopback; a trial
  environment naming one endpoint (:mod:`itbench.sandbox.endpoint`) replaces the host's network
  with a private namespace where only that endpoint answers;
- a private PID namespace, a process-count cgroup (``--agent-processes``), and ``--die-with-parent``: when the command
  ends, times out or the runner kills the trial's worker, everything it started dies with it;
- no privilege: every capability dropped (``--cap-drop ALL``, also when itbench runs as root), no
  new privileges, and the seccomp filter of :mod:`itbench.sandbox.seccomp` (no mount, umount,
  new user or mount namespace, ptrace, keyrings, BPF ...);
- caps on memory, file size and captured output (``--agent-memory``, ``--agent-file-size``,
  ``--agent-output``); the private ``/tmp``, ``HOME``, ``/run`` and ``/dev/shm`` are tmpfs of at
  most the file-size cap each;
- an environment built from an allowlist, never the caller's whole environment.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from itbench.errors import UsageError
from itbench.sandbox.availability import bwrap_path, reachable, tmpfs_args
from itbench.sandbox.capture import communicate
from itbench.sandbox.endpoint import SANDBOX_SOCKET, Endpoint, forwarder_argv
from itbench.sandbox.hosttree import (
    HIDDEN_TOP,
    PRIVATE_TOP,
    SHARED_SCRATCH,
    SYSTEM_TOP,
    private_covers,
    remounts,
    sysfs_args,
)
from itbench.sandbox.identity import (
    SANDBOX_UID,
    SandboxUser,
    command_prefix,
    default_user,
    drops_to_user,
    namespace_args,
    owner_of,
)
from itbench.sandbox.landlock import scope_abstract_sockets
from itbench.sandbox.limits import (
    DEFAULT_AGENT_LIMITS,
    MemoryLimit,
    ProcessLimit,
    ResourceLimits,
    cap_hit,
    format_size,
)
from itbench.sandbox.seccomp import filter_fd

#: HOME inside the sandbox when the user names no ``--agent-home``: its own empty tmpfs, inside
#: the hidden (and read-only) /home, so ``$HOME/..`` is not writable.
PRIVATE_HOME = "/home/itbench-agent"
#: Variables every agent gets from the caller when they are set: what a shell needs to behave.
BASE_VARIABLES = ("PATH", "LANG", "LC_ALL", "TERM", "TZ", "USER", "LOGNAME")
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
DEFAULT_MAX_PROCESSES = 1024  # agent CLIs (node, language servers) start many processes
_VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class AgentConfinement:
    """How an external agent command is confined (from ``--agent-*`` options)."""

    network: str = "allow"
    home: Path | None = None
    passthrough: tuple[str, ...] = ()
    sandboxed: bool = True
    max_processes: int = DEFAULT_MAX_PROCESSES
    limits: ResourceLimits = DEFAULT_AGENT_LIMITS


@dataclass(frozen=True)
class CommandOutcome:
    exit_code: int
    stdout: str
    stderr: str
    #: (which cap, its size) when the command hit one of its resource caps.
    cap: tuple[str, str] | None = None


def check_confinement(confinement: AgentConfinement) -> None:
    """Refuse a confinement that cannot hold, before any trial: exit 2 for a bad option, exit 3
    (:class:`SandboxUnavailable`) where bubblewrap cannot run. Never falls back to no sandbox."""
    if confinement.network not in ("allow", "none"):
        raise UsageError(f"--agent-network: {confinement.network!r} is not one of allow, none")
    home = confinement.home
    if home is not None and not home.is_dir():
        raise UsageError(f"--agent-home {home}: not a directory")
    if (
        home is not None
        and confinement.sandboxed
        and drops_to_user()
        and not agent_user(confinement).drops
    ):
        print(
            f"warning: --agent-home {home} is root's: run as root, itbench runs the agent as "
            f"nobody ({SANDBOX_UID}), but as the owner of its home when that is another user; "
            f"this agent keeps uid 0 without capabilities (chown -R {SANDBOX_UID}:{SANDBOX_UID} "
            "the folder to run it unprivileged)",
            file=sys.stderr,
        )
    for name in confinement.passthrough:
        if not _VARIABLE_NAME.match(name):
            raise UsageError(f"--agent-env {name!r}: not an environment variable name")
        if name not in os.environ:
            raise UsageError(f"--agent-env {name}: the variable is not set in this environment")
    if confinement.sandboxed:
        bwrap_path()


def agent_user(confinement: AgentConfinement) -> SandboxUser:
    """Who the agent runs as on the host (``identity``): the owner of ``--agent-home`` (its
    CLI writes login state there), else nobody when itbench runs as root."""
    if confinement.home is not None:
        return owner_of(confinement.home)
    return default_user()


def cache_dirs() -> tuple[Path, ...]:
    """Every place an itbench cache may be (the built-in suites' ground truth is generated there):
    ``$ITBENCH_CACHE_DIR``, ``$XDG_CACHE_HOME/itbench`` and ``~/.cache/itbench``."""
    found = []
    if os.environ.get("ITBENCH_CACHE_DIR"):
        found.append(Path(os.environ["ITBENCH_CACHE_DIR"]))
    if os.environ.get("XDG_CACHE_HOME"):
        found.append(Path(os.environ["XDG_CACHE_HOME"]) / "itbench")
    found.append(Path.home() / ".cache" / "itbench")
    return tuple(dict.fromkeys(found))


def agent_environment(
    confinement: AgentConfinement,
    *,
    trial_env: Mapping[str, str],
    extra: Mapping[str, str],
    home: str,
) -> dict[str, str]:
    """The agent's whole environment: the base allowlist, the variables the user passed with
    ``--agent-env`` (API keys only this way), the trial's environment and itbench's own."""
    env = {name: os.environ[name] for name in BASE_VARIABLES if name in os.environ}
    env.setdefault("PATH", DEFAULT_PATH)
    env.setdefault("LANG", "C.UTF-8")
    env.update({name: os.environ[name] for name in confinement.passthrough if name in os.environ})
    env.update(trial_env)
    env.update(extra)
    env["HOME"] = home
    if confinement.sandboxed:
        env["TMPDIR"] = "/tmp"
    return env


def _is_within(path: Path, parent: Path) -> bool:
    return path == parent or parent in path.parents


def _already_invisible(path: Path, visible_roots: Iterable[Path]) -> bool:
    """A path under a hidden or private top-level directory is invisible unless something bound
    into the sandbox (the agent's HOME) contains it."""
    if len(path.parts) < 2 or (path.parts[1] in SYSTEM_TOP and path.parts[1] not in HIDDEN_TOP):
        return False
    return not any(_is_within(path, root) for root in visible_roots)


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """The paths not inside another one: a cover inside a cover hides nothing more, and mounted
    after its parent's cover it would lie under it, where bwrap cannot reach it to remount it
    read-only (the built-in suite's scenario folders lie inside the hidden domain package)."""
    unique = sorted(set(paths))
    kept: list[Path] = []
    for path in unique:
        if not any(_is_within(path, outer) for outer in kept):
            kept.append(path)
    return kept


def agent_bwrap_argv(
    command: str,
    *,
    workspace: Path,
    read_only_inputs: Sequence[str],
    hidden: Sequence[Path],
    confinement: AgentConfinement,
    env: Mapping[str, str],
    endpoint: Endpoint | None = None,
) -> list[str]:
    """The bwrap argv running ``command`` through bash in ``workspace`` (pure: reads only /).
    With ``endpoint`` (and ``--agent-network allow``) the network is that endpoint alone."""
    user = agent_user(confinement)
    if confinement.network != "allow":
        endpoint = None  # none is none: the trial's endpoint too
    share_net = confinement.network == "allow" and endpoint is None
    args = [bwrap_path(), *namespace_args(share_net=share_net, user=user)]
    args += ["--die-with-parent", "--new-session", "--hostname", "itbench-agent", "--clearenv"]
    size = confinement.limits.file_size_bytes
    scratch = tmpfs_args(size)
    args += ["--tmpfs", "/"]
    covers: list[str] = []  # empty tmpfs hiding something: made read-only once all is mounted
    for entry in sorted(Path("/").iterdir()):
        if entry.name in PRIVATE_TOP:
            continue
        target = f"/{entry.name}"
        if entry.is_symlink():
            args += ["--symlink", str(entry.readlink()), target]
        elif entry.is_dir() and (entry.name in HIDDEN_TOP or entry.name not in SYSTEM_TOP):
            # people's, projects' and any unknown top-level folder (issue 26's battery found the
            # host's ITBench ground truths in one): an empty read-only tmpfs
            args += ["--tmpfs", target]
            covers.append(target)
        elif entry.name in SYSTEM_TOP:
            args += ["--ro-bind", str(entry), target]
    args += ["--proc", "/proc", "--dev", "/dev", *scratch, "/dev/shm"]
    args += [*scratch, "/tmp", *scratch, "/run", *sysfs_args()]
    for shared in SHARED_SCRATCH:  # other runs' suites, seeds and results live there
        if Path(shared).is_dir():
            args += [*scratch, shared]
    # the agent runs as root without capabilities, which still reads what root owns
    # (/etc/shadow, SSH host keys): those files are /dev/null here, as in the evaluation sandbox
    private = private_covers()  # read-only at the end: the workspace may lie inside one
    args += private.mounts
    resolver = Path("/etc/resolv.conf").resolve()
    if share_net and _is_within(resolver, Path("/run")):
        # systemd-resolved keeps the real file under /run, which is private here
        args += ["--ro-bind-try", str(resolver), str(resolver)]
    visible: list[Path] = []
    if confinement.home is not None:
        home = confinement.home.resolve()
        args += [*reachable(home), "--bind", str(home), str(home)]
        visible.append(home)
    else:
        args += [*scratch, PRIVATE_HOME]
    hiding: list[str] = []  # the covers laid over private ones: those are not remounted
    for path in _outermost(p.resolve() for p in hidden):
        # os.path.exists, not Path.exists: a path the runner's user may not even look at (a
        # state folder under another user's 0700 tmp) raises PermissionError from Path.exists,
        # and the sandbox, running as that same user with no privilege, cannot reach it either
        if path == Path("/") or not os.path.exists(path) or _already_invisible(path, visible):
            continue
        if path.is_dir():
            args += ["--tmpfs", str(path)]
            covers.append(str(path))
            hiding.append(str(path))
        else:
            args += ["--ro-bind", "/dev/null", str(path)]
    # after the hidden paths: the workspace lies inside the (hidden) run directory
    workspace = workspace.resolve()
    args += [*reachable(workspace), "--bind", str(workspace), str(workspace)]
    for name in read_only_inputs:
        source = workspace / name
        if source.exists() and _is_within(source.resolve(), workspace):
            args += ["--ro-bind", str(source), str(source)]
    for cover in covers:  # not recursive: the workspace and HOME mounted inside stay writable
        args += ["--remount-ro", cover]
    args += remounts(private.folders, hidden_by=hiding)
    args += ["--chdir", str(workspace), "--remount-ro", "/"]
    forwarder: list[str] = []
    if endpoint is not None:
        # bound after /run's tmpfs; connecting to a socket needs no writable mount
        args += ["--ro-bind", str(endpoint.socket), SANDBOX_SOCKET]
        forwarder = forwarder_argv(endpoint)
    for key, value in env.items():
        args += ["--setenv", key, value]
    return [*args, "--", *command_prefix(user), *forwarder, "/bin/bash", "-c", command]


def run_agent_command(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str] | None,
    timeout_s: float | None,
    max_processes: int,
    limits: ResourceLimits = DEFAULT_AGENT_LIMITS,
) -> CommandOutcome:
    """Run ``argv`` with a process-count limit and the resource caps of ``limits``; past
    ``timeout_s`` kill everything it started and raise :class:`subprocess.TimeoutExpired` (the
    runner records the trial as timed out). Past the output cap everything is killed too and the
    outcome names the cap. When it ends, whatever it left running is killed.

    A bwrap ``argv`` (from :func:`agent_bwrap_argv`) gets the seccomp filter here, on an inherited
    file descriptor."""
    limit = ProcessLimit.create(max_processes)
    memory = MemoryLimit.create(limits.memory_bytes)  # all its processes together
    sandboxed = bool(argv) and Path(argv[0]).name == "bwrap"

    def enter() -> None:
        limit.enter()
        memory.enter()
        limits.apply()
        if sandboxed:  # no host abstract UNIX socket, even sharing the host's network (landlock)
            scope_abstract_sockets()

    def stop() -> None:
        limit.kill_all()
        with contextlib.suppress(ProcessLookupError):
            proc.kill()

    try:
        with filter_fd() as fd:
            command = [argv[0], "--seccomp", str(fd), *argv[1:]] if sandboxed else list(argv)
            proc = subprocess.Popen(
                command,
                cwd=cwd,
                env=dict(env) if env is not None else None,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(fd,) if sandboxed else (),
                preexec_fn=enter,  # noqa: PLW1509 - joining the cgroup must happen before exec
            )
        done = communicate(proc, timeout_s=timeout_s, cap_bytes=limits.output_bytes, stop=stop)
    finally:
        limit.close()
        oom_killed = memory.oom_killed()
        memory.close()
    if done.timed_out:
        raise subprocess.TimeoutExpired(list(argv), timeout_s or 0.0)
    code = proc.returncode
    stderr = done.stderr.text
    cap = cap_hit(limits, code, stderr[-20000:], done.output_capped)
    if cap is None and oom_killed and code != 0:
        cap = ("memory", format_size(limits.memory_bytes))  # the group's total passed the cap
    return CommandOutcome(code, done.stdout.text, stderr, cap)
