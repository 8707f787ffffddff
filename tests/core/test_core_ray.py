"""The Ray executor against a real local Ray cluster (2 CPUs; the session's ``ray_cluster``
fixture, see tests/ray_cluster.py). Runs join it with ``--ray-address``, as they would a remote
cluster. The domains' own suites through Ray are tested beside their other tests
(tests/ciso/test_ciso_ray.py, tests/sre/test_sre_ray.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests._support.cli import REPO, itbench_executable, run_cli

# Ray is never imported here: drivers are processes of their own, with the cluster's token.
pytestmark = [
    pytest.mark.ray,
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None,
        reason="Ray is not installed: pip install 'itbench[ray]' (scripts/setup-venv.sh does)",
    ),
]

HELPERS = Path(__file__).resolve().parent
WORKER_TITLE = b"ray::TrialWorker"


@pytest.fixture
def cluster(ray_cluster: str) -> str:
    return ray_cluster


def _ray_args(address: str) -> list[str]:
    return ["--executor", "ray", "--ray-address", address]


def _results(proc: subprocess.CompletedProcess[str]) -> dict:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _by_trial(doc: dict) -> dict[tuple[str, str], dict]:
    return {(r["incident_id"], r["trial_id"]): r["scores"] for r in doc["raw_results"]}


def _errors(doc: dict) -> dict[tuple[str, str], str | None]:
    return {(r["incident_id"], r["trial_id"]): r.get("error") for r in doc["raw_results"]}


def _worker_pids() -> list[int]:
    """Ray actor processes of the executor (not the trial processes they fork, which carry the
    same title)."""
    titled = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if cmdline.startswith(WORKER_TITLE):
            titled[int(entry.name)] = ppid
    return sorted(pid for pid, ppid in titled.items() if ppid not in titled)


def _wait_for(predicate, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_finops_suite_through_ray_gives_the_local_statistics(cluster, tmp_path):
    local = _results(
        run_cli(["finops", "run", "--output", str(tmp_path / "local"), "--format", "json"])
    )
    remote_out = tmp_path / "ray"
    remote = _results(
        run_cli(
            ["finops", "run", "--output", str(remote_out), "--format", "json", "-j", "2"]
            + _ray_args(cluster),
            env=dict(os.environ),
        )
    )
    assert remote["statistics"] == local["statistics"]
    assert _by_trial(remote) == _by_trial(local)
    assert len(local["raw_results"]) >= 20
    assert remote["config"] == local["config"]
    assert _errors(remote) == _errors(local)
    for scenario, trial in _by_trial(remote):
        folder = remote_out / scenario / trial
        evaluation = json.loads((folder / "evaluation.json").read_text())
        assert evaluation["scenario_id"] == scenario
        assert (folder / "transcript.jsonl").is_file(), folder
        if evaluation["error"] is None:
            assert (folder / "agent_output.json").is_file(), folder
    assert not list(remote_out.glob(".itbench-ray-*")), "the run's marker was left behind"


def test_transfer_mode_brings_trial_folders_back_to_the_driver(cluster, toy_env, tmp_path):
    out = tmp_path / "run"
    toy_env["ITBENCH_RAY_FILES"] = "transfer"
    doc = _results(
        run_cli(
            ["toy", "run", "--output", str(out), "--trials", "2", "-j", "2", "--format", "json"]
            + _ray_args(cluster),
            env=toy_env,
        )
    )
    assert _by_trial(doc) == {
        (f"add-{i}", str(n)): {"correct": 1.0} for i in (1, 2, 3) for n in (1, 2)
    }
    for i in (1, 2, 3):
        for n in (1, 2):
            trial = out / f"add-{i}" / str(n)
            assert json.loads((trial / "answer.json").read_text()) == {"sum": 11 * i}
            assert json.loads((trial / "task.json").read_text()) == {"a": i, "b": 10 * i}
            assert (trial / "transcript.jsonl").is_file()
            assert not (trial / "truth.json").exists()


def test_an_unknown_files_mode_is_a_usage_error(cluster, toy_env, tmp_path):
    toy_env["ITBENCH_RAY_FILES"] = "nfs"
    proc = run_cli(["toy", "run", "--output", str(tmp_path)] + _ray_args(cluster), env=toy_env)
    assert proc.returncode == 2
    assert "ITBENCH_RAY_FILES='nfs'" in proc.stderr and "transfer" in proc.stderr


def test_killing_a_ray_worker_mid_run_loses_nothing(cluster, toy_env, tmp_path):
    out = tmp_path / "run"
    toy_env["TOY_SCENARIOS"] = "4"
    args = ["toy", "run", "--trials", "3", "-j", "2", "--output", str(out), "--format", "json"]
    proc = subprocess.Popen(
        [itbench_executable(), *args, *_ray_args(cluster)],
        env=toy_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _wait_for(lambda: len(list(out.glob("*/*/evaluation.json"))) >= 2, 60, "two trials")
        victims = _worker_pids()
        assert victims, "no Ray worker process found"
        os.kill(victims[0], signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, stderr
    assert "re-queued" in stderr
    doc = json.loads(stdout)
    pairs = [(r["incident_id"], r["trial_id"]) for r in doc["raw_results"]]
    assert len(pairs) == len(set(pairs)) == 12
    assert _by_trial(doc) == {
        (f"add-{i}", str(n)): {"correct": 1.0} for i in range(1, 5) for n in range(1, 4)
    }
    assert all(r.get("error") in (None, "") for r in doc["raw_results"])


def test_rerun_after_killing_the_driver_completes_only_what_was_missing(cluster, toy_env, tmp_path):
    out = tmp_path / "resume"
    toy_env["TOY_SCENARIOS"] = "4"
    args = ["toy", "run", "--trials", "3", "-j", "2", "--output", str(out), "--no-progress"]
    args += _ray_args(cluster)
    proc = subprocess.Popen(
        [itbench_executable(), *args],
        env=toy_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    _wait_for(lambda: len(list(out.glob("*/*/evaluation.json"))) >= 3, 60, "three trials")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    # Ray ends the actors of a dead driver, and their trial processes die with them
    _wait_for(lambda: not _worker_pids(), 30, "the dead driver's workers to end")
    first = {p.parent for p in out.glob("*/*/evaluation.json")}
    assert 3 <= len(first) < 12
    assert not (out / "results.json").exists()
    for path in out.glob("*/*/evaluation.json"):
        json.loads(path.read_text())  # nothing half-written
    mtimes = {p: (p / "evaluation.json").stat().st_mtime_ns for p in first}

    second = run_cli(args + ["--format", "json"], env=toy_env)
    doc = _results(second)
    assert f"resuming: {len(first)} complete trial(s) kept" in second.stderr
    pairs = [(r["incident_id"], r["trial_id"]) for r in doc["raw_results"]]
    assert len(pairs) == len(set(pairs)) == 12
    assert _by_trial(doc) == {
        (f"add-{i}", str(n)): {"correct": 1.0} for i in range(1, 5) for n in range(1, 4)
    }
    for trial, mtime in mtimes.items():  # kept, not redone
        assert (trial / "evaluation.json").stat().st_mtime_ns == mtime


DRIVER = """
import json, sys
from pathlib import Path

import ray_helpers
from itbench.runner.executors.ray_executor import RayExecutor
from itbench.runner.run import execute_plan, plan_trials
from itbench.runner.trial import RunContext

address, root, limit, *ids = sys.argv[1:]
out = Path(root) / "run"
out.mkdir()
plan = plan_trials(ray_helpers.scenarios(Path(root) / "suite", ids), 1, out)
ctx = RunContext(ray_helpers.DOMAIN, ray_helpers.RayToyAgent(), "raytoy", None, float(limit))
seen = []
execute_plan(
    plan, ctx, out, 2, on_trial=lambda spec, _: seen.append(spec.label),
    executor=RayExecutor(address=address),
)
print(json.dumps(seen))
"""


def _drive(driver: str, *args: str) -> subprocess.CompletedProcess[str]:
    """A driver script run in a process of its own, the helpers' folder on its path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HELPERS), env.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-c", driver, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )


def _run_driver(address: str, tmp_path: Path, ids: list[str], time_limit: float) -> Path:
    """The executor through its Python API, in a driver process of its own."""
    proc = _drive(DRIVER, address, str(tmp_path), str(time_limit), *ids)
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout)
    assert sorted(seen) == sorted(f"{i}#1" for i in ids), "each trial reported exactly once"
    return tmp_path / "run"


def _evaluation(out: Path, scenario: str) -> dict:
    return json.loads((out / scenario / "1" / "evaluation.json").read_text())


def test_a_trial_that_kills_its_worker_twice_is_an_error_and_the_run_goes_on(cluster, tmp_path):
    out = _run_driver(cluster, tmp_path, ["ok-1", "doomed", "ok-2", "ok-3"], 30.0)
    doomed = _evaluation(out, "doomed")
    assert doomed["error"].startswith("worker lost 2 times"), doomed
    for scenario in ("ok-1", "ok-2", "ok-3"):
        evaluation = _evaluation(out, scenario)
        assert evaluation["error"] is None and evaluation["scores"] == {"correct": 1.0}


def test_the_hard_time_limit_kills_the_trial_and_what_it_started(cluster, tmp_path):
    started = time.monotonic()
    out = _run_driver(cluster, tmp_path, ["hang", "ok-1"], 2.0)
    assert time.monotonic() - started < 45
    assert _evaluation(out, "hang")["error"] == "timeout"
    assert _evaluation(out, "ok-1")["scores"] == {"correct": 1.0}
    helper = int((out / "hang" / "1" / "helper.pid").read_text())
    _wait_for(lambda: not _alive(helper), 5, f"helper process {helper} to be killed")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


SESSION_DRIVER = """
import json, sys
from pathlib import Path

import ray_helpers
from itbench.runner.benchmark import RunRequest
from itbench.runner.executors.ray_executor import RayExecutor
from itbench.runner.run import execute_plan, plan_trials
from itbench.runner.trial import RunContext

address, root = sys.argv[1:]
out = Path(root) / "run"
out.mkdir()
request = RunRequest(domain="raytoy", output_dir=out, domain_options={"weight": 7})
session = ray_helpers.SESSION_DOMAIN.open_run(request)
plan = plan_trials(ray_helpers.scenarios(Path(root) / "suite", ["ok-1", "ok-2"]), 1, out)
ctx = RunContext(
    ray_helpers.SESSION_DOMAIN, ray_helpers.RayToyAgent(), "raytoy", None, 30.0, session=session
)
execute_plan(plan, ctx, out, 2, executor=RayExecutor(address=address, request=request))
"""


def test_ray_workers_open_the_domain_session_from_the_run_request(cluster, tmp_path):
    proc = _drive(SESSION_DRIVER, cluster, str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    for scenario in ("ok-1", "ok-2"):
        evaluation = _evaluation(tmp_path / "run", scenario)
        # the request's setting reached the worker's evaluator, through a session the worker
        # opened itself (the driver's stays behind)
        assert evaluation["scores"] == {"correct": 1.0, "weight": 7.0, "on_worker": 1.0}


AGENT_DRIVER = """
import functools, sys
from pathlib import Path

import ray_helpers
from itbench.runner.benchmark import RunRequest
from itbench.runner.executors.ray_executor import RayExecutor
from itbench.runner.run import execute_plan, plan_trials
from itbench.runner.trial import RunContext

address, root = sys.argv[1:]
out = Path(root) / "run"
out.mkdir()
request = RunRequest(domain="raytoy", output_dir=out, domain_options={"weight": 1})
session = ray_helpers.SESSION_DOMAIN.open_run(request)
plan = plan_trials(ray_helpers.scenarios(Path(root) / "suite", ["ok-1", "ok-2"]), 1, out)
ctx = RunContext(
    ray_helpers.SESSION_DOMAIN,
    ray_helpers.session_agent(None, session),
    "session-agent",
    None,
    30.0,
    session=session,
    build_agent=functools.partial(ray_helpers.session_agent, None),
)
execute_plan(plan, ctx, out, 2, executor=RayExecutor(address=address, request=request))
"""


def test_ray_workers_build_the_agent_with_the_session_they_open(cluster, tmp_path):
    proc = _drive(AGENT_DRIVER, cluster, str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    for scenario in ("ok-1", "ok-2"):
        trial = tmp_path / "run" / scenario / "1"
        assert _evaluation(tmp_path / "run", scenario)["scores"]["correct"] == 1.0
        # the agent that ran was built from the worker's session, not shipped from the driver
        assert (trial / "built_on.txt").read_text() == "worker", scenario


def test_ray_is_imported_only_when_chosen(toy_env, tmp_path):
    probe = (
        "import sys\n"
        "from itbench.cli.main import run\n"
        "sys.argv = ['itbench', 'toy', 'run', '--output', sys.argv[1], '--no-progress']\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "assert 'ray' not in sys.modules, 'ray was imported by a local run'\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "run")],
        env=toy_env,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr


KUBERAY = REPO / "deploy" / "kuberay"


def _documents(name: str) -> list[dict]:
    import yaml

    return [d for d in yaml.safe_load_all((KUBERAY / name).read_text()) if d is not None]


def _pod_specs(cluster_spec: dict) -> list[dict]:
    groups = [cluster_spec["headGroupSpec"], *cluster_spec["workerGroupSpecs"]]
    return [group["template"]["spec"] for group in groups]


@pytest.mark.parametrize("name", ["raycluster.yaml", "rayjob.yaml"])
def test_kuberay_manifests_mount_the_shared_run_volume_everywhere(name):
    (document,) = _documents(name)
    assert document["apiVersion"] == "ray.io/v1"
    spec = document["spec"]
    cluster_spec = spec["rayClusterSpec"] if document["kind"] == "RayJob" else spec
    assert document["kind"] in ("RayJob", "RayCluster")
    # the head only drives: no trial may be scheduled there
    assert cluster_spec["headGroupSpec"]["rayStartParams"]["num-cpus"] == "0"
    (claim,) = _documents("pvc.yaml")
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"]
    for pod in _pod_specs(cluster_spec):
        volumes = {v["name"]: v for v in pod["volumes"]}
        assert volumes["runs"]["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
        for container in pod["containers"]:
            assert {"name": "runs", "mountPath": "/runs"} in container["volumeMounts"]


def test_the_rayjob_entrypoint_is_a_valid_ray_run_into_the_shared_volume():
    import shlex

    import click

    from itbench.cli.main import cli

    (document,) = _documents("rayjob.yaml")
    words = shlex.split(document["spec"]["entrypoint"])
    assert words[0] == "itbench"
    context = click.Context(cli, info_name="itbench")
    group = cli.get_command(context, words[1])
    assert group is not None, f"no domain {words[1]!r}"
    command = group.get_command(click.Context(group, parent=context), words[2])
    assert command is not None and words[2] == "run"
    values, extra, _ = command.make_parser(click.Context(command)).parse_args(words[3:])
    assert not extra
    assert values["executor"] == "ray"
    assert "ray_address" not in values  # the driver runs on the head, where RAY_ADDRESS is set
    assert values["output_dir"].startswith("/runs/")


def test_ray_address_without_the_ray_executor_is_a_usage_error(toy_env, tmp_path):
    proc = run_cli(
        ["toy", "run", "--output", str(tmp_path), "--ray-address", "127.0.0.1:1"], env=toy_env
    )
    assert proc.returncode == 2
    assert "--ray-address needs --executor ray" in proc.stderr


def test_without_ray_installed_the_ray_executor_is_a_tool_error_naming_the_extra(toy_env, tmp_path):
    # a `ray` package that cannot be imported stands in for an environment without the extra
    shadow = tmp_path / "shadow" / "ray"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named ray (simulated)')\n")
    toy_env["PYTHONPATH"] = os.pathsep.join([str(shadow.parent), toy_env["PYTHONPATH"]])
    out = tmp_path / "run"
    proc = run_cli(["toy", "run", "--output", str(out), "--executor", "ray"], env=toy_env)
    assert proc.returncode == 3, proc.stderr
    assert "pip install 'itbench[ray]'" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not list(out.glob("*/*/evaluation.json")), "no trial may run"
