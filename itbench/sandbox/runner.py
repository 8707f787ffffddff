"""Run a command in the bubblewrap sandbox.

The real system is read-only, the scenario's host files lie over the paths they replace, /tmp is
private, only the output directory is writable, the network is unshared (loopback only, where the
trial's offline cluster runs when there is one), and a time limit and a process limit hold. When it
ends, everything it started is killed.

The command holds no privilege (every capability dropped, no new privileges, the seccomp filter of
:mod:`itbench.sandbox.seccomp`), and :class:`ResourceLimits` cap its memory, file size and output;
the private /tmp and /run are tmpfs of at most the file-size cap each.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from itbench.errors import InputError
from itbench.sandbox.availability import bwrap_path, reachable
from itbench.sandbox.backend import current as current_backend
from itbench.sandbox.capture import communicate
from itbench.sandbox.hosttree import import_roots, output_cover, remounts, root_layout
from itbench.sandbox.identity import (
    KEEP,
    command_prefix,
    default_user,
    hand_over,
    namespace_args,
)
from itbench.sandbox.limits import (
    DEFAULT_EVALUATION_LIMITS,
    ProcessLimit,
    ResourceLimits,
    cap_hit,
    format_size,
)
from itbench.sandbox.sandboxed import (
    KUBECONFIG_IN_SANDBOX,
    SandboxResult,
    _launcher,
)
from itbench.sandbox.seccomp import filter_fd


def bwrap_command(
    command: Sequence[str],
    *,
    out_dir: Path,
    host_tree: Path | None = None,
    cluster_manifests: Path | None = None,
    env: Mapping[str, str] | None = None,
    extra_ro_binds: Sequence[tuple[Path, str]] = (),
    limits: ResourceLimits = DEFAULT_EVALUATION_LIMITS,
    seccomp_fd: int | None = None,
) -> list[str]:
    """The full bwrap argv (pure: it only reads the directory structure of / and the host tree)."""
    # a host tree's files are root's (identity.py): over one the command keeps uid 0
    user = default_user() if host_tree is None else KEEP
    args = [
        bwrap_path(),
        # ipc, pid, net, uts, cgroup (and user, unless run as root): only loopback networking
        *namespace_args(share_net=False, user=user),
        *(["--seccomp", str(seccomp_fd)] if seccomp_fd is not None else []),
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "itbench-sandbox",
        "--clearenv",
    ]
    layout = root_layout(host_tree, scratch_bytes=limits.file_size_bytes)
    args += layout.args
    for source, target in extra_ro_binds:
        args += ["--ro-bind", str(source), target]
    if cluster_manifests is not None:
        args += ["--ro-bind", str(cluster_manifests), "/tmp/itbench-cluster-manifests"]
    # only this output folder of the run: its siblings are other environments and trials
    cover = output_cover(out_dir)
    if cover is not None:
        args += ["--tmpfs", str(cover)]
    args += [*reachable(out_dir), "--bind", str(out_dir), str(out_dir)]
    if cover is not None:
        args += ["--remount-ro", str(cover)]
    # after the output folder, which may lie inside a private folder's cover
    args += remounts(layout.covered, hidden_by=[cover] if cover is not None else [])
    args += ["--chdir", str(out_dir)]
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
    roots = import_roots()
    if roots:  # our own modules run inside (the cluster, the fetch driver): found as outside
        environment["PYTHONPATH"] = os.pathsep.join(roots)
    if cluster_manifests is not None:
        environment["KUBECONFIG"] = KUBECONFIG_IN_SANDBOX
    environment.update(env or {})
    for key, value in environment.items():
        args += ["--setenv", key, value]
    args += ["--perms", "0777", "--dir", "/tmp/home"]
    cluster = Path("/tmp/itbench-cluster-manifests") if cluster_manifests is not None else None
    return [*args, "--", *command_prefix(user), *_launcher(command, cluster)]


def run_sandboxed(
    command: Sequence[str],
    *,
    out_dir: Path,
    host_tree: Path | None = None,
    cluster_manifests: Path | None = None,
    timeout_s: float = 60.0,
    max_processes: int = 256,
    env: Mapping[str, str] | None = None,
    extra_ro_binds: Sequence[tuple[Path, str]] = (),
    limits: ResourceLimits = DEFAULT_EVALUATION_LIMITS,
) -> SandboxResult:
    if not command:
        raise InputError("no command to run in the sandbox")
    out_dir = out_dir.resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    if host_tree is not None and not host_tree.is_dir():
        raise InputError(f"{host_tree}: host tree is not a directory")
    if cluster_manifests is not None and not cluster_manifests.exists():
        raise InputError(f"{cluster_manifests}: no such manifests")
    if current_backend() == "container":  # --sandbox container: same guarantees, same result
        from itbench.sandbox.container import run_evaluation

        return run_evaluation(
            command,
            out_dir=out_dir,
            host_tree=host_tree,
            cluster_manifests=cluster_manifests,
            timeout_s=timeout_s,
            max_processes=max_processes,
            env=env,
            extra_ro_binds=extra_ro_binds,
            limits=limits,
        )
    # bubblewrap drops root to an unprivileged uid: the output folder is handed over to it
    hand_over(out_dir, default_user() if host_tree is None else KEEP)  # its uid writes there
    limit = ProcessLimit.create(max_processes)
    started = time.monotonic()

    def enter() -> None:
        limit.enter()
        limits.apply()

    def stop() -> None:
        limit.kill_all()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 9)

    try:
        with filter_fd() as fd:
            argv = bwrap_command(
                command,
                out_dir=out_dir,
                host_tree=host_tree,
                cluster_manifests=cluster_manifests,
                env=env,
                extra_ro_binds=extra_ro_binds,
                limits=limits,
                seccomp_fd=fd,
            )
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(fd,),
                preexec_fn=enter,  # noqa: PLW1509 - joining the cgroup must happen before exec
                start_new_session=True,
            )
        done = communicate(proc, timeout_s=timeout_s, cap_bytes=limits.output_bytes, stop=stop)
    finally:
        limit.close()
    stderr = done.stderr.text
    cap = cap_hit(limits, proc.returncode, stderr[-20000:], done.output_capped)
    if done.timed_out:
        stderr += f"\nitbench: killed after the {timeout_s:g} s time limit"
    elif done.output_capped:
        stderr += (
            f"\nitbench: stopped: its output passed the cap of {format_size(limits.output_bytes)}"
        )
    code = 124 if done.timed_out else (proc.returncode or (125 if done.output_capped else 0))
    return SandboxResult(
        code,
        done.stdout.text,
        stderr,
        done.timed_out,
        time.monotonic() - started,
        limit.kind,
        cap,
    )
