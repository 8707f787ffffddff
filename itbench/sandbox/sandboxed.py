"""What both evaluation sandboxes (bubblewrap in :mod:`.runner`, containers in :mod:`.container`)
share: the result of a sandboxed command and the launcher that starts the trial's offline cluster
inside the sandbox before the command. Its own module so neither backend imports the other."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

CLUSTER_PORT = 6443
KUBECONFIG_IN_SANDBOX = "/tmp/itbench/kubeconfig"


@dataclass(frozen=True)
class SandboxResult:
    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool
    duration_s: float
    process_limit: str
    #: (which cap, its size) when the command hit one of its resource caps.
    cap: tuple[str, str] | None = None


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
