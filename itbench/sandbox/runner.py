"""Run a command in the bubblewrap sandbox.

The real system is read-only, the scenario's host files lie over the paths they replace, /tmp is
private, only the output directory is writable, the network is unshared (loopback only, where the
trial's offline cluster runs when there is one), and a time limit and a process limit hold. When it
ends, everything it started is killed.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from itbench.errors import InputError
from itbench.sandbox.availability import bwrap_path
from itbench.sandbox.hosttree import root_layout
from itbench.sandbox.limits import ProcessLimit

CLUSTER_PORT = 6443
KUBECONFIG_IN_SANDBOX = "/tmp/itbench/kubeconfig"
_OUTPUT_CAP = 1_000_000  # characters of stdout/stderr kept


@dataclass(frozen=True)
class SandboxResult:
    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool
    duration_s: float
    process_limit: str


def _launcher(command: Sequence[str], cluster: Path | None) -> list[str]:
    """The program bwrap runs: start the trial's cluster on the sandbox's own loopback first."""
    if cluster is None:
        return list(command)
    serve = shlex.join(
        [
            sys.executable,
            "-m",
            "itbench.cluster",
            "serve",
            str(cluster),
            "--port",
            str(CLUSTER_PORT),
            "--kubeconfig",
            KUBECONFIG_IN_SANDBOX,
        ]
    )
    script = (
        "mkdir -p /tmp/itbench\n"
        f"{serve} >/tmp/itbench/cluster.log 2>&1 &\n"
        "server=$!\n"
        "for i in $(seq 1 300); do [ -s "
        + KUBECONFIG_IN_SANDBOX
        + " ] && break; sleep 0.05; done\n"
        "[ -s "
        + KUBECONFIG_IN_SANDBOX
        + " ] || { echo 'itbench: the offline cluster did not start:' >&2; cat /tmp/itbench/cluster.log >&2; exit 97; }\n"
        f"{shlex.join(command)}\n"
        "code=$?\n"
        "kill $server 2>/dev/null\n"
        "exit $code\n"
    )
    return ["/bin/bash", "-c", script]


def bwrap_command(
    command: Sequence[str],
    *,
    out_dir: Path,
    host_tree: Path | None = None,
    cluster_manifests: Path | None = None,
    env: Mapping[str, str] | None = None,
    extra_ro_binds: Sequence[tuple[Path, str]] = (),
) -> list[str]:
    """The full bwrap argv (pure: it only reads the directory structure of / and the host tree)."""
    args = [
        bwrap_path(),
        "--unshare-all",  # user, ipc, pid, net, uts, cgroup: only loopback networking remains
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "itbench-sandbox",
        "--clearenv",
    ]
    args += root_layout(host_tree).args
    for source, target in extra_ro_binds:
        args += ["--ro-bind", str(source), target]
    if cluster_manifests is not None:
        args += ["--ro-bind", str(cluster_manifests), "/tmp/itbench-cluster-manifests"]
    args += ["--bind", str(out_dir), str(out_dir), "--chdir", str(out_dir)]
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
    if cluster_manifests is not None:
        environment["KUBECONFIG"] = KUBECONFIG_IN_SANDBOX
    environment.update(env or {})
    for key, value in environment.items():
        args += ["--setenv", key, value]
    args += ["--dir", "/tmp/home"]
    cluster = Path("/tmp/itbench-cluster-manifests") if cluster_manifests is not None else None
    return [*args, "--", *_launcher(command, cluster)]


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
) -> SandboxResult:
    if not command:
        raise InputError("no command to run in the sandbox")
    out_dir = out_dir.resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    if host_tree is not None and not host_tree.is_dir():
        raise InputError(f"{host_tree}: host tree is not a directory")
    if cluster_manifests is not None and not cluster_manifests.exists():
        raise InputError(f"{cluster_manifests}: no such manifests")
    argv = bwrap_command(
        command,
        out_dir=out_dir,
        host_tree=host_tree,
        cluster_manifests=cluster_manifests,
        env=env,
        extra_ro_binds=extra_ro_binds,
    )
    limit = ProcessLimit.create(max_processes)
    started = time.monotonic()
    timed_out = False
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            preexec_fn=limit.enter,  # noqa: PLW1509 - joining the cgroup must happen before exec
            start_new_session=True,
        )
        try:
            stdout, stderr = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            limit.kill_all()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 9)
            stdout, stderr = proc.communicate()
            stderr += f"\nitbench: killed after the {timeout_s:g} s time limit"
    finally:
        limit.close()
    code = proc.returncode if not timed_out else 124
    return SandboxResult(
        code,
        stdout[-_OUTPUT_CAP:],
        stderr[-_OUTPUT_CAP:],
        timed_out,
        time.monotonic() - started,
        limit.kind,
    )
