"""Agents never reach ground truth: in-process agents get a public scenario type, and external
agents (``--agent-cmd``) run in bubblewrap. Real bwrap, real ``itbench finops run``.

The secrets are placed where the sandbox would otherwise show them: under ``/var/tmp`` (bound
read-only into every sandbox), not under ``/tmp`` (private in the sandbox anyway), so the hiding of
the run directory, the scenario folder and the cache is what is tested.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from itbench.models import AgentResult, PublicScenario, Scenario
from tests._support.cli import REPO, run_cli
from tests._support.sandbox import needs_sandbox

#: A search of the whole visible file system for the marker. Only files changed since the marker
#: was made can hold it (it is random and new), so ``find -newerct`` keeps the search exhaustive
#: while skipping gigabytes of system files. The marker arrives by environment variable: in the
#: command it would land in the transcript, which lies in the workspace.
SEARCH = (
    "find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o -type f "
    '-newerct "@$ITB_SINCE" -print0 2>/dev/null '
    '| xargs -0 -r grep -lF -e "$ITB_{which}" 2>/dev/null > {which}.found; '
)
SEARCH_AGENT = (
    SEARCH.format(which="MARKER")
    + SEARCH.format(which="CANARY")
    + "echo '{\"resource\": []}' > agent_output.json"
)


@pytest.fixture
def visible_base() -> Iterator[Path]:
    """A directory the agent sandbox shows (a system folder, not the hidden or unknown top-level
    ones, not its private /tmp and /var/tmp): each hiding mechanism is tested on its own."""
    bases = [b for b in (Path("/var/cache"), Path("/opt")) if b.is_dir() and os.access(b, os.W_OK)]
    if not bases:
        pytest.skip("neither /var/cache nor /opt is writable: the secrets need a place it shows")
    path = Path(tempfile.mkdtemp(prefix="itbench-isolation-", dir=bases[0]))
    # readable by everyone, as a system folder is: run as root, itbench runs the agent as
    # nobody, whom mkdtemp's 0700 would shut out (the search would then prove nothing)
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@dataclass(frozen=True)
class Secrets:
    base: Path
    scenarios: Path
    cache: Path
    output: Path
    marker: str
    canary: str
    since: int
    #: host files that hold the marker, one per place the agent must not see
    holders: Mapping[str, Path]


def _generate(folder: Path) -> None:
    proc = run_cli(
        ["finops", "generate", "--n", "1", "--seed", "5", "--difficulty", "easy"]
        + ["--out", str(folder)]
    )
    assert proc.returncode == 0, proc.stderr


@pytest.fixture
def secrets(visible_base: Path) -> Secrets:
    since = int(time.time()) - 1
    marker = f"gt-marker-{uuid.uuid4().hex}"
    canary = f"public-canary-{uuid.uuid4().hex}"
    scenarios = visible_base / "scenarios"
    _generate(scenarios)
    truth = scenarios / "Scenario-1" / "ground_truth.yaml"
    truth.write_text(yaml.safe_dump({"resource": [{"name": marker, "type": "Application"}]}))
    cache = visible_base / "cache"
    (cache / "finops").mkdir(parents=True)
    cached = cache / "finops" / "ground_truth.yaml"
    cached.write_text(f"resource: [{{name: {marker}, type: Application}}]\n")
    output = visible_base / "out"
    other = output / "Scenario-2" / "1" / "agent_output.json"  # another trial's files
    other.parent.mkdir(parents=True)
    other.write_text(json.dumps({"resource": [{"name": marker, "type": "Application"}]}))
    public = visible_base / "public" / "canary.txt"  # visible: proves the search searches
    public.parent.mkdir()
    public.write_text(canary)
    holders = {"scenario ground truth": truth, "itbench cache": cached, "other trial": other}
    return Secrets(visible_base, scenarios, cache, output, marker, canary, since, holders)


def _env(secrets: Secrets, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        ITBENCH_CACHE_DIR=str(secrets.cache),
        ITB_MARKER=secrets.marker,
        ITB_CANARY=secrets.canary,
        ITB_SINCE=str(secrets.since),
        **extra,
    )
    return env


def _run_agent(
    secrets: Secrets, command: str, *flags: str, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], Path]:
    proc = run_cli(
        ["finops", "run", "--scenarios", str(secrets.scenarios), "--agent-cmd", command]
        + ["--output", str(secrets.output), "--format", "json", "--no-progress", *flags],
        env=env if env is not None else _env(secrets),
        timeout=300,
    )
    return proc, secrets.output / "Scenario-1" / "1"


def _found(workspace: Path, which: str) -> list[str]:
    return (workspace / f"{which}.found").read_text().split()


# --- external agents: the bubblewrap sandbox -------------------------------------------------


@needs_sandbox
def test_sandboxed_search_of_the_whole_file_system_finds_no_ground_truth(secrets):
    flags = ["--agent-env", "ITB_MARKER", "--agent-env", "ITB_CANARY", "--agent-env", "ITB_SINCE"]
    proc, workspace = _run_agent(secrets, SEARCH_AGENT, *flags)
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    assert "error" not in entry, entry
    assert _found(workspace, "CANARY") == [str(secrets.base / "public" / "canary.txt")]
    assert _found(workspace, "MARKER") == []


@needs_sandbox
def test_the_same_search_unsandboxed_finds_every_copy_of_the_ground_truth(secrets):
    """The control: the search above can fail. Unsandboxed it finds the marker in each place."""
    flags = ["--agent-env", "ITB_MARKER", "--agent-env", "ITB_CANARY", "--agent-env", "ITB_SINCE"]
    proc, workspace = _run_agent(secrets, SEARCH_AGENT, *flags, "--agent-sandbox", "off")
    assert proc.returncode == 0, proc.stderr
    assert "UNSANDBOXED" in proc.stderr
    found = set(_found(workspace, "MARKER"))
    for place, holder in secrets.holders.items():
        assert str(holder) in found, f"{place}: {holder} not found unsandboxed"


@needs_sandbox
def test_writes_outside_the_workspace_fail_and_reach_nothing(secrets, tmp_path):
    host_tmp = tmp_path / "from-agent"  # the host's /tmp
    targets = {
        "home parent": "$HOME/../escape",
        "host tmp": str(host_tmp),
        "repository": str(REPO / f"escape-{uuid.uuid4().hex}"),
        "other trial": str(secrets.output / "Scenario-2" / "1" / "escape"),
        "run directory": str(secrets.output / "escape"),
        "scenario folder": str(secrets.scenarios / "Scenario-1" / "escape"),
        "cache": str(secrets.cache / "escape"),
    }
    lines = [
        f'if (mkdir -p "$(dirname "{path}")" && echo x > "{path}") 2>/dev/null; '
        f"then echo '{name}: written' >> writes.txt; else echo '{name}: denied' >> writes.txt; fi"
        for name, path in targets.items()
    ]
    command = (
        "; ".join(lines) + "; echo ok > mine.txt; echo '{\"resource\": []}' > agent_output.json"
    )
    proc, workspace = _run_agent(secrets, command)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "mine.txt").read_text() == "ok\n"
    outcome = dict(line.split(": ") for line in (workspace / "writes.txt").read_text().splitlines())
    # /tmp is the agent's private scratch space: writing there works but never reaches the host.
    # A checkout under /tmp (CI may clone there) is behind that private /tmp too.
    scratch = {"host tmp"} | ({"repository"} if Path("/tmp") in REPO.resolve().parents else set())
    assert {k: v for k, v in outcome.items() if k not in scratch} == {
        name: "denied" for name in targets if name not in scratch
    }
    assert not host_tmp.exists()
    for name, path in targets.items():
        if "$HOME" not in path:
            assert not Path(path).exists(), f"{name}: {path} was written on the host"


@needs_sandbox
def test_inputs_in_the_workspace_are_read_only(secrets):
    command = (
        "(echo x >> data.csv) 2>/dev/null && echo appended > result.txt "
        "|| echo denied > result.txt; echo '{\"resource\": []}' > agent_output.json"
    )
    proc, workspace = _run_agent(secrets, command)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "result.txt").read_text() == "denied\n"
    source = secrets.scenarios / "Scenario-1" / "data.csv"
    assert (workspace / "data.csv").read_bytes() == source.read_bytes()


@needs_sandbox
def test_only_allowlisted_and_named_variables_reach_the_agent(secrets):
    env = _env(
        secrets,
        ITB_PASSED="passed-value",
        ITB_NOT_PASSED="must-not-pass",
        OPENAI_API_KEY="sk-never-passed-implicitly-123",
    )
    command = "env > env.txt; echo '{\"resource\": []}' > agent_output.json"
    proc, workspace = _run_agent(secrets, command, "--agent-env", "ITB_PASSED", env=env)
    assert proc.returncode == 0, proc.stderr
    seen = dict(
        line.split("=", 1)
        for line in (workspace / "env.txt").read_text().splitlines()
        if "=" in line
    )
    assert seen["ITB_PASSED"] == "passed-value"
    assert "ITB_NOT_PASSED" not in seen
    assert "OPENAI_API_KEY" not in seen
    assert "ITBENCH_CACHE_DIR" not in seen
    assert seen["HOME"] == "/home/itbench-agent"
    assert seen["ITBENCH_WORKSPACE"] == str(workspace.resolve())
    assert "ITBENCH_TASK" in seen


@needs_sandbox
def test_agent_home_is_the_users_chosen_directory_read_write(secrets, visible_base):
    home = visible_base / "agent-home"
    home.mkdir()
    (home / ".agentrc").write_text("logged-in\n")
    command = (
        'cat "$HOME/.agentrc" > rc.txt; echo "$HOME" > home.txt; echo state > "$HOME/state"; '
        "echo '{\"resource\": []}' > agent_output.json"
    )
    proc, workspace = _run_agent(secrets, command, "--agent-home", str(home))
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "rc.txt").read_text() == "logged-in\n"
    assert (workspace / "home.txt").read_text().strip() == str(home.resolve())
    assert (home / "state").read_text() == "state\n"


class _Listener:
    """A TCP server on the host's 127.0.0.1 that counts connections."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@needs_sandbox
@pytest.mark.parametrize(("network", "reached"), [("allow", True), ("none", False)])
def test_agent_network_option_decides_whether_host_loopback_is_reachable(secrets, network, reached):
    listener = _Listener()
    try:
        command = (
            '(exec 3<>"/dev/tcp/127.0.0.1/$ITB_PORT") 2>/dev/null && echo connected > net.txt '
            "|| echo refused > net.txt; echo '{\"resource\": []}' > agent_output.json"
        )
        env = _env(secrets, ITB_PORT=str(listener.port))
        flags = ["--agent-env", "ITB_PORT", "--agent-network", network]
        proc, workspace = _run_agent(secrets, command, *flags, env=env)
    finally:
        listener.close()
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "net.txt").read_text().strip() == ("connected" if reached else "refused")
    assert (listener.connections > 0) is reached


@needs_sandbox
def test_bad_agent_options_are_usage_errors_naming_the_option(secrets, tmp_path):
    env = _env(secrets)
    env.pop("ITB_UNSET", None)
    proc, _ = _run_agent(secrets, "true", "--agent-env", "ITB_UNSET", env=env)
    assert proc.returncode == 2, proc.stderr
    assert "--agent-env ITB_UNSET" in proc.stderr and "Traceback" not in proc.stderr
    proc, _ = _run_agent(secrets, "true", "--agent-home", str(tmp_path / "missing"))
    assert proc.returncode == 2 and "--agent-home" in proc.stderr


def test_without_bubblewrap_the_command_agent_refuses_with_exit_3(tmp_path):
    folder = tmp_path / "scenarios"
    _generate(folder)
    env = dict(os.environ, PATH=str(tmp_path / "empty-path"))
    proc = run_cli(
        ["finops", "run", "--scenarios", str(folder), "--agent-cmd", "true"]
        + ["--output", str(tmp_path / "out")],
        env=env,
    )
    assert proc.returncode == 3, proc.stderr
    assert "bubblewrap (bwrap) is not installed" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "out" / "Scenario-1").exists(), "a trial ran without a sandbox"


# --- in-process agents: the public scenario type ---------------------------------------------


def _reachable_values(root: object) -> Iterator[object]:
    """Every object reachable from ``root`` through attributes, mapping keys and values and
    sequence items (not into classes, modules or functions: those are code, not the task)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type | type(sys) | type(_reachable_values)):
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, str | bytes | int | float | bool | Path) or obj is None:
            continue
        if isinstance(obj, Mapping):
            stack += [*obj.keys(), *obj.values()]
        elif isinstance(obj, list | tuple | set | frozenset):
            stack += list(obj)
        for name in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, name):
                stack.append(getattr(obj, name))
        if hasattr(obj, "__dict__"):
            stack += list(vars(obj).values())
        for private in ("__pydantic_extra__", "__pydantic_private__"):
            value = getattr(obj, private, None)
            if value:
                stack.append(value)


@dataclass
class _CapturingAgent:
    """A plugin agent: keeps the Task it is given, and declares itself a reference replayer."""

    name: str = "capture"
    task: object = None
    handed_reference: bool = False

    def solve(self, task) -> AgentResult:
        self.task = task
        return AgentResult()

    def solve_with_reference(self, task, scenario) -> AgentResult:
        self.handed_reference = True
        self.task = task
        return AgentResult()


def _finops_scenario(tmp_path: Path, marker: str) -> Scenario:
    from finops.plugin import load_scenarios

    folder = tmp_path / "scenarios"
    _generate(folder)
    truth = folder / "Scenario-1" / "ground_truth.yaml"
    truth.write_text(yaml.safe_dump({"resource": [{"name": marker, "type": "Application"}]}))
    (scenario,) = load_scenarios(str(folder))
    return scenario


def test_a_plugin_agents_task_reaches_no_ground_truth(tmp_path):
    from finops.plugin import domain
    from itbench.runner.trial import RunContext, TrialSpec, execute_trial

    marker = f"gt-marker-{uuid.uuid4().hex}"
    scenario = _finops_scenario(tmp_path, marker)
    assert scenario.ground_truth[0].name == marker  # the harness's record does hold it
    agent = _CapturingAgent()
    spec = TrialSpec(scenario, 1, tmp_path / "out" / scenario.id / "1")
    execute_trial(spec, RunContext(domain, agent, "capture", None, 60.0))
    task = agent.task
    assert task is not None and not agent.handed_reference
    assert type(task.scenario) is PublicScenario
    assert not hasattr(task.scenario, "ground_truth") and not hasattr(task.scenario, "reference")
    reachable = list(_reachable_values(task))
    assert any(isinstance(v, PublicScenario) for v in reachable)  # the walk does go inside
    assert not any(isinstance(v, Scenario) for v in reachable)
    assert scenario.ground_truth not in reachable
    leaks = [v for v in reachable if isinstance(v, str) and marker in v]
    assert leaks == []
    # no path in the view leads to the scenario folder, where ground_truth.yaml lies
    paths = [str(v) for v in reachable if isinstance(v, Path | str)]
    assert not any(str(tmp_path / "scenarios") in p for p in paths)


def test_public_scenario_refuses_ground_truth_fields():
    with pytest.raises(ValueError, match="ground_truth"):
        PublicScenario(id="x", domain="d", title="t", ground_truth={"a": 1}, **{"class": "c"})


def test_the_oracle_alone_is_handed_the_reference_and_scores_full(tmp_path):
    folder = tmp_path / "scenarios"
    _generate(folder)
    proc = run_cli(
        ["finops", "run", "--scenarios", str(folder), "--agent", "oracle"]
        + ["--output", str(tmp_path / "o"), "--format", "json"]
    )
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    assert entry["scores"]["root_cause_resource"]["calculation"] == 1.0


# --- issue 13: no import cycle between the agent contract and the plugin spec -----------------


@pytest.mark.parametrize("first", ["itbench.plugins.spec", "itbench.agents.base"])
def test_contract_modules_import_first_in_a_fresh_interpreter(first):
    code = (
        f"import {first}, sys\n"
        "import itbench.agents.base as b, itbench.plugins.spec as s\n"
        "assert b.Task is s.Task and b.AgentOptions is s.AgentOptions\n"
        "print(sorted(m for m in sys.modules if m.startswith('itbench.agents')))\n"
    )
    if first == "itbench.plugins.spec":
        code = (
            "import itbench.plugins.spec, sys\n"
            "assert not [m for m in sys.modules if m.startswith('itbench.agents')]\n" + code
        )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert proc.returncode == 0, proc.stderr


def test_spec_module_does_not_import_the_agents_package():
    import ast

    tree = ast.parse((REPO / "itbench" / "plugins" / "spec.py").read_text())
    imported = [
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    ]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.startswith("itbench.agents")]


def test_the_command_sandbox_is_told_every_place_ground_truth_lies(tmp_path, monkeypatch):
    import finops
    from finops.plugin import domain
    from itbench.runner.trial import TrialSpec, hidden_paths

    monkeypatch.setenv("ITBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ITBENCH_STATE_DIR", str(tmp_path / "state"))
    scenario = _finops_scenario(tmp_path, "unused-marker")
    run_dir = tmp_path / "out"
    hidden = hidden_paths(TrialSpec(scenario, 1, run_dir / scenario.id / "1"), domain)
    assert run_dir in hidden  # other trials
    assert tmp_path / "scenarios" / "Scenario-1" in hidden  # ground_truth.yaml's folder
    assert tmp_path / "cache" in hidden
    assert tmp_path / "state" in hidden  # the key that signs the runner's records
    assert Path(finops.__file__).parent in hidden  # the domain's package


# --- issue 26: a hidden folder inside another hidden folder -------------------------------------


@needs_sandbox
@pytest.mark.parametrize("order", ["inner first", "outer first"])
def test_a_hidden_folder_inside_a_hidden_folder_starts_and_stays_hidden(visible_base, order):
    """The built-in suite's scenario folders lie inside the domain package, both hidden: with the
    package installed at a visible path bwrap failed ("Can't remount readonly") before the agent
    started."""
    from itbench.sandbox.agent import AgentConfinement, agent_bwrap_argv, agent_user
    from itbench.sandbox.identity import hand_over

    outer = visible_base / "site-packages" / "domain"
    inner = outer / "scenarios" / "one"
    inner.mkdir(parents=True)
    (inner / "ground_truth.yaml").write_text("secret\n")
    workspace = visible_base / "workspace"
    workspace.mkdir()
    hand_over(workspace, agent_user(AgentConfinement()))  # as the command agent does
    hidden = [inner, outer] if order == "inner first" else [outer, inner]
    argv = agent_bwrap_argv(
        f"ls -A {outer} > listing.txt; cat {inner}/ground_truth.yaml > leaked.txt 2>&1; "
        f"touch {outer}/x 2>/dev/null && echo writable > writes.txt; true",
        workspace=workspace,
        read_only_inputs=(),
        hidden=hidden,
        confinement=AgentConfinement(),
        env={"PATH": "/usr/bin:/bin"},
    )
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "listing.txt").read_text() == ""
    assert "secret" not in (workspace / "leaked.txt").read_text()
    assert not (workspace / "writes.txt").exists()
