"""kubectl run for an agent, confined: the agents' kubectl tools and reflection's dry run.

kubectl does what its arguments and its kubeconfig say, and the deny-lists in front of it
(:mod:`itbench.cluster.kubectl_guard`, the tools' own lists, the kubeconfig check) only know the
features someone listed. So the call itself holds nothing worth reaching, whatever slips past
them: it runs in a bubblewrap sandbox with no capability, the seccomp filter, new user (or, as
root, nobody's uid), pid, ipc, uts and network namespaces, and a filesystem of

- ``/usr`` (and the ``/bin``, ``/lib*`` links to it) read-only: kubectl and the relay's Python;
  ``/etc/ssl``, ``/etc/ca-certificates`` and ``/etc/pki`` for servers checked against the
  system's roots; nothing else of ``/etc``, no home, no project, no other run;
- the kubeconfig it runs on, read-only, and the agent's workspace read-only (``-f FILE``);
- a private ``/tmp`` (its home and discovery cache), gone when the call ends.

Its ``PATH`` is an empty folder: no ``kubectl-<name>`` plugin, no external ``diff`` program,
no ``$EDITOR`` can be found. Its network is its own loopback, where the endpoint relay
(:data:`itbench.sandbox.endpoint.FORWARDER`) listens on the port the sandbox's kubeconfig names
and passes each connection to a unix socket bound in; outside, the runner passes it on to the
one API server of the checked kubeconfig, bytes untouched (TLS ends in kubectl, so a remote
cluster's certificate is still checked). No other address, port or host answers: the namespace
has no route out.

Inside, the server is ``127.0.0.1:PORT`` (its own port, or :data:`LOW_PORT_STANDIN` for a port
below 1024, which nobody may bind); for ``https`` the name kubectl checks the certificate
against stays the original host (``tls-server-name``), unless the kubeconfig names one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import yaml

from itbench.errors import InputError
from itbench.sandbox.availability import bwrap_path, reachable, tmpfs_args
from itbench.sandbox.endpoint import SANDBOX_SOCKET, Endpoint, forwarder_argv
from itbench.sandbox.identity import (
    SandboxUser,
    command_prefix,
    default_user,
    hand_over,
    namespace_args,
    owner_of,
)
from itbench.sandbox.loopback import UnixRelay
from itbench.sandbox.seccomp import filter_fd

#: where the call's own folder is inside: the kubeconfig (the relay's socket is bound at
#: :data:`~itbench.sandbox.endpoint.SANDBOX_SOCKET`)
INSIDE = "/run/itbench-kubectl"
#: the loopback port used inside for a server on a port below 1024
LOW_PORT_STANDIN = 6443
#: system certificate roots, for a server checked against them
_CERTIFICATE_FOLDERS = ("/etc/ssl", "/etc/ca-certificates", "/etc/pki")
_DEFAULT_PORTS = {"http": 80, "https": 443}
#: the private /tmp: kubectl's discovery cache and home, nothing more
_SCRATCH_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class ApiServer:
    """The one address a confined kubectl call reaches: where the runner connects outside, and
    the loopback port the sandbox's kubeconfig names inside."""

    host: str
    port: int
    inner_port: int


@dataclass(frozen=True)
class KubectlRun:
    exit_code: int
    stdout: str
    stderr: str


def _current_cluster(doc: dict[str, Any]) -> dict[str, Any]:
    """The ``cluster`` body of the current context (a kubeconfig checked or written by us)."""
    contexts = [c for c in doc.get("contexts") or [] if isinstance(c, dict)]
    context = next((c for c in contexts if c.get("name") == doc.get("current-context")), None)
    name = (context or {}).get("context", {}).get("cluster")
    for entry in doc.get("clusters") or []:
        if isinstance(entry, dict) and entry.get("name") == name:
            body = entry.get("cluster")
            if isinstance(body, dict):
                return body
    raise InputError("the kubeconfig's current context names no cluster")


def confined_kubeconfig(text: str) -> tuple[str, ApiServer]:
    """``text`` as the sandbox sees it (its current context's server on the sandbox's
    loopback), and the server the runner relays to."""
    doc = yaml.safe_load(text)
    if not isinstance(doc, dict):
        raise InputError("the kubeconfig is not a mapping")
    cluster = _current_cluster(doc)
    parts = urlsplit(str(cluster.get("server", "")))
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise InputError("the kubeconfig's server is not an http or https URL")
    port = parts.port or _DEFAULT_PORTS[parts.scheme]
    inner = port if port >= 1024 else LOW_PORT_STANDIN
    # a user and password in the URL are the server's credential (the offline cluster's): kept
    credential = parts.netloc.rpartition("@")[0]
    netloc = f"{credential}@127.0.0.1:{inner}" if credential else f"127.0.0.1:{inner}"
    cluster["server"] = urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    if parts.scheme == "https" and parts.hostname != "127.0.0.1":
        # the certificate is still checked against the name the kubeconfig gave
        cluster.setdefault("tls-server-name", parts.hostname)
    return yaml.safe_dump(doc, sort_keys=False), ApiServer(parts.hostname, port, inner)


def kubectl_binary() -> Path:
    """kubectl on the runner's ``PATH``, its real file (bound alone into the sandbox);
    ``FileNotFoundError`` when there is none."""
    found = shutil.which("kubectl")
    if found is None:
        raise FileNotFoundError(2, "kubectl is not installed", "kubectl")
    return Path(found).resolve()


def _system_layout() -> list[str]:
    """``/usr`` and its links, the certificate roots, private /proc, /dev, /tmp and /run."""
    args = ["--tmpfs", "/", "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        entry = Path("/") / name
        if entry.is_symlink():
            args += ["--symlink", str(entry.readlink()), str(entry)]
        elif entry.is_dir():
            args += ["--ro-bind", str(entry), str(entry)]
    for folder in _CERTIFICATE_FOLDERS:
        if Path(folder).is_dir():
            args += ["--ro-bind", folder, folder]
    scratch = tmpfs_args(_SCRATCH_BYTES)
    return [*args, "--proc", "/proc", "--dev", "/dev", *scratch, "/tmp", *scratch, "/run"]


def sandbox_user(workspace: Path | None) -> SandboxUser:
    """Who the call runs as: nobody (when itbench runs as root), or the owner of the workspace
    it must read: uid 0 without a capability for a workspace of root's, in a filesystem that
    holds nothing else of root's but the read-only system."""
    return default_user() if workspace is None else owner_of(workspace)


def bwrap_argv(
    args: Sequence[str],
    *,
    folder: Path,
    server: ApiServer,
    kubectl: Path,
    workspace: Path | None,
    user: SandboxUser,
) -> list[str]:
    """The bwrap command line of one call (pure but for reading ``/``); ``folder`` holds the
    sandbox's kubeconfig and the relay's socket."""
    argv = [bwrap_path(), *namespace_args(share_net=False, user=user)]
    argv += ["--die-with-parent", "--new-session", "--hostname", "itbench-kubectl", "--clearenv"]
    argv += _system_layout()
    argv += ["--ro-bind", str(folder), INSIDE]
    if not kubectl.is_relative_to("/usr"):  # one under /usr is there already
        argv += [*reachable(kubectl), "--ro-bind", str(kubectl), str(kubectl)]
    # bound after /run's tmpfs; connecting to a socket needs no writable mount
    relay = Endpoint(folder / "relay.sock", server.inner_port)
    argv += ["--ro-bind", str(relay.socket), SANDBOX_SOCKET]
    cwd = "/tmp/home"
    if workspace is not None:
        workspace = workspace.resolve()
        argv += [*reachable(workspace), "--ro-bind", str(workspace), str(workspace)]
        cwd = str(workspace)
    argv += ["--perms", "0777", "--dir", "/tmp/home", "--perms", "0555", "--dir", "/tmp/no-path"]
    argv += ["--remount-ro", "/", "--chdir", cwd]
    environment = {
        # nothing to find there: no kubectl-<name> plugin, no external diff, no editor
        "PATH": "/tmp/no-path",
        "HOME": "/tmp/home",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "KUBECONFIG": f"{INSIDE}/kubeconfig",
        "KUBECACHEDIR": "/tmp/home/.kube/cache",
    }
    for key, value in environment.items():
        argv += ["--setenv", key, value]
    # the endpoint relay listens on the loopback port before kubectl starts, then becomes it
    forwarder = forwarder_argv(relay)
    return [*argv, "--", *command_prefix(user), *forwarder, str(kubectl), *args]


@contextlib.contextmanager
def _call_folder(kubeconfig: str, server: ApiServer, user: SandboxUser) -> Iterator[Path]:
    """The call's private folder: the sandbox's kubeconfig and the relay's socket, listening,
    both the sandbox user's alone (its credentials stay unreadable to the machine's others)."""
    folder = Path(tempfile.mkdtemp(prefix="itbench-kubectl-"))
    relay: UnixRelay | None = None
    try:
        config = folder / "kubeconfig"
        config.write_text(kubeconfig, encoding="utf-8")
        config.chmod(0o600)
        # 0600: handed over to the call's uid with its folder
        relay = UnixRelay(
            server.host,
            server.port,
            folder / "relay.sock",
            mode=0o600,
            name="itbench-kubectl-relay",
        )
        # bwrap (root, before the uid changes) binds them; the sandbox's uid opens them
        hand_over(folder, user)
        yield folder
    finally:
        if relay is not None:
            relay.close()
        shutil.rmtree(folder, ignore_errors=True)


def run_confined_kubectl(
    args: Sequence[str],
    *,
    kubeconfig: str,
    workspace: Path | None = None,
    stdin: str | None = None,
    timeout_s: float,
) -> KubectlRun:
    """``kubectl ARGS`` on ``kubeconfig`` (a text the caller checked or wrote), confined as
    the module says. :class:`SandboxUnavailable` where no sandbox can be made (never run
    unconfined instead), ``FileNotFoundError`` without kubectl, ``subprocess.TimeoutExpired``
    past ``timeout_s`` (everything it started is killed)."""
    inner, server = confined_kubeconfig(kubeconfig)
    kubectl = kubectl_binary()
    user = sandbox_user(workspace)
    with _call_folder(inner, server, user) as folder, filter_fd() as fd:
        argv = bwrap_argv(
            args, folder=folder, server=server, kubectl=kubectl, workspace=workspace, user=user
        )
        proc = subprocess.Popen(
            [*argv[:1], "--seccomp", str(fd), *argv[1:]],
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(fd,),
            start_new_session=True,
        )
        try:
            out, err = proc.communicate(
                None if stdin is None else stdin.encode("utf-8"), timeout=timeout_s
            )
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise
    return KubectlRun(
        proc.returncode,
        out.decode("utf-8", errors="replace"),
        err.decode("utf-8", errors="replace"),
    )
