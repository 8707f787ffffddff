"""The real ``kubectl`` against the user's kubeconfig: every call bounded in time (a server that
accepts and never answers cannot hang the run), its own HOME (no cache shared with the user's)."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from itbench.errors import InputError, UsageError

#: seconds kubectl waits for the API server on each request
REQUEST_TIMEOUT_S = 10


@dataclass(frozen=True)
class KubeResult:
    code: int
    stdout: str
    stderr: str

    @property
    def not_found(self) -> bool:
        return self.code != 0 and ("NotFound" in self.stderr or "not found" in self.stderr)


@dataclass(frozen=True)
class LiveKubectl:
    kubeconfig: Path
    home: Path

    def __call__(self, *args: str, stdin: str | None = None) -> KubeResult:
        self.home.mkdir(parents=True, exist_ok=True)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "KUBECONFIG": str(self.kubeconfig),
        }
        command = ["kubectl", f"--request-timeout={REQUEST_TIMEOUT_S}s", *args]
        try:
            done = subprocess.run(command, input=stdin, capture_output=True, text=True, env=env,
                                  timeout=3 * REQUEST_TIMEOUT_S)  # fmt: skip
        except FileNotFoundError:
            raise InputError(
                "kubectl is not installed (live mode drives the cluster with it)"
            ) from None
        except subprocess.TimeoutExpired:
            return KubeResult(124, "", f"kubectl {' '.join(args)}: no answer within "
                                       f"{3 * REQUEST_TIMEOUT_S} s")  # fmt: skip
        return KubeResult(done.returncode, done.stdout, done.stderr.strip())

    def get(self, resource: str, name: str | None = None, namespace: str | None = None
            ) -> dict[str, Any] | None:  # fmt: skip
        """The object (or the list when ``name`` is None); None when it does not exist."""
        args = ["get", resource, *([name] if name else [])]
        if namespace:
            args += ["-n", namespace]
        done = self(*args, "-o", "json")
        if done.not_found:
            return None
        if done.code != 0:
            raise InputError(f"kubectl {' '.join(args)}: {done.stderr}")
        try:
            return json.loads(done.stdout)
        except ValueError as exc:
            raise InputError(f"kubectl {' '.join(args)}: unreadable answer: {exc}") from None


def flat_kubeconfig(source: Path, home: Path) -> str:
    """The kubeconfig's current context alone, certificates inlined (what the agent gets: no
    other context or cluster of the user's file)."""
    kubectl = LiveKubectl(source, home)
    done = kubectl("config", "view", "--minify", "--flatten", "--raw")
    if done.code != 0 or not done.stdout.strip():
        raise UsageError(
            f"--kubeconfig {source}: not a usable kubeconfig: {done.stderr or 'empty'}"
        )
    return done.stdout


def check_reachable(source: Path, home: Path) -> str:
    """The API server's version; a usage error naming the file and the server when the
    kubeconfig is unreadable or points nowhere."""
    if not source.is_file():
        raise UsageError(f"--kubeconfig {source}: no such file")
    flat_kubeconfig(source, home)
    kubectl = LiveKubectl(source, home)
    done = kubectl("get", "--raw", "/version")
    if done.code != 0:
        server = kubectl(
            "config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}"
        )
        where = server.stdout.strip() or "its server"
        reason = done.stderr.splitlines()[-1] if done.stderr else f"exit {done.code}"
        raise UsageError(
            f"--kubeconfig {source}: the API server {where} does not answer ({reason}); "
            "no trial was started"
        )
    try:
        return str(json.loads(done.stdout).get("gitVersion", "?"))
    except (ValueError, AttributeError):
        raise UsageError(f"--kubeconfig {source}: {done.stdout[:80]!r} is not a Kubernetes API "
                         "server's /version") from None  # fmt: skip
