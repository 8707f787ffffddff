"""``--sandbox container``: the evaluation and agent sandboxes in a container, through the docker
SDK against a real engine (Podman's Docker-compatible socket, started here).

The engine fixture uses DOCKER_HOST when an engine answers there; else it starts ``podman system
service`` itself on a private socket (runc, explicit ulimits: Debian's crun refuses hybrid cgroups)
when podman and runc are installed, and skips with the reason otherwise. It installs nothing. The
evaluation image is built once per session (``itbench sandbox image build``; reused when its
content hash is present, which takes a few seconds).

The hostile evaluation battery runs on both backends: the same script, the same assertions.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from itbench.sandbox.limits import ResourceLimits
from tests._support.cli import run_cli

CONTAINERS_CONF = """\
[engine]
runtime = "runc"
"""


def _ping(host: str) -> str | None:
    try:
        import docker
    except ImportError:
        return "the docker Python package is not installed (pip install 'itbench[container]')"
    try:
        docker.DockerClient(base_url=host, timeout=10).ping()
    except Exception as exc:
        return f"{host}: {exc}"
    return None


@pytest.fixture(scope="session")
def engine_host() -> Iterator[str]:
    """DOCKER_HOST of a running engine: the caller's, or a Podman socket started here."""
    given = os.environ.get("DOCKER_HOST")
    if given and _ping(given) is None:
        yield given
        return
    problem = _ping("unix:///nonexistent")  # only the import matters here
    if problem and "docker Python package" in problem:
        pytest.skip(problem)
    missing = [tool for tool in ("podman", "runc") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"no container engine: DOCKER_HOST answers nothing and {missing} missing")
    if os.geteuid() != 0:
        pytest.skip("starting Podman's socket here needs root (rootless Podman is not set up)")
    folder = Path(tempfile.mkdtemp(prefix="itbench-podman-"))
    conf = folder / "containers.conf"
    conf.write_text(CONTAINERS_CONF)
    host = f"unix://{folder}/podman.sock"
    env = {**os.environ, "CONTAINERS_CONF": str(conf)}
    log = (folder / "service.log").open("w")
    service = subprocess.Popen(
        ["podman", "system", "service", "--time=0", host],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    problem = "not started"
    while time.monotonic() < deadline and service.poll() is None:
        problem = _ping(host)
        if problem is None:
            break
        time.sleep(0.3)
    if problem is not None:
        service.kill()
        service.wait()
        pytest.skip(
            f"Podman's socket did not answer: {problem}; {(folder / 'service.log').read_text()[-500:]}"
        )
    yield host
    service.terminate()
    try:
        service.wait(timeout=20)
    except subprocess.TimeoutExpired:
        service.kill()
        service.wait()
    log.close()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def evaluation_image(engine_host: str) -> str:
    proc = run_cli(
        ["sandbox", "image", "build"], env={**os.environ, "DOCKER_HOST": engine_host}, timeout=1800
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    tag = proc.stdout.strip()
    assert tag.startswith("localhost/itbench-evaluation:"), proc.stdout
    return tag


@pytest.fixture
def on_container(monkeypatch, engine_host: str, evaluation_image: str) -> dict[str, str]:
    """This process and the CLIs it starts on the container backend."""
    env = {
        "DOCKER_HOST": engine_host,
        "ITBENCH_SANDBOX": "container",
        "ITBENCH_SANDBOX_IMAGE": evaluation_image,
    }
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return {**os.environ, **env}


def _bwrap_problem() -> str | None:
    try:
        from itbench.sandbox.availability import bwrap_path

        bwrap_path()
    except Exception as exc:
        return str(exc)
    return None


@pytest.fixture(params=["bubblewrap", "container"])
def backend(request, monkeypatch) -> str:
    if request.param == "bubblewrap":
        if _bwrap_problem():
            pytest.skip(f"no bubblewrap here: {_bwrap_problem()}")
        monkeypatch.setenv("ITBENCH_SANDBOX", "bubblewrap")
    else:
        request.getfixturevalue("on_container")
    return request.param


# --- no engine: a clear error, never unsandboxed -----------------------------------------------


def test_an_unreachable_engine_is_exit_3_naming_docker_host(tmp_path):
    env = {**os.environ, "DOCKER_HOST": f"unix://{tmp_path}/no-engine.sock"}
    marker = tmp_path / "out" / "ran"
    proc = run_cli(
        [
            "sandbox",
            "run",
            "--sandbox",
            "container",
            "--out",
            str(tmp_path / "out"),
            "--",
            "touch",
            str(marker),
        ],
        env=env,
    )
    assert proc.returncode == 3, proc.stderr
    assert "DOCKER_HOST" in proc.stderr and "Traceback" not in proc.stderr
    assert not marker.exists()  # not run unsandboxed instead


def test_an_unreachable_engine_stops_a_run_before_any_trial(tmp_path):
    env = {
        **os.environ,
        "DOCKER_HOST": f"unix://{tmp_path}/no-engine.sock",
        "ITBENCH_SANDBOX": "container",
    }
    proc = run_cli(
        ["ciso", "run", "--agent", "oracle", "--select", "cis-k8s-5.1.1-cluster-admin.kyverno"]
        + ["--output", str(tmp_path / "r"), "--no-progress"],
        env=env,
    )
    assert proc.returncode == 3, proc.stderr
    assert "DOCKER_HOST" in proc.stderr
    assert not (tmp_path / "r" / "results.json").exists()


def test_an_unknown_backend_is_a_usage_error(tmp_path):
    proc = run_cli(["sandbox", "run", "--sandbox", "chroot", "--out", str(tmp_path), "--", "true"])
    assert proc.returncode == 2


# --- the evaluation sandbox: the hostile battery on both backends ------------------------------


HOSTILE = """\
for target in /etc/{m} /{m} /usr/{m} "$SECRET_DIR/{m}" /var/tmp/{m}; do
  echo x > "$target" 2>/dev/null && echo "WROTE $target"
done
cat "$SECRET_DIR/secret.txt" 2>/dev/null && echo READ-SECRET
mount -t tmpfs none /mnt 2>/dev/null && echo MOUNTED
mount -o remount,rw / 2>/dev/null && echo REMOUNTED
unshare -m true 2>/dev/null && echo UNSHARED
python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT), timeout=2)" 2>/dev/null && echo CONNECTED
echo kept > inside.txt
echo done
"""


@pytest.fixture
def secret_dir() -> Iterator[Path]:
    """A folder outside everything sandboxes show (under root's home)."""
    path = Path(tempfile.mkdtemp(prefix=".itbench-secret-", dir=Path.home()))
    (path / "secret.txt").write_text("the answer\n")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def host_listener() -> Iterator[tuple[int, list]]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(8)
    accepted: list = []

    def accept():
        with contextlib.suppress(OSError):
            accepted.append(server.accept())

    thread = threading.Thread(target=accept)
    thread.start()
    yield server.getsockname()[1], accepted
    server.close()
    thread.join()


def test_hostile_evaluation_script_is_held(backend, tmp_path, secret_dir, host_listener):
    from itbench.sandbox import run_sandboxed

    port, accepted = host_listener
    marker = f"itbench-escape-{uuid.uuid4().hex[:8]}"
    out = tmp_path / "out"
    result = run_sandboxed(
        ["/bin/bash", "-c", HOSTILE.format(m=marker)],
        out_dir=out,
        env={"SECRET_DIR": str(secret_dir), "PORT": str(port)},
        timeout_s=60,
    )
    assert "done" in result.stdout, result.stderr
    # the script ran where the backend says (a silent fall-back to bubblewrap would hold too)
    assert result.process_limit.startswith("container") == (backend == "container"), (
        backend,
        result.process_limit,
    )
    # /var/tmp is private in both: bubblewrap's is a writable tmpfs of its own (a write there
    # reaches nothing, judged on the host below), the container's is read-only
    wrote = [ln for ln in result.stdout.splitlines() if ln.startswith("WROTE")]
    private = [ln for ln in wrote if backend == "bubblewrap" and " /var/tmp/" in ln]
    assert wrote == private, (backend, result.stdout)
    for word in ("READ-SECRET", "MOUNTED", "REMOUNTED", "UNSHARED", "CONNECTED"):
        assert word not in result.stdout, (backend, result.stdout)
    for place in (Path("/etc"), Path("/"), Path("/usr"), secret_dir, Path("/var/tmp")):
        assert not (place / marker).exists(), place
    assert (out / "inside.txt").read_text() == "kept\n"
    assert accepted == []


def test_container_sees_only_what_is_bound(on_container, tmp_path, secret_dir):
    from itbench.sandbox import run_sandboxed

    result = run_sandboxed(
        [
            "/bin/bash",
            "-c",
            "ls -a /root /home; ls /work/wt 2>&1; cat /etc/shadow 2>&1; cat /proc/self/status | grep CapEff; grep NoNewPrivs /proc/self/status",
        ],
        out_dir=tmp_path / "out",
        timeout_s=60,
    )
    assert result.exit_code == 0, result.stderr
    assert secret_dir.name not in result.stdout
    assert "No such file" in result.stdout  # /etc/shadow is not in the image
    assert "CapEff:\t0000000000000000" in result.stdout
    assert "NoNewPrivs:\t1" in result.stdout


#: Starts 100 sleepers and prints how many started (the pids cgroup refuses the rest).
SPAWN = """
import subprocess
started = 0
for _ in range(100):
    try:
        subprocess.Popen(["sleep", "5"])
        started += 1
    except OSError:
        pass
print(started)
"""


def test_container_limits_time_output_processes_memory(on_container, tmp_path):
    from itbench.sandbox import run_sandboxed

    started = time.monotonic()
    slow = run_sandboxed(["sleep", "600"], out_dir=tmp_path / "a", timeout_s=3)
    assert slow.timed_out and slow.exit_code == 124
    assert time.monotonic() - started < 60

    small = ResourceLimits(memory_bytes=256 << 20, file_size_bytes=1 << 20, output_bytes=64 << 10)
    loud = run_sandboxed(
        ["bash", "-c", "yes itbench"], out_dir=tmp_path / "b", timeout_s=60, limits=small
    )
    assert loud.cap == ("output", "64K") and not loud.timed_out

    big = run_sandboxed(
        ["bash", "-c", "head -c 4M /dev/zero > big.bin"],
        out_dir=tmp_path / "c",
        timeout_s=60,
        limits=small,
    )
    assert big.cap == ("file-size", "1M"), big.stderr
    assert (tmp_path / "c" / "big.bin").stat().st_size <= 1 << 20

    hungry = run_sandboxed(
        ["python3", "-c", "x = bytearray(1 << 30)"],
        out_dir=tmp_path / "d",
        timeout_s=60,
        limits=small,
    )
    assert hungry.cap == ("memory", "256M"), hungry.stderr

    forks = run_sandboxed(
        ["python3", "-c", SPAWN],
        out_dir=tmp_path / "e",
        timeout_s=60,
        max_processes=32,
    )
    assert int(forks.stdout.split()[-1]) < 32, forks.stdout


# --- CISO through the container backend ---------------------------------------------------------

ONE_PER_CLASS = (
    "cis-k8s-5.1.1-cluster-admin.kyverno",
    "cis-k8s-5.1.1-cluster-admin.kubectl-opa",
    "cis-k8s-5.1.1-cluster-admin.opa-static",
    "update-drop-capabilities.kyverno-update",
    "cis-rhel9-1.1.1.1-cramfs-disabled.rhel9-ansible-opa",
)


def _oracle_run(env: dict[str, str], out: Path, *selection: str) -> dict:
    scenarios = ["--scenarios", ",".join(selection)] if selection else []
    proc = run_cli(
        ["ciso", "run", "--sandbox", "container", "--agent", "oracle", *scenarios]
        + ["-j", "2", "--output", str(out), "--no-progress"],
        env=env,
        timeout=3600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return {
        r["incident_id"]: r for r in json.loads((out / "results.json").read_text())["raw_results"]
    }


def _assert_strict(by_id: dict) -> None:
    for scenario_id, entry in sorted(by_id.items()):
        assert "error" not in entry or entry["error"] is None, (scenario_id, entry.get("error"))
        assert entry["scores"]["strict_pass"] == 1, scenario_id


@pytest.mark.slow  # minutes: each rhel9 playbook starts a container per environment
def test_ciso_oracle_one_scenario_per_class_on_the_container_backend(on_container, tmp_path):
    by_id = _oracle_run(on_container, tmp_path / "r", *ONE_PER_CLASS)
    assert set(by_id) == set(ONE_PER_CLASS)
    _assert_strict(by_id)


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("ITBENCH_CONTAINER_SUITE") != "1",
    reason="the whole built-in suite on containers takes 10-15 min (one per class runs always); "
    "ITBENCH_CONTAINER_SUITE=1 runs it",
)
def test_ciso_oracle_passes_the_whole_builtin_suite_on_the_container_backend(
    on_container, tmp_path
):
    by_id = _oracle_run(on_container, tmp_path / "r")
    listed = run_cli(["ciso", "scenarios", "--format", "json"])
    assert set(by_id) == {s["id"] for s in json.loads(listed.stdout)["scenarios"]}
    _assert_strict(by_id)


# --- agents through the container backend -------------------------------------------------------


@pytest.fixture
def suite(tmp_path) -> Path:
    folder = tmp_path / "suite"
    proc = run_cli(
        [
            "finops",
            "generate",
            "--n",
            "1",
            "--seed",
            "5",
            "--difficulty",
            "easy",
            "--out",
            str(folder),
        ]
    )
    assert proc.returncode == 0, proc.stderr
    return folder


HOSTILE_AGENT = """\
find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o -name ground_truth.yaml -print 2>/dev/null > truth.found
cat "$SECRET_DIR/secret.txt" > secret.found 2>/dev/null
for target in /etc/{m} /{m} /tmp/../usr/{m} "$SECRET_DIR/{m}"; do
  echo x > "$target" 2>/dev/null && echo "$target" >> wrote.found
done
# the run folder (other trials) is absent: under /tmp, this lands in the private scratch at most
mkdir -p "$RUN_DIR" 2>/dev/null; echo x > "$RUN_DIR/{m}" 2>/dev/null
touch wrote.found
(mount -t tmpfs none /mnt 2>/dev/null && echo MOUNTED; mount -o remount,rw / 2>/dev/null && echo REMOUNTED) > mount.found
python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT), timeout=2)" 2>/dev/null && echo CONNECTED > net.found
touch net.found
echo '{{"resource": []}}' > agent_output.json
"""


def test_hostile_agent_is_held_on_the_container_backend(
    on_container, tmp_path, suite, secret_dir, host_listener
):
    port, accepted = host_listener
    marker = f"itbench-escape-{uuid.uuid4().hex[:8]}"
    out = tmp_path / "run"
    env = {**on_container, "SECRET_DIR": str(secret_dir), "PORT": str(port), "RUN_DIR": str(out)}
    proc = run_cli(
        ["finops", "run", "--scenarios", str(suite), "--agent-cmd", HOSTILE_AGENT.format(m=marker)]
        + [
            "--agent-network",
            "none",
            "--agent-env",
            "SECRET_DIR",
            "--agent-env",
            "PORT",
            "--agent-env",
            "RUN_DIR",
        ]
        + ["--output", str(out), "--format", "json", "--no-progress"],
        env=env,
        timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    workspace = out / "Scenario-1" / "1"
    assert (workspace / "agent_output.json").exists(), proc.stderr[-3000:]
    assert (workspace / "truth.found").read_text() == ""
    assert (workspace / "secret.found").read_text() == ""
    assert (workspace / "wrote.found").read_text() == ""
    assert (workspace / "mount.found").read_text() == ""
    assert (workspace / "net.found").read_text() == ""
    assert accepted == []
    for place in (Path("/etc"), Path("/"), Path("/usr"), secret_dir, out):
        assert not (place / marker).exists(), place


def test_command_agent_runs_on_the_container_backend(on_container, tmp_path, suite):
    out = tmp_path / "run"
    # /usr/share/doc/bash is the host's in bubblewrap and is not in the image: the command ran in it
    agent = (
        'test -r TASK.md && test -n "$ITBENCH_TASK" && test ! -e /usr/share/doc/bash '
        "&& uname -n > where.txt && echo '{\"resource\": []}' > agent_output.json"
    )
    proc = run_cli(
        [
            "finops",
            "run",
            "--scenarios",
            str(suite),
            "--agent-cmd",
            agent,
            "--agent-network",
            "none",
        ]
        + ["--output", str(out), "--format", "json", "--no-progress"],
        env=on_container,
        timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    workspace = out / "Scenario-1" / "1"
    assert (workspace / "where.txt").read_text().strip() == "itbench-agent"  # the container's name
    events = [
        json.loads(line) for line in (workspace / "transcript.jsonl").read_text().splitlines()
    ]
    end = next(e for e in events if e.get("event", e.get("kind")) == "command_end")
    assert end["exit_code"] == 0, end
    entry = json.loads((out / "results.json").read_text())["raw_results"][0]
    assert not entry.get("error"), entry


# --- auto ---------------------------------------------------------------------------------------


def _without_bwrap(env: dict[str, str]) -> dict[str, str]:
    """``env`` with a PATH holding only the environment's programs (no bwrap on it)."""
    import sys

    return {**env, "PATH": str(Path(sys.executable).parent)}


def test_auto_says_it_picked_bubblewrap_where_it_works(tmp_path):
    if _bwrap_problem():
        pytest.skip(f"no bubblewrap here: {_bwrap_problem()}")
    proc = run_cli(["sandbox", "run", "--sandbox", "auto", "--out", str(tmp_path), "--", "true"])
    assert proc.returncode == 0, proc.stderr
    assert "sandbox: bubblewrap (auto" in proc.stderr


def test_auto_without_bubblewrap_or_engine_is_exit_3_naming_both(tmp_path):
    env = _without_bwrap({**os.environ, "DOCKER_HOST": f"unix://{tmp_path}/no-engine.sock"})
    proc = run_cli(
        ["sandbox", "run", "--sandbox", "auto", "--out", str(tmp_path), "--", "true"], env=env
    )
    assert proc.returncode == 3, proc.stderr
    assert "bubblewrap" in proc.stderr and "DOCKER_HOST" in proc.stderr


def test_auto_picks_the_engine_where_bubblewrap_is_missing(on_container, tmp_path):
    env = _without_bwrap({**on_container, "ITBENCH_SANDBOX": "auto"})
    out = tmp_path / "out"
    proc = run_cli(
        ["sandbox", "run", "--out", str(out), "--", "/bin/sh", "-c", "uname -n > host.txt"], env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert "sandbox: container (auto" in proc.stderr
    assert (out / "host.txt").read_text().strip() == "itbench-sandbox"


# --- what a command costs: engine requests per command, per process --------------------------


@pytest.fixture
def engine_requests(monkeypatch) -> list[tuple[str, str]]:
    """Every request this process sends to the engine, as (method, path without the version)."""
    import re

    import requests

    sent: list[tuple[str, str]] = []
    send = requests.Session.request

    def recorded(self, method, url, *args, **kwargs):
        path = re.sub(r"^http\+docker://[^/]+(/v[0-9.]+)?", "", str(url))
        sent.append((method, path.split("?")[0]))
        return send(self, method, url, *args, **kwargs)

    monkeypatch.setattr(requests.Session, "request", recorded)
    return sent


def test_a_command_is_created_attached_started_inspected_removed_and_never_waited_for(
    on_container, tmp_path, engine_requests
):
    """create, attach, start, inspect (until it has exited), remove: the engine's ``wait`` (which
    Podman answers by polling its runtime, a third of a second or more) is not asked for."""
    from itbench.sandbox import run_sandboxed
    from itbench.sandbox.engine import engine_client

    engine_client()  # the client (its ping) made before counting
    engine_requests.clear()
    result = run_sandboxed(
        ["/bin/sh", "-c", "echo out; echo err >&2; exit 3"], out_dir=tmp_path / "o", timeout_s=60
    )
    assert (result.exit_code, result.stdout, result.stderr) == (3, "out\n", "err\n")
    kinds = [(method, path.rsplit("/", 1)[-1]) for method, path in engine_requests]
    assert not any(kind == "wait" for _, kind in kinds), kinds
    posts = [kind for method, kind in kinds if method == "POST"]
    assert posts == ["create", "attach", "start"], kinds
    assert kinds[-1][0] == "DELETE" and [m for m, _ in kinds].count("DELETE") == 1, kinds
    # the rest are inspections (the SDK's, whether the attached container has a terminal; then
    # until it has exited): nothing else
    assert {k for k in kinds if k[0] == "GET"} == {("GET", "json")}, kinds


def test_a_command_that_closes_its_output_and_runs_on_is_still_timed(on_container, tmp_path):
    """The container's end is its output closing, then its state: one that closes stdout and
    stderr early and runs on is killed at its deadline all the same."""
    from itbench.sandbox import run_sandboxed

    started = time.monotonic()
    result = run_sandboxed(
        ["/bin/sh", "-c", "exec >&- 2>&-; sleep 600"], out_dir=tmp_path / "o", timeout_s=3
    )
    assert result.timed_out and result.exit_code == 124, result
    assert time.monotonic() - started < 60


def test_a_forked_worker_asks_the_engine_for_neither_its_version_nor_the_image(
    on_container, monkeypatch
):
    """Podman takes about 2 s to answer ``/version``: the runner asks once, its forked trial
    workers inherit the answer, and the evaluation image is looked up once per process."""
    from itbench.sandbox.engine import engine_client, evaluation_image

    monkeypatch.delenv("ITBENCH_SANDBOX_IMAGE")
    client = engine_client()
    image = evaluation_image(client)
    assert evaluation_image(client) == image
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: any version request or image listing fails it
        code = 1
        try:
            import docker.api.client
            import docker.models.images

            def refused(*_args, **_kwargs):
                raise AssertionError("asked the engine again")

            docker.api.client.APIClient._retrieve_server_version = refused
            docker.models.images.ImageCollection.list = refused
            forked = engine_client()
            assert forked is not client  # a client of its own: no connection shared
            os.write(write, evaluation_image(forked).encode())
            code = 0
        except BaseException as exc:
            os.write(write, f"ERROR {exc}".encode())
        finally:
            os._exit(code)
    os.close(write)
    answer = os.read(read, 4096).decode()
    os.close(read)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0 and answer == image, answer


def test_the_image_holds_the_commands_update_alternatives_made():
    """``/usr/bin/awk`` is a link to ``/etc/alternatives/awk`` that no package lists: the image
    takes such links whose program it holds (fetch scripts call ``awk``)."""
    from itbench.sandbox.image import _alternatives

    awk = Path("/usr/bin/awk")
    if not awk.is_symlink() or not os.readlink(awk).startswith("/etc/alternatives/"):
        pytest.skip("/usr/bin/awk is not an update-alternatives link here")
    program = Path(os.path.realpath(awk))
    assert awk in _alternatives([program])
    assert awk not in _alternatives([])  # a link to a program the image lacks stays out


def test_awk_runs_in_the_evaluation_container(on_container, tmp_path):
    from itbench.sandbox import run_sandboxed

    result = run_sandboxed(
        ["/bin/sh", "-c", "echo 'a 7' | awk '{print $2 * 6}'"], out_dir=tmp_path / "o", timeout_s=60
    )
    assert (result.exit_code, result.stdout) == (0, "42\n"), result.stderr


@pytest.mark.skipif(
    os.geteuid() != 0, reason="the drop to nobody happens when itbench runs as root"
)
def test_run_as_root_the_container_commands_run_as_nobody(on_container, tmp_path):
    """As in bubblewrap: evaluation and agent commands run as nobody (65534) when itbench runs as
    root, in folders handed over to it; only a command over a host tree keeps root's uid."""
    import sys

    from itbench.sandbox import run_sandboxed
    from itbench.sandbox.agent import AgentConfinement
    from itbench.sandbox.agent_container import agent_spec, run_agent_container

    evaluation = run_sandboxed(
        ["/bin/sh", "-c", "id -u; id -g; echo x > written"], out_dir=tmp_path / "e", timeout_s=60
    )
    assert evaluation.stdout.split() == ["65534", "65534"], evaluation.stderr
    assert (tmp_path / "e" / "written").stat().st_uid == 65534

    host = tmp_path / "host" / "etc"
    host.mkdir(parents=True)
    (host / "motd").write_text("hello\n")
    over_tree = run_sandboxed(
        ["/bin/sh", "-c", "id -u; cat /etc/motd"],
        out_dir=tmp_path / "h",
        host_tree=tmp_path / "host",
        timeout_s=60,
    )
    assert over_tree.stdout.split() == ["0", "hello"], over_tree.stderr

    workspace = tmp_path / "w"
    workspace.mkdir()
    confinement = AgentConfinement(network="allow")
    spec = agent_spec(
        "id -u; echo x > written",
        workspace=workspace,
        read_only_inputs=[],
        confinement=confinement,
        env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": "/tmp"},
    )
    agent = run_agent_container(spec, timeout_s=60, confinement=confinement)
    assert agent.stdout.split() == ["65534"], agent.stderr
    assert (workspace / "written").stat().st_uid == 65534


def test_a_container_whose_maker_died_is_removed_by_the_next_command(on_container):
    """A trial worker killed at its time limit cannot remove its container; the next command on
    this host does (its maker's pid is dead). A container whose maker lives is left alone."""
    import multiprocessing

    from itbench.sandbox.container import OWNER_LABEL, _ulimits, reap_orphans
    from itbench.sandbox.engine import engine_client

    api = engine_client().api
    child = multiprocessing.get_context("fork").Process(target=lambda: None)
    child.start()
    child.join()
    host = socket.gethostname()
    made = {}
    for name, pid in (("orphan", child.pid), ("owned", os.getpid())):
        made[name] = api.create_container(
            on_container["ITBENCH_SANDBOX_IMAGE"],
            ["sleep", "600"],
            labels={OWNER_LABEL: f"{host}:{pid}"},
            host_config=api.create_host_config(
                network_mode="none", ulimits=_ulimits(ResourceLimits(None, None, None))
            ),
        )["Id"]
        api.start(made[name])
    try:
        removed = reap_orphans(api)
        assert made["orphan"] in removed
        assert made["owned"] not in removed
        left = {c["Id"] for c in api.containers(all=True, filters={"label": OWNER_LABEL})}
        assert made["orphan"] not in left and made["owned"] in left
    finally:
        for container in made.values():
            with contextlib.suppress(Exception):
                api.remove_container(container, force=True)


# --- --agent-network allow: a network of the container's own --------------------------------


@pytest.fixture
def host_http_server() -> Iterator[str]:
    """A real HTTP server on the host's loopback (where a local model server would listen)."""
    import http.server

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the name http.server dispatches to)
            body = b"HOST-SERVER-ANSWERED"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _agent_run(tmp_path: Path, command: str, network: str, env: dict[str, str]):
    import sys

    from itbench.sandbox.agent import AgentConfinement
    from itbench.sandbox.agent_container import agent_spec, run_agent_container

    confinement = AgentConfinement(network=network)
    base = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": "/tmp"}
    spec = agent_spec(
        command,
        workspace=tmp_path,
        read_only_inputs=[],
        confinement=confinement,
        env={**base, **env},
    )
    return spec, run_agent_container(spec, timeout_s=120, confinement=confinement)


@pytest.mark.parametrize(("network", "reached"), [("allow", True), ("none", False)])
def test_an_agent_with_allow_reaches_a_server_on_the_hosts_loopback(
    on_container, tmp_path, host_http_server, network, reached
):
    """The URL the agent is given names the host's loopback; in a network of its own the agent
    reaches it at that same URL (relayed into its own loopback), with none not at all."""
    fetch = (
        "import os, urllib.request; "
        "print(urllib.request.urlopen(os.environ['MODEL_URL'], timeout=5).read().decode())"
    )
    spec, outcome = _agent_run(
        tmp_path, f'python3 -c "{fetch}"', network, {"MODEL_URL": host_http_server}
    )
    assert ("HOST-SERVER-ANSWERED" in outcome.stdout) is reached, outcome.stderr[-2000:]
    assert spec.env["MODEL_URL"] == host_http_server
    if network == "allow":
        assert spec.network not in ("host", "none"), spec.network
        port = int(host_http_server.rsplit(":", 1)[1].split("/")[0])
        assert [(r.address, r.port) for r in spec.relays] == [("127.0.0.1", port)]
    else:
        assert spec.relays == ()


_GATEWAY_PROBE = """import socket, sys
port = int(sys.argv[1])
def probe(host):
    try:
        socket.create_connection((host, port), timeout=3).close()
        return "open"
    except OSError as exc:
        return "refused " + type(exc).__name__
gateways = []
for line in open("/proc/net/route").read().splitlines()[1:]:
    fields = line.split()
    if fields[1] == "00000000":
        gateways.append(socket.inet_ntoa(bytes.fromhex(fields[2])[::-1]))
for host in ["127.0.0.1", "10.0.2.2", *gateways]:
    print(host, probe(host))
"""


def test_an_agent_with_allow_reaches_only_the_hosts_loopback_services_it_is_given(
    on_container, tmp_path, host_http_server, host_listener
):
    """Only what the agent's environment names on the host's loopback is relayed: another port
    of the host's loopback is refused, at 127.0.0.1 and at the engine's way to the host (Podman's
    10.0.2.2, the default gateway), on every engine alike."""
    other_port, accepted = host_listener
    (tmp_path / "probe.py").write_text(_GATEWAY_PROBE)
    fetch = (
        "import os, urllib.request; "
        "print(urllib.request.urlopen(os.environ['MODEL_URL'], timeout=5).read().decode())"
    )
    _, outcome = _agent_run(
        tmp_path,
        f'python3 -c "{fetch}" && python3 probe.py {other_port}',
        "allow",
        {"MODEL_URL": host_http_server},
    )
    assert "HOST-SERVER-ANSWERED" in outcome.stdout, outcome.stderr[-2000:]
    probes = dict(line.split(" ", 1) for line in outcome.stdout.splitlines()[1:])
    assert "127.0.0.1" in probes and "10.0.2.2" in probes, outcome.stdout
    for host, answer in probes.items():
        assert answer.startswith("refused"), (host, answer)
    assert accepted == []


def test_an_agent_with_allow_reaches_no_abstract_socket_of_the_host(on_container, tmp_path):
    """Abstract UNIX sockets belong to the network namespace: the host's one is out of reach of
    an agent with --agent-network allow, while the agent's own abstract sockets work."""
    name = f"itbench-ctr-{uuid.uuid4().hex[:12]}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\0" + name)
    listener.listen(4)
    accepted: list[bytes] = []

    def accept():
        with contextlib.suppress(OSError):
            conn, _ = listener.accept()
            accepted.append(conn.recv(64))
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    script = (
        "import socket\n"
        "own = socket.socket(socket.AF_UNIX); own.bind('\\0agent-own'); own.listen(1)\n"
        "c = socket.socket(socket.AF_UNIX); c.connect('\\0agent-own'); print('OWN-OK')\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "try:\n"
        f"    s.connect('\\0{name}'); s.sendall(b'PWNED'); print('HOST-REACHED')\n"
        "except OSError as e:\n"
        "    print('HOST-REFUSED', e)\n"
    )
    (tmp_path / "probe.py").write_text(script)
    try:
        _, outcome = _agent_run(tmp_path, "python3 probe.py", "allow", {})
    finally:
        listener.close()
    assert "OWN-OK" in outcome.stdout, outcome.stderr[-2000:]
    assert "HOST-REFUSED" in outcome.stdout, outcome.stdout + outcome.stderr[-2000:]
    assert "HOST-REACHED" not in outcome.stdout and accepted == []


def test_an_agent_with_allow_reaches_the_trials_cluster_through_kubectl(on_container, tmp_path):
    """The trial's offline cluster listens on the host's loopback and its kubeconfig (in the
    workspace) says so: the cluster's port is relayed into the agent's own loopback, and kubectl
    reaches the cluster with that kubeconfig as it is."""
    from itbench.cluster import start_cluster

    if shutil.which("kubectl") is None:
        pytest.skip("no kubectl on PATH (the image holds the host's)")
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ctr-probe"}}
    kubeconfig = tmp_path / "kubeconfig.yaml"
    with start_cluster([namespace], kubeconfig=kubeconfig):
        before = kubeconfig.read_text()
        spec, outcome = _agent_run(
            tmp_path,
            'kubectl get namespaces -o name && echo "KUBECONFIG=$KUBECONFIG"',
            "allow",
            {"KUBECONFIG": str(kubeconfig)},
        )
    assert outcome.exit_code == 0, outcome.stderr[-2000:]
    assert "namespace/ctr-probe" in outcome.stdout, outcome.stdout
    assert f"KUBECONFIG={kubeconfig}" in outcome.stdout
    assert kubeconfig.read_text() == before
    assert [r.address for r in spec.relays] == ["127.0.0.1"]


def test_a_ciso_live_fetcher_runs_in_a_container(on_container, tmp_path):
    """``ciso live``'s fetcher on --sandbox container: a container (its cgroup says so)
    collecting from a cluster on the host's loopback through its self-contained kubeconfig."""
    from ciso.live.fetch import run_confined
    from itbench.cluster import start_cluster

    if shutil.which("kubectl") is None:
        pytest.skip("no kubectl on PATH (the image holds the host's)")
    role = {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": "probe-role"},
        "rules": [],
    }
    script = tmp_path / "fetch.sh"
    script.write_text(
        "kubectl get clusterroles -o json > collected_data.json\ncat /proc/self/cgroup > cgroup.txt\n"
    )
    with start_cluster([role], kubeconfig=tmp_path / "cluster.yaml") as cluster:
        found = run_confined(script, tmp_path / "run", cluster.kubeconfig_path, 120, hidden=())
    assert found.problem == "", found.output
    names = [item["metadata"]["name"] for item in found.data["items"]]
    assert "probe-role" in names
    # a container's own cgroup (bubblewrap stays in its caller's; at the top of the hierarchy
    # with the cgroupfs driver, so named by the container's id alone)
    groups = (tmp_path / "run" / "cgroup.txt").read_text()
    assert groups != Path("/proc/self/cgroup").read_text(), groups


def test_the_loopback_services_an_environment_names(tmp_path):
    """URLs on the loopback in any variable and the loopback clusters of KUBECONFIG's files
    (default ports by scheme, localhost as 127.0.0.1); remote ones and non-URLs are not."""
    import yaml

    from itbench.sandbox.loopback import LoopbackService, loopback_services

    config = {
        "clusters": [
            {"name": "local", "cluster": {"server": "https://127.0.0.1:6443"}},
            {"name": "remote", "cluster": {"server": "https://10.1.2.3:6443"}},
        ]
    }
    (tmp_path / "a.yaml").write_text(yaml.safe_dump(config))
    (tmp_path / "b.yaml").write_text("not: [a kubeconfig")
    env = {
        "KUBECONFIG": f"{tmp_path / 'a.yaml'}:{tmp_path / 'b.yaml'}:{tmp_path / 'missing'}",
        "MODEL_URL": "http://localhost:8000/v1",
        "OTHER": "https://[::1]/x",
        "REMOTE": "https://api.example.com:443/",
        "WORD": "127.0.0.1:9",
    }
    assert loopback_services(env) == (
        LoopbackService("127.0.0.1", 6443),
        LoopbackService("127.0.0.1", 8000),
        LoopbackService("::1", 443),
    )
    assert loopback_services({"KUBECONFIG": str(tmp_path / "b.yaml")}) == ()


# --- the default image belongs to its environment ------------------------------------------


def test_the_built_image_is_labelled_with_its_environment(engine_host, evaluation_image):
    import docker

    from itbench.sandbox.image import environment_labels

    labels = docker.DockerClient(base_url=engine_host).images.get(evaluation_image).labels
    wanted = environment_labels()
    assert {name: labels.get(name) for name in wanted} == wanted


def _import_labelled(client, repository: str, tag: str, labels: dict[str, str], folder: Path):
    """A one-file image with ``labels`` (the engine's import, as the image build does)."""
    import io
    import tarfile

    tar_path = folder / f"{tag}.tar"
    with tarfile.open(tar_path, "w") as tar:
        data = tag.encode()
        info = tarfile.TarInfo("marker")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    changes = [f"LABEL {name}={value}" for name, value in labels.items()]
    answer = client.api.import_image_from_file(str(tar_path), changes=changes)
    from itbench.sandbox.image import _imported_id

    client.images.get(_imported_id(answer)).tag(repository, tag)
    return f"{repository}:{tag}"


def test_the_default_image_is_the_newest_of_this_environment(engine_host, monkeypatch, tmp_path):
    """An engine shared by checkouts: a newer image built from another venv is passed over, and
    with none of this environment the error says so (never another environment's image)."""
    import docker

    from itbench.sandbox import engine, image
    from itbench.sandbox.availability import SandboxUnavailable

    client = docker.DockerClient(base_url=engine_host)
    repository = f"localhost/itbench-label-test-{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(image, "IMAGE_REPOSITORY", repository)
    monkeypatch.delenv("ITBENCH_SANDBOX_IMAGE", raising=False)
    monkeypatch.setattr(engine, "_EVALUATION_IMAGES", {})
    ours = image.environment_labels()
    other = {**ours, image.ENVIRONMENT_LABEL: "/elsewhere/.venv"}
    made = []
    try:
        made.append(_import_labelled(client, repository, "foreign-old", other, tmp_path))
        with pytest.raises(SandboxUnavailable, match="1 built from other environments"):
            engine.evaluation_image(client)
        time.sleep(1.1)  # creation times are in seconds
        made.append(_import_labelled(client, repository, "ours", ours, tmp_path))
        time.sleep(1.1)
        made.append(_import_labelled(client, repository, "foreign-new", other, tmp_path))
        engine._EVALUATION_IMAGES.clear()
        assert engine.evaluation_image(client) == f"{repository}:ours"
    finally:
        for tag in made:
            with contextlib.suppress(Exception):
                client.images.remove(tag, force=True)


def _cpu_group(spec) -> str:
    """The CPU cgroup ``spec``'s container runs in (cgroup v1's cpu controller or v2's tree)."""
    from itbench.sandbox.container import run_container

    done = run_container(spec, limits=ResourceLimits(None, None, None), timeout_s=60)
    assert done.exit_code == 0, done.stderr
    groups = {}
    for line in done.stdout.splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(","):
            groups[name] = path
    return groups.get("cpu") or groups[""]


def test_each_container_weighs_as_much_as_a_bubblewrap_session(on_container, tmp_path, monkeypatch):
    """With the cgroupfs driver the container's CPU group lies at the top of the hierarchy, not
    inside the one parent group all containers share (``libpod_parent``, ``/docker``): under load
    the scheduler gives it what it gives one bubblewrap sandbox (a session of its own)."""
    import docker

    from itbench.sandbox.container import ContainerSpec

    client = docker.DockerClient(base_url=on_container["DOCKER_HOST"])
    if client.info().get("CgroupDriver") != "cgroupfs":
        pytest.skip("the engine's cgroups are systemd's slices: their default is kept")
    spec = ContainerSpec(
        image=on_container["ITBENCH_SANDBOX_IMAGE"],
        argv=("/bin/cat", "/proc/self/cgroup"),
        workdir="/",
        mounts=(),
    )
    top = _cpu_group(spec)
    assert top.count("/") == 1, top
    # ITBENCH_CONTAINER_CGROUP_PARENT empty: the engine's default parent (libpod_parent, /docker)
    monkeypatch.setenv("ITBENCH_CONTAINER_CGROUP_PARENT", "")
    nested = _cpu_group(spec)
    assert nested.count("/") == 2, nested


# --- time limits: a trial past its limit is killed at once, its containers with it --------------


@pytest.mark.parametrize(
    "agent",
    ["sleep 1000", "trap '' TERM INT HUP; while :; do sleep 1; done"],
    ids=["sleep", "ignore-term"],
)
def test_a_trial_past_its_time_limit_leaves_no_container_running(on_container, tmp_path, agent):
    """The runner kills the trial's worker at the limit (its process group: bubblewrap's
    sandbox dies with it); the worker's container is outside that group and is SIGKILLed and
    removed by the runner right then, not left running until another command's reaper looks."""
    from itbench.sandbox.container import OWNER_LABEL
    from itbench.sandbox.engine import engine_client

    tag = f"itbench-hang-{uuid.uuid4().hex[:8]}"
    out = tmp_path / "run"
    started = time.monotonic()
    proc = run_cli(
        ["ciso", "run", "--agent-cmd", f"{agent} # {tag}", "--timeout", "5"]
        + ["--select", "cis-k8s-5.1.1-cluster-admin.kyverno", "--agent-network", "none"]
        + ["--output", str(out), "--format", "json", "--no-progress"],
        env=on_container,
        timeout=300,
        subprocess_only=True,
    )
    took = time.monotonic() - started
    left = [
        c
        for c in engine_client().api.containers(all=True, filters={"label": OWNER_LABEL})
        if tag in str(c.get("Command"))
    ]
    assert left == [], left
    entry = json.loads((out / "results.json").read_text())["raw_results"][0]
    assert "timeout" in str(entry.get("error")), entry
    # the 5 s limit, the command's start-up and the engine's handshake: far below the minute
    # the integrity battery allows
    assert took < 5 + 30, (took, proc.stderr[-2000:])


def test_making_a_client_asks_the_engine_only_for_its_ping(
    engine_host, monkeypatch, engine_requests
):
    """The API version comes from the ping's headers: the SDK's own ``/version`` request takes
    Podman about 2 s (many times that under load). The cgroup driver (``/info``) is asked in the
    background and waited for only when a container is made (or before a fork)."""
    from itbench.sandbox import engine

    monkeypatch.setenv("DOCKER_HOST", engine_host)
    monkeypatch.setattr(engine, "_API_VERSIONS", {})
    monkeypatch.setattr(engine, "_CGROUP_PARENTS", {})
    engine._client_for.cache_clear()
    try:
        client = engine.engine_client()
        on_the_way = [path for _, path in engine_requests]
        assert "/version" not in on_the_way, on_the_way
        assert on_the_way[0] == "/_ping", on_the_way
        assert client.api.api_version == engine._API_VERSIONS[engine_host]
        assert client.ping()
        engine.cgroup_parent()  # the background answer joined
        assert engine_host in engine._CGROUP_PARENTS
        assert [p for _, p in engine_requests].count("/version") == 0, engine_requests
    finally:
        engine._client_for.cache_clear()


# --- a live trial's agent: the API server its only endpoint -------------------------------------

_PROBE = (
    "import socket, sys\n"
    "try:\n"
    "    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3).close()\n"
    "    print('open')\n"
    "except OSError as exc:\n"
    "    print('refused', type(exc).__name__)\n"
)


@pytest.fixture
def api_proxy(tmp_path):
    """A trial's offline cluster behind SRE live mode's write-counting proxy (its unix socket
    the agent's one endpoint), and the host port of another service the agent must not reach."""
    from itbench.cluster import start_cluster
    from sre.live.kube import flat_kubeconfig
    from sre.live.write_counter import start_proxy

    if shutil.which("kubectl") is None:
        pytest.skip("no kubectl on PATH (the image holds the host's)")
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "live-probe"}}
    with start_cluster([namespace], kubeconfig=tmp_path / "cluster.yaml") as cluster:
        proxy = start_proxy(flat_kubeconfig(cluster.kubeconfig_path, tmp_path / "home"))
        assert proxy is not None
        try:
            yield cluster, proxy
        finally:
            proxy.stop()


def test_a_live_agent_on_the_container_backend_reaches_the_api_server_and_nothing_else(
    on_container, tmp_path, api_proxy, host_listener
):
    """``--agent-network allow`` with a trial naming one endpoint: the container has no network
    but its own loopback, where the forwarder relays the kubeconfig's port to the proxy's
    socket. kubectl reads and writes through it (the write counted); another port of the host's
    loopback, the API server's own address and an outside address are refused."""
    import sys

    import yaml

    from itbench.sandbox.agent import AgentConfinement
    from itbench.sandbox.agent_container import agent_spec, run_agent_container

    cluster, proxy = api_proxy
    other_port, accepted = host_listener
    server = yaml.safe_load(cluster.kubeconfig_path.read_text())["clusters"][0]["cluster"]
    api_port = int(server["server"].rstrip("/").rsplit(":", 1)[1])
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "kubeconfig.yaml").write_text(proxy.kubeconfig_text())
    (workspace / "probe.py").write_text(_PROBE)
    script = " ; ".join(
        [
            "kubectl get namespaces -o name > got.txt",
            "kubectl -n live-probe create configmap from-the-container --from-literal=a=b > made.txt",
            f"python3 probe.py 127.0.0.1 {other_port} > other.txt",
            f"python3 probe.py 127.0.0.1 {api_port} > api.txt",
            "python3 probe.py 192.0.2.1 443 > outside.txt",
        ]
    )
    confinement = AgentConfinement(network="allow")
    env = {
        "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "KUBECONFIG": str(workspace / "kubeconfig.yaml"),
    }
    spec = agent_spec(
        script,
        workspace=workspace,
        read_only_inputs=[],
        confinement=confinement,
        env=env,
        endpoint=proxy.endpoint,
    )
    assert spec.network == "none"
    outcome = run_agent_container(spec, timeout_s=120, confinement=confinement)
    assert outcome.exit_code == 0, outcome.stderr[-2000:]
    assert "namespace/live-probe" in (workspace / "got.txt").read_text().split(), outcome.stderr
    assert "created" in (workspace / "made.txt").read_text(), outcome.stderr
    assert [(w.method, w.status) for w in proxy.writes] == [("POST", 201)]
    for name in ("other", "api", "outside"):
        assert (workspace / f"{name}.txt").read_text().startswith("refused"), name
    assert accepted == []
    # from the host the first two answer (the container is what shuts them)
    for port in (other_port, api_port):
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass


def test_a_live_trials_launch_on_the_container_backend_is_its_endpoint_alone(
    on_container, tmp_path
):
    """What the command agent of a live trial gets on ``--sandbox container``: network none, the
    endpoint's socket bound in, the forwarder before the agent's command; with
    ``--agent-network none`` neither (none is none, the endpoint too)."""
    from itbench.agents.command import confined_launch
    from itbench.models import PublicScenario
    from itbench.plugins.spec import Task
    from itbench.sandbox.agent import AgentConfinement
    from itbench.sandbox.endpoint import FORWARDER, SANDBOX_SOCKET, Endpoint
    from itbench.transcript import Transcript

    scenario = PublicScenario(id="s", domain="sre", title="t", **{"class": "mitigate"})
    endpoint = Endpoint(tmp_path / "s.sock", 8080)
    endpoint.socket.touch()
    env = {"KUBECONFIG": str(tmp_path / "k.yaml"), **endpoint.variable()}
    task = Task(scenario, "p", tmp_path, None, Transcript(tmp_path / "t.jsonl"), env)
    launch = confined_launch("true", task, [], AgentConfinement())
    spec = launch.container
    assert spec is not None and spec.network == "none"
    assert (str(endpoint.socket), SANDBOX_SOCKET) in [(m.source, m.target) for m in spec.mounts]
    assert FORWARDER in spec.argv and spec.argv[-3:] == ("/bin/bash", "-c", "true")
    assert "ITBENCH_AGENT_ENDPOINT" not in spec.env
    shut = confined_launch("true", task, [], AgentConfinement(network="none")).container
    assert shut is not None and shut.network == "none"
    assert str(endpoint.socket) not in [m.source for m in shut.mounts]
    assert FORWARDER not in shut.argv


# --- an SRE mitigate trial's command agent in a container -----------------------------------


def test_an_sre_mitigate_command_agent_repairs_the_twin_from_a_container(on_container, tmp_path):
    """``sre run --task mitigate`` with a command agent on ``--sandbox container`` (network
    allow): the twin's API server on the host's loopback is relayed into the agent's container,
    its kubectl repair lands (the trial passes) and its read shows the twin's namespace."""
    from sre.generator.snapshot import write_incident
    from sre.twin.suite import write_recipe

    if shutil.which("kubectl") is None:
        pytest.skip("no kubectl on PATH (the image holds the host's)")
    scenario = tmp_path / "suite" / "Scenario-network-policy"
    write_incident(scenario, "network-policy", 42)
    write_recipe(scenario, "network-policy", 42)
    command = (
        "kubectl get namespaces -o name > seen.txt && "
        "kubectl delete networkpolicies --all -n otel-demo"
    )
    out = tmp_path / "out"
    proc = run_cli(
        ["sre", "run", "--task", "mitigate", "--scenarios", str(scenario.parent)]
        + ["--agent-cmd", command, "--output", str(out), "--no-progress"],
        env=on_container,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    (evaluation,) = [json.loads(p.read_text()) for p in out.glob("*/1/evaluation.json")]
    assert evaluation["error"] is None, evaluation
    assert evaluation["scores"]["mitigation_pass"] == 1.0, evaluation["details"]
    (seen,) = out.glob("*/1/**/seen.txt")
    assert "namespace/otel-demo" in seen.read_text().split()


def test_the_forwarder_relays_each_route_and_says_which_it_cannot_bind(tmp_path):
    """The forwarder on its own (as the sandbox starts it): two ports relayed to their sockets;
    a port it cannot bind (taken here) is said on stderr and the command runs all the same."""
    import sys

    from itbench.sandbox.endpoint import FORWARDER

    answers = {}
    listeners = []
    for name in ("one", "two"):
        path = tmp_path / f"{name}.sock"
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(path))
        server.listen(4)
        listeners.append(server)

        def answer(server=server, name=name):
            with contextlib.suppress(OSError):
                conn, _ = server.accept()
                conn.sendall(name.encode())
                conn.close()

        threading.Thread(target=answer, daemon=True).start()
        answers[name] = path
    ports = []
    for _ in range(2):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        ports.append(probe.getsockname()[1])
        probe.close()
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    taken_port = taken.getsockname()[1]
    read = (
        "import socket, sys\n"
        "for port in sys.argv[1:]:\n"
        "    print(socket.create_connection(('127.0.0.1', int(port)), timeout=5).recv(16).decode())\n"
    )
    # a session of its own: the forwarder's serving child outlives the command (a sandbox ends
    # it with its namespace), so the whole group is killed here
    forwarder = subprocess.Popen(
        [sys.executable, "-c", FORWARDER]
        + [f"127.0.0.1:{ports[0]}={answers['one']}", f"127.0.0.1:{ports[1]}={answers['two']}"]
        + [f"127.0.0.1:{taken_port}={answers['one']}", "--"]
        + [sys.executable, "-c", read, str(ports[0]), str(ports[1])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = forwarder.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(forwarder.pid, 9)
        taken.close()
        for server in listeners:
            server.close()
    assert forwarder.returncode == 0, stderr
    assert stdout.split() == ["one", "two"]
    assert f"cannot relay 127.0.0.1:{taken_port} into the sandbox" in stderr
