"""Inside the sandbox: run one fetcher against several offline clusters in turn, one per
environment, so a kubectl-opa trial pays for one sandbox instead of one per environment.

``python -m ciso.evaluation.fetch_driver SPEC.json``; SPEC holds ``runs``, a list of
``{"manifests", "workdir", "script", "timeout_s"}`` (paths inside the sandbox), and
``extension_hooks``, the domains' named cluster-extension hooks (``[domain, "module:attr"]``, from
:func:`itbench.cluster.extensions.extension_hooks` outside), or null to load every domain here. Each run gets its own cluster state behind
one API server on the sandbox's loopback, ``KUBECONFIG`` pointing at it, ``bash <script>`` in its working directory with
its own time limit (the script's whole process group is killed when it passes). Outcomes go to
``<workdir>/.outcome.json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

OUTCOME = ".outcome.json"
HOME = "/tmp/itbench-fetch-home"
KUBECONFIG = Path("/tmp/itbench-fetch/kubeconfig")
TAIL = 4000


class Cluster:
    """One API server for every run; each environment swaps in its own state, so a trial pays
    for one server start (and no shutdown poll) instead of one per environment."""

    def __init__(self, extension_hooks: list | None) -> None:
        from itbench.cluster.extensions import domain_extensions, extensions_from_hooks
        from itbench.cluster.kubeconfig import write_kubeconfig
        from itbench.cluster.server import ApiServer
        from itbench.cluster.state import ClusterState

        # the named hooks import only the modules defining the extensions, not every domain
        # plugin with all it imports (a tenth of a second of CPU per trial)
        self.extensions = (
            domain_extensions()
            if extension_hooks is None
            else extensions_from_hooks([(str(d), str(t)) for d, t in extension_hooks])
        )
        self.server = ApiServer(ClusterState([], extensions=self.extensions))
        self.server.serve_in_thread()
        KUBECONFIG.parent.mkdir(parents=True, exist_ok=True)
        write_kubeconfig(KUBECONFIG, f"http://127.0.0.1:{self.server.port}")

    def serve(self, objects: list) -> None:
        from itbench.cluster.state import ClusterState

        self.server.state = ClusterState(objects, extensions=self.extensions)


def run_one(cluster: Cluster, run: dict, objects: list) -> dict:
    workdir = Path(run["workdir"])
    started = time.monotonic()
    cluster.serve(objects)
    env = dict(os.environ, KUBECONFIG=str(KUBECONFIG), HOME=HOME)
    proc = subprocess.Popen(
        ["bash", run["script"]],
        cwd=workdir,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
    )
    timed_out = False
    try:
        stdout, stderr = proc.communicate(timeout=float(run["timeout_s"]))
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
    end_leftovers()
    return {
        "exit_code": proc.returncode,
        "timed_out": timed_out,
        "stdout": stdout[-TAIL:],
        "stderr": stderr[-TAIL:],
        "duration_s": round(time.monotonic() - started, 4),
    }


def _ancestors() -> set[int]:
    """This process and the processes it descends from (bwrap's init, the setpriv shim)."""
    found, pid = {os.getpid()}, os.getpid()
    while pid > 1:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            break
        pid = int(stat.rsplit(")", 1)[1].split()[1])  # the field after the name: the parent
        found.add(pid)
    return found


def end_leftovers(rounds: int = 5) -> None:
    """Kill every process of the sandbox but this driver and its ancestors, once a run ended:
    a process the fetcher left behind (in a session of its own, out of reach of its process
    group) would otherwise query the cluster while the next environment is served, and see it.
    Zombies are skipped (already ended, waiting for their parent)."""
    keep = _ancestors()
    for _ in range(rounds):  # repeated: a leftover may be forking while it is killed
        alive = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in keep:
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if stat.rsplit(")", 1)[1].split()[0] != "Z":
                alive.append(int(entry))
        if not alive:
            return
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def _load_all(spec: Path, runs: list[dict]) -> list[list | Exception]:
    """Every environment's objects, read before any fetcher runs; then the manifests and the spec
    are removed. A fetcher sees only its own environment, through the API server: not the others'
    manifests (the compliant one, the leave-one-in ones), nor which run is which."""
    from itbench.cluster import load_manifests

    loaded: list[list | Exception] = []
    for run in runs:
        try:
            loaded.append(load_manifests(Path(run["manifests"])))
        except Exception as exc:  # that run fails alone, below
            loaded.append(exc)
    for run in runs:
        shutil.rmtree(run["manifests"], ignore_errors=True)
    spec.unlink(missing_ok=True)
    return loaded


def main() -> None:
    spec = Path(sys.argv[1])
    document = json.loads(spec.read_text())
    runs = document["runs"]
    loaded = _load_all(spec, runs)
    hung = False
    cluster = Cluster(document.get("extension_hooks"))
    for run, objects in zip(runs, loaded, strict=True):
        if hung:  # a fetcher that hung once would hang again: do not pay its limit per environment
            outcome = {
                "exit_code": None,
                "timed_out": True,
                "stdout": "",
                "stderr": "not run: the fetcher hit its time limit on an earlier environment",
                "duration_s": 0.0,
            }
            (Path(run["workdir"]) / OUTCOME).write_text(json.dumps(outcome))
            continue
        try:
            if isinstance(objects, Exception):
                raise objects
            outcome = run_one(cluster, run, objects)
        except Exception as exc:  # a cluster that cannot load these manifests fails that run only
            outcome = {
                "exit_code": 97,
                "timed_out": False,
                "stdout": "",
                "stderr": f"itbench: the offline cluster did not start: {exc}",
                "duration_s": 0.0,
            }
        hung = bool(outcome["timed_out"])
        (Path(run["workdir"]) / OUTCOME).write_text(json.dumps(outcome))


if __name__ == "__main__":
    main()
