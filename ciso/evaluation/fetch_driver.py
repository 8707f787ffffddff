"""Inside the sandbox: run one collection script against several environments in turn (an
offline cluster each for kubectl-opa's fetcher, a ``static-resources/`` folder each for
opa-static's ``fetch.sh``), so a trial pays for one sandbox instead of one per environment.

``python -m ciso.evaluation.fetch_driver SPEC.json``; SPEC holds ``runs``, a list of
``{"manifests", "workdir", "script", "timeout_s"}`` (paths inside the sandbox) or, for an
``opa-static`` ``fetch.sh``, ``{"static", ...}``: a folder laid out as the run's
``static-resources/`` and the script executed directly (ITBench-Lite runs ``./fetch.sh``), and
``extension_hooks``, the domains' named cluster-extension hooks (``[domain, "module:attr"]``, from
:func:`itbench.cluster.extensions.extension_hooks` outside), or null to load every domain here. Each run gets its own cluster state behind
one API server on the sandbox's loopback, ``KUBECONFIG`` pointing at it, ``bash <script>`` in its working directory with
its own time limit (the script's whole process group is killed when it passes). Outcomes go to
``<workdir>/.outcome.json``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

OUTCOME = ".outcome.json"
#: what a run leaves for the evaluator, kept by the driver between runs
COLLECTED = "collected_data.json"
#: a collected file larger than this is not kept (the evaluator then finds none)
COLLECTED_MAX_BYTES = 64 * 1024 * 1024
HOME = "/tmp/itbench-fetch-home"
KUBECONFIG = Path("/tmp/itbench-fetch/kubeconfig")
#: kubectl's cache, holding the discovery of the environment being served (written before each
#: run, after the scratch it lies in was emptied)
KUBECACHE = Path(HOME) / ".kube" / "cache"
TAIL = 4000
#: every place of the sandbox a fetcher can write besides the runs' folders: emptied before each
#: run, so nothing one environment's run leaves (a file, a count of runs, the data it collected)
#: reaches the next one
SCRATCH = ("/tmp", "/var/tmp", "/run", "/dev/shm")
PR_SET_DUMPABLE = 4
#: The sandbox's System V IPC objects (its own IPC namespace), one table per kind: a header
#: line, then a line per object.
SYSVIPC = Path("/proc/sysvipc")


class Cluster:
    """One API server for every run; each environment swaps in its own state, so a trial pays
    for one server start (and no shutdown poll) instead of one per environment."""

    def __init__(self, extension_hooks: list | None) -> None:
        from itbench.cluster.extensions import domain_extensions, extensions_from_hooks
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

    @property
    def url(self) -> str:
        """The address the kubeconfig names (and kubectl's discovery cache is kept by)."""
        return self.server.kubeconfig_server

    def write_kubeconfig(self) -> None:
        """The kubeconfig pointing at this server, written again before each run (the runs'
        scratch, where it lies, is emptied between them)."""
        from itbench.cluster.kubeconfig import write_kubeconfig

        KUBECONFIG.parent.mkdir(parents=True, exist_ok=True)
        write_kubeconfig(KUBECONFIG, self.url, self.server.token)

    def serve(self, objects: list) -> None:
        from itbench.cluster.state import ClusterState

        self.server.state = ClusterState(objects, extensions=self.extensions)

    def write_discovery_cache(self) -> None:
        """kubectl's discovery cache, as this server answers for the state it serves now: each
        kubectl call of a run then skips the twenty-odd discovery requests (and their CPU, the
        client's and the server's) and asks for the objects alone."""
        from itbench.cluster.kubectl_cache import write_discovery_cache

        # without it (a scratch the fetcher closed) kubectl asks the server, as it always could
        with contextlib.suppress(OSError):
            write_discovery_cache(KUBECACHE, self.url, self.server.state)


#: the folder a static run's script reads, in its working directory (ITBench-Lite's name; the
#: same as ``ciso.scenarios.public.STATIC_RESOURCES``, not imported from there: that module
#: brings the scenario models, about 85 ms of imports, into every sandboxed driver)
STATIC_RESOURCES = "static-resources"


#: Go's garbage collector target for the fetcher's kubectl: a kubectl call lives about 50 ms and
#: spends a fifth of its CPU collecting the heap its start-up builds (the API types it
#: registers); collecting at four times the live heap instead of twice takes about 9 ms of CPU
#: off each call (150 calls in the built-in suite) and changes nothing kubectl answers.
GO_GC_PERCENT = "400"


def go_runtime(environ: dict[str, str]) -> dict[str, str]:
    """The Go runtime settings for the fetcher's programs, where ``environ`` sets none: a lazier
    collector (:data:`GO_GC_PERCENT`) bounded by a soft memory limit of half the sandbox's data
    limit, so a kubectl holding a large list collects as often as it must to stay below the
    limit it ran within before (the collector runs harder near the soft limit, not later)."""
    settings = {"GOGC": GO_GC_PERCENT}
    soft, _hard = resource.getrlimit(resource.RLIMIT_DATA)
    if soft != resource.RLIM_INFINITY:
        settings["GOMEMLIMIT"] = str(soft // 2)
    if "GOGC" in environ or "GOMEMLIMIT" in environ:  # the operator's own choice stands
        return {}
    return settings


def run_one(cluster: Cluster, run: dict, objects: list) -> dict:
    started = time.monotonic()
    cluster.serve(objects)
    cluster.write_kubeconfig()
    cluster.write_discovery_cache()
    env = dict(
        os.environ,
        **go_runtime(dict(os.environ)),
        KUBECONFIG=str(KUBECONFIG),
        HOME=HOME,
        KUBECACHEDIR=str(KUBECACHE),
    )
    return _launch(["bash", run["script"]], run, env, started)


def run_static(run: dict, files: dict[str, bytes]) -> dict:
    """``./<script>`` in a working directory holding this environment's files as
    ``static-resources/``, as ITBench-Lite runs ``fetch.sh`` (executed, so its shebang counts)."""
    started = time.monotonic()
    workdir = Path(run["workdir"])
    for relative, data in files.items():
        target = workdir / STATIC_RESOURCES / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    script = workdir / run["script"]
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return _launch([f"./{run['script']}"], run, dict(os.environ, HOME=HOME), started)


def _launch(argv: list[str], run: dict, env: dict[str, str], started: float) -> dict:
    """Run the script in its working directory within its time limit (its whole process group
    killed past it), then end whatever it left running."""
    try:
        proc = subprocess.Popen(
            argv,
            cwd=run["workdir"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            start_new_session=True,
        )
    except OSError as exc:  # executed directly: a shebang naming no interpreter, as a shell says
        return {
            "exit_code": 127 if exc.errno == errno.ENOENT else 126,
            "timed_out": False,
            "stdout": "",
            "stderr": f"{argv[0]}: cannot execute: {exc.strerror}",
            "duration_s": round(time.monotonic() - started, 4),
        }
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


def _remove(path: Path) -> None:
    """Remove a file or a whole tree the fetcher may have made unreadable (its own files: the
    driver runs as the same user, so it may give back the permissions it needs)."""
    if path.is_dir() and not path.is_symlink():

        def retry(function: Callable[[str], object], target: str, _exc: object) -> None:
            with contextlib.suppress(OSError):
                os.chmod(os.path.dirname(target), 0o700)
                os.chmod(target, 0o700)
                function(target)

        with contextlib.suppress(OSError):
            path.chmod(0o700)
        shutil.rmtree(path, onerror=retry)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


def _empty(folder: Path, keep: frozenset[str] = frozenset(), above: Path | None = None) -> None:
    """Remove what ``folder`` holds but the names in ``keep``; the folders on the way to
    ``above`` (the output root, bound inside a scratch folder when the run's output lies under
    /tmp) are descended into, never removed whole."""
    try:
        entries = list(folder.iterdir())
    except PermissionError:  # a folder of ours the fetcher closed: open it again
        with contextlib.suppress(OSError):
            folder.chmod(0o700)
        entries = list(folder.iterdir()) if os.access(folder, os.R_OK | os.X_OK) else []
    except OSError:
        return
    for entry in entries:
        if entry.name in keep:
            continue
        if above is not None and (entry == above or above.is_relative_to(entry)):
            if entry != above:
                _empty(entry, above=above)
            continue
        _remove(entry)


def clear_between_runs(root: Path, runs: list[dict]) -> None:
    """Empty every place a fetcher can write (the scratch folders, the runs' folders, the
    output root) and the System V IPC objects it may have left, once its processes are gone."""
    for place in SCRATCH:
        _empty(Path(place), above=root)
    workdirs = {Path(run["workdir"]) for run in runs}
    for workdir in workdirs:
        _empty(workdir)
    _empty(root, keep=frozenset(w.name for w in workdirs if w.parent == root))
    if ipc_objects_left() and shutil.which("ipcrm"):
        subprocess.run(["ipcrm", "--all"], capture_output=True, check=False)


def ipc_objects_left(tables: Path = SYSVIPC) -> bool:
    """Whether the IPC namespace holds a shared memory segment, semaphore set or message queue,
    from the kernel's tables: most runs leave none, and starting ``ipcrm`` to find that out
    (a fork of this driver, which holds every environment's objects, and an exec) costs more
    than a trial's every other step between runs. A table that cannot be read counts as
    holding one (``ipcrm`` then runs, as it always did)."""
    for kind in ("shm", "sem", "msg"):
        try:
            with (tables / kind).open("rb") as table:
                table.readline()  # the header
                if table.readline():
                    return True
        except OSError:
            return True
    return False


def _collected(workdir: Path) -> bytes | None:
    """The collected file a run left, if it is a regular file of a sane size (a link or a
    special file is left for the evaluator to refuse: it finds none)."""
    path = workdir / COLLECTED
    try:
        info = path.lstat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > COLLECTED_MAX_BYTES:
        return None
    try:
        return path.read_bytes()
    except OSError:
        return None


def _not_dumpable() -> None:
    """Keep this driver's memory (every environment's objects, read before the first run) out
    of the fetchers' reach: a process that is not dumpable cannot be read through
    /proc/<pid>/mem or process_vm_readv by another of the same user without privilege."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _load_all(spec: Path, runs: list[dict]) -> list[list | dict[str, bytes] | Exception]:
    """Every environment's objects (or a static run's files), read before any fetcher runs; then
    the manifests and the spec are removed. A fetcher sees only its own environment, through the
    API server or its own ``static-resources/``: not the others' (the compliant one, the
    leave-one-in ones), nor which run is which."""
    loaded: list[list | dict[str, bytes] | Exception] = []
    for run in runs:
        try:
            loaded.append(_static_files(Path(run["static"])) if "static" in run else _objects(run))
        except Exception as exc:  # that run fails alone, below
            loaded.append(exc)
    for run in runs:
        shutil.rmtree(run.get("static") or run["manifests"], ignore_errors=True)
    spec.unlink(missing_ok=True)
    return loaded


def _objects(run: dict) -> list:
    from itbench.cluster import load_manifests

    return load_manifests(Path(run["manifests"]))


def _static_files(folder: Path) -> dict[str, bytes]:
    """The files under ``folder`` by their path in it (written by the evaluator outside, never a
    link: copied from the scenario's resources)."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def main() -> None:
    _not_dumpable()
    spec = Path(sys.argv[1])
    root = spec.parent
    document = json.loads(spec.read_text())
    runs = document["runs"]
    # each run's script, kept here: a run could otherwise rewrite a later run's copy
    scripts = {i: (Path(r["workdir"]) / r["script"]).read_bytes() for i, r in enumerate(runs)}
    loaded = _load_all(spec, runs)
    hung = False
    # a static run needs no API server (nor its imports)
    cluster = (
        Cluster(document.get("extension_hooks"))
        if any("static" not in run for run in runs)
        else None
    )
    outcomes: list[dict] = []
    collected: list[bytes | None] = []
    for index, objects in enumerate(loaded):
        outcome, found = _run_in_turn(cluster, root, runs, index, objects, scripts, hung)
        hung = hung or bool(outcome["timed_out"])
        outcomes.append(outcome)
        collected.append(found)
    end_leftovers()
    clear_between_runs(root, runs)
    for run, outcome, found in zip(runs, outcomes, collected, strict=True):
        workdir = Path(run["workdir"])
        workdir.mkdir(parents=True, exist_ok=True)
        if found is not None:
            (workdir / COLLECTED).write_bytes(found)
        (workdir / OUTCOME).write_text(json.dumps(outcome))


def _run_in_turn(
    cluster: Cluster | None,
    root: Path,
    runs: list[dict],
    index: int,
    objects: list | dict[str, bytes] | Exception,
    scripts: dict[int, bytes],
    hung: bool,
) -> tuple[dict, bytes | None]:
    """One environment's run in a sandbox emptied of every earlier run: its outcome and the
    collected file it left (kept in memory until every run has ended)."""
    run = runs[index]
    if hung:  # a fetcher that hung once would hang again: do not pay its limit per environment
        return {
            "exit_code": None,
            "timed_out": True,
            "stdout": "",
            "stderr": "not run: the fetcher hit its time limit on an earlier environment",
            "duration_s": 0.0,
        }, None
    clear_between_runs(root, runs)
    (Path(run["workdir"]) / run["script"]).write_bytes(scripts[index])
    try:
        if isinstance(objects, Exception):
            raise objects
        if isinstance(objects, dict):
            outcome = run_static(run, objects)
        else:
            assert cluster is not None  # started whenever a run has manifests
            outcome = run_one(cluster, run, objects)
    except Exception as exc:  # a cluster that cannot load these manifests fails that run only
        end_leftovers()
        outcome = {
            "exit_code": 97,
            "timed_out": False,
            "stdout": "",
            "stderr": (
                f"itbench: the static resources could not be laid out: {exc}"
                if "static" in run
                else f"itbench: the offline cluster did not start: {exc}"
            ),
            "duration_s": 0.0,
        }
    return outcome, _collected(Path(run["workdir"]))


if __name__ == "__main__":
    main()
