"""The warm module interpreter of a sandboxed play (``ciso/engines/ansible/warm_modules.py``): each
module run is a child forked from one process that imported ``ansible.module_utils`` once, and it
behaves as the fresh interpreter it stands for: what a module sees and reports is the same through
both paths, nothing one run changes reaches the next, a zip whose files differ from the preloaded
ones gets none of them, and the rhel9 verdicts are the same through both paths."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from functools import partial
from pathlib import Path

import ansible.module_utils.parsing.convert_bool
import pytest

import ciso.evaluation.rhel9 as rhel9
from ciso.engines import ansible as engine
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.format import load_scenario_dir
from tests._support.ciso import needs_sandbox
from tests._support.cli import REPO

FIXTURE = Path(__file__).parent / "fixtures" / "warm-modules"
SUITE = REPO / "ciso" / "suite" / "rhel9"
PLAYBOOKS = REPO / "playbooks"


def _host(tmp_path: Path, name: str) -> Path:
    tree = tmp_path / f"host-{name}"
    (tree / "etc").mkdir(parents=True)
    (tree / "etc" / "motd").write_text("hello\n")
    return tree


def _play(
    tmp_path: Path, name: str, playbook: str, warm: bool, module_utils: bool = False
) -> tuple[dict, list[str]]:
    """Run ``playbook`` of the fixture with warm or fresh module interpreters: its collected data
    and the server's trace lines (without their pids)."""
    out = tmp_path / name
    shutil.copytree(FIXTURE, out)
    if module_utils:  # the installed convert_bool with one line more: the zip carries this one
        own = out / "module_utils" / "parsing"
        own.mkdir(parents=True)
        (out / "module_utils" / "__init__.py").write_text("")
        (own / "__init__.py").write_text("")
        installed = Path(ansible.module_utils.parsing.convert_bool.__file__).read_text()
        (own / "convert_bool.py").write_text(installed + "\nITBENCH_OVERRIDE = True\n")
    trace = out / "warm.trace"
    result = engine.run_playbook(
        out / playbook,
        out_dir=out,
        host_tree=_host(tmp_path, name),
        warm_modules=warm,
        warm_trace=str(trace),
    )
    assert result.ok, result.summary()
    lines = trace.read_text().splitlines() if trace.exists() else []
    return json.loads((out / "collected_data.json").read_text()), [
        line.split(" ", 1)[1] for line in lines
    ]


@needs_sandbox
@pytest.mark.slow
def test_module_runs_are_warm_isolated_and_see_what_a_fresh_interpreter_sees(
    tmp_path: Path,
) -> None:
    warm, trace = _play(tmp_path, "warm", "playbook.yml", warm=True)
    cold, cold_trace = _play(tmp_path, "cold", "playbook.yml", warm=False)
    # five module runs through the server (three probes, the copy task's stat and copy), each
    # handed the preloaded modules; ``crash`` is an old-style module (a script and an arguments
    # file): the client execs a fresh interpreter for it without asking the server
    runs = [line for line in trace if line.startswith("run ")]
    assert runs == ["run warm []"] * 5, trace
    assert sum(line.startswith("hand back all") for line in trace) == 5, trace
    assert cold_trace == []  # no server at all on the fresh path
    for task in ("first", "second", "third"):
        # the first probe marked basic, a converters module, os.environ and builtins: the later
        # runs see none of it
        assert warm[task]["seen"] == {
            "basic_mark": None,
            "converters_mark": None,
            "env_mark": None,
            "task_env": "from-task" if task == "second" else None,
            "builtins_mark": None,
        }, task
        for field in sorted(set(warm[task]) | set(cold[task])):
            if field == "cwd":  # each play's own output folder
                assert warm[task][field] == str(tmp_path / "warm")
                assert cold[task][field] == str(tmp_path / "cold")
                continue
            assert warm[task][field] == cold[task][field], (task, field)
    # a module that fails through fail_json, and one that dies with status 3 and no JSON
    assert warm["third"]["failed"] is True and warm["third"]["msg"] == "asked to fail"
    for side in (warm, cold):
        assert side["crashed"]["rc"] == 3, side["crashed"]
        assert "crashing" in side["crashed"]["module_stderr"]
    assert warm["crashed"]["msg"] == cold["crashed"]["msg"]


@needs_sandbox
@pytest.mark.slow
def test_a_zip_whose_module_utils_differ_gets_none_of_the_preloaded_modules(
    tmp_path: Path,
) -> None:
    warm, trace = _play(tmp_path, "warm", "override.yml", warm=True, module_utils=True)
    cold, _ = _play(tmp_path, "cold", "override.yml", warm=False, module_utils=True)
    assert cold["overridden"] is True
    assert warm["overridden"] is True
    assert trace[0] == "run warm []" and trace[1].startswith("hand back none"), trace


def test_the_client_without_a_server_execs_a_fresh_interpreter(tmp_path: Path) -> None:
    client = Path(engine.__file__).with_name("warm_python.py")
    script = "import sys; print(sys.argv, __file__); sys.exit(4)"
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(client)],
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert (proc.returncode, proc.stdout) == (4, "[''] <stdin>\n"), proc.stderr


def _answer(folder: Path, playbook: str, policy: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "playbook.yml").write_text(playbook)
    (folder / "policy.rego").write_text(policy)
    return folder


#: A naive answer: facts and a listing of /etc instead of the control's files, and a policy that
#: flags any Linux host (so the compliant one too: ITBench pass, strict fail)
NAIVE_PLAYBOOK = """\
- hosts: rhel9_servers
  gather_facts: false
  tasks:
    - ansible.builtin.setup: {gather_subset: [min]}
      register: facts
    - ansible.builtin.command: ls -la /etc
      register: listing
      changed_when: false
    - ansible.builtin.copy:
        content: "{{ {'system': facts.ansible_facts.ansible_system,
                      'listing': listing.stdout} | to_json }}"
        dest: collected_data.json
      delegate_to: localhost
"""
NAIVE_POLICY = """\
package check

import rego.v1

default result := true

result := false if input.system == "Linux"
"""


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("scenario", sorted(p.name for p in SUITE.iterdir() if p.is_dir()))
def test_rhel9_verdicts_are_the_same_through_both_paths(
    tmp_path: Path, scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (loaded,) = load_scenario_dir(SUITE / scenario)
    reference = PLAYBOOKS / scenario
    answers = {
        "oracle": (
            (reference / "playbook.yml").read_text(),
            (reference / "policy.rego").read_text(),
            {"itbench_pass": 1, "strict_pass": 1},
        ),
        "naive": (NAIVE_PLAYBOOK, NAIVE_POLICY, {"itbench_pass": 1, "strict_pass": 0}),
    }
    for answer, (playbook, policy, expected) in answers.items():
        verdicts = {}
        for warm in (True, False):
            monkeypatch.setattr(
                rhel9, "run_playbook", partial(engine.run_playbook, warm_modules=warm)
            )
            folder = _answer(tmp_path / f"{answer}-{warm}", playbook, policy)
            result = evaluate_trial(loaded, folder)
            assert result.scores == expected, (answer, warm, result.details.get("failure"))
            verdicts[warm] = {k: v["result"] for k, v in result.details["environments"].items()}
        assert verdicts[True] == verdicts[False], answer


SERVER = Path(engine.__file__).with_name("warm_modules.py")


def test_the_server_exits_with_the_play_status(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(SERVER), str(tmp_path / "s.sock"), "--", "sh", "-c", "exit 7"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 7, proc.stderr


def test_without_its_socket_the_server_still_runs_the_play(tmp_path: Path) -> None:
    socket_path = tmp_path / "missing-folder" / "s.sock"
    play = "import sys; print('played'); sys.exit(5)"
    proc = subprocess.run(
        [sys.executable, str(SERVER), str(socket_path), "--", sys.executable, "-c", play],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (proc.returncode, proc.stdout) == (5, "played\n"), proc.stderr
    assert "warm modules: no socket" in proc.stderr


@needs_sandbox
@pytest.mark.slow
def test_an_async_task_left_running_ends_with_the_play(tmp_path: Path) -> None:
    """A fire-and-forget task's module run is a child of the server: when the play ends it ends
    too, as every process of the sandbox does, instead of holding the play open."""
    playbook = tmp_path / "async.yml"
    playbook.write_text(
        "- hosts: rhel9_servers\n"
        "  gather_facts: false\n"
        "  tasks:\n"
        "    - ansible.builtin.command: sleep 900\n"
        "      async: 1000\n"
        "      poll: 0\n"
    )
    trace = tmp_path / "out" / "warm.trace"
    result = engine.run_playbook(
        playbook,
        out_dir=tmp_path / "out",
        host_tree=_host(tmp_path, "async"),
        timeout_s=600,
        warm_trace=str(trace),
    )
    assert result.ok, result.summary()
    assert result.sandbox.duration_s < 300
    # the async wrapper gets a fresh interpreter (it is started with arguments); the module it
    # starts, a script file, ran warm: the server's child that the play's end killed
    runs = [line for line in trace.read_text().splitlines() if " run " in line]
    assert len(runs) == 1 and runs[0].endswith("AnsiballZ_command.py']"), runs


def test_the_client_and_the_server_agree_on_their_shared_settings() -> None:
    """The client runs with ``-IS`` and imports nothing of the project, so it keeps its own copy
    of the socket path and of the start-up variables that send a run to a fresh interpreter; a
    copy that drifts would quietly make every module run cold."""
    import importlib.util

    def load(name: str):  # type: ignore[no-untyped-def]  # a module loaded from its file
        spec = importlib.util.spec_from_file_location(
            name, Path(engine.__file__).parent / f"{name}.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    client, server = load("warm_python"), load("warm_modules")
    assert client.SOCKET == engine.WARM_SOCKET
    assert client.STARTUP_PREFIXES == server.STARTUP_PREFIXES
    assert client.STARTUP_NAMES == server.STARTUP_NAMES
