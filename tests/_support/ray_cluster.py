"""A real local Ray cluster (2 CPUs) for the tests that run suites through ``--executor ray``.

It is a ``ray start --head --block`` process group of our own (killed at the end, never a
machine-wide ``ray stop``), started once per test session by the ``ray_cluster`` fixture of
tests/conftest.py and shared by the core executor tests and each domain's Ray test.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
TOY_DIST = TESTS / "core" / "toy_dist"
CORE_HELPERS = TESTS / "core"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_ray_cluster(workdir: Path) -> Iterator[str]:
    """Yield the address of a running 2-CPU Ray head; kill its process group afterwards."""
    port = _free_port()
    # Token authentication, as Ray enables it by default, with a token of this cluster's own:
    # every driver (this process, the CLI runs, which inherit the environment) presents it.
    auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(16)}
    saved = {name: os.environ.get(name) for name in auth}
    os.environ.update(auth)
    env = dict(os.environ)
    # workers import the toy domain and the test helpers (as ``ray_helpers`` from driver scripts,
    # as ``tests._support...`` from pickled test objects); the toy agent is slowed down so that a
    # run is still going when a test kills something
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(TOY_DIST), str(CORE_HELPERS), str(REPO), env.get("PYTHONPATH", "")])
    )
    env["TOY_AGENT_SLEEP"] = "0.4"
    # workers do not inherit a driver's environment: their caches (SRE snapshot indexes) go
    # to this session's folder, never the user's
    env["ITBENCH_CACHE_DIR"] = str(workdir / "worker-cache")
    env.pop("RAY_ADDRESS", None)
    log = (workdir / "head.log").open("w")
    temp_dir = tempfile.mkdtemp(prefix="itbray")  # short: Ray's socket paths live under it
    head = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "ray"),
            "start",
            "--head",
            "--block",
            f"--port={port}",
            "--node-ip-address=127.0.0.1",
            "--num-cpus=2",
            "--object-store-memory=100000000",
            "--include-dashboard=false",
            "--disable-usage-stats",
            # its own session folder: the machine-wide record of "the current cluster" in
            # /tmp/ray would outlive the SIGKILL below and mislead later ``ray.init()`` calls
            f"--temp-dir={temp_dir}",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            assert head.poll() is None, f"ray start failed: see {log.name}"
            assert time.monotonic() < deadline, f"Ray head not up in 90 s: see {log.name}"
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        # ray start puts the GCS, the raylet and the workers in its process group
        os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        log.close()
        shutil.rmtree(temp_dir, ignore_errors=True)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def ray_args(address: str) -> list[str]:
    return ["--executor", "ray", "--ray-address", address]


def run_suite(domain: str, scenarios: str, out: Path, extra: list[str], env=None) -> dict:
    """``itbench <domain> run`` of ``scenarios`` (2 trials, -j 2) into ``out``: its results
    document (the run must succeed)."""
    import json

    from tests._support.cli import run_cli

    proc = run_cli(
        [domain, "run", "--scenarios", scenarios, "--trials", "2", "-j", "2"]
        + ["--output", str(out), "--format", "json", "--no-progress", *extra],
        env=env,
        timeout=300,
    )
    # the whole story when it fails: a run killed by a signal has a negative code and no stderr
    assert proc.returncode == 0, (
        f"exit {proc.returncode}\nstderr: {proc.stderr[-4000:]}\nstdout: {proc.stdout[-2000:]}"
    )
    return json.loads(proc.stdout)


def by_trial(doc: dict) -> dict[tuple[str, str], tuple[dict, str | None]]:
    """(scenario, trial) -> (scores, error) of a results document."""
    return {
        (r["incident_id"], r["trial_id"]): (r["scores"], r.get("error")) for r in doc["raw_results"]
    }
