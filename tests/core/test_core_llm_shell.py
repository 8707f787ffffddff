"""The llm agent's sandboxed ``shell`` tool (``--llm-shell``) and ``--protocol itbench-aa``, driven
through real litellm over real HTTP against a scripted local server, the commands run in real
bubblewrap."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from itbench.agents.shell_tool import clip
from itbench.sandbox.availability import bwrap_path
from tests._support.cli import REPO, run_cli
from tests._support.fake_openai import ScriptedServer, Step, chat_reply

SECRET = "sk-itbench-test-0123456789abcdef"

try:
    bwrap_path()
    HAVE_BWRAP = True
except Exception:  # noqa: BLE001 - any reason bubblewrap cannot run here
    HAVE_BWRAP = False
needs_bwrap = pytest.mark.skipif(not HAVE_BWRAP, reason="bubblewrap cannot run on this machine")


def _shell(command: str) -> Step:
    arguments = json.dumps({"command": command})
    return Step(chat_reply(tool_calls=[{"name": "shell", "arguments": arguments}]))


@pytest.fixture
def llm_env(toy_env):
    toy_env["OPENAI_API_KEY"] = SECRET
    toy_env["TOY_SCENARIOS"] = "1"
    return toy_env


def _run(env, server, out: Path, *extra: str, domain: str = "toy", agent: bool = True):
    args = [domain, "run"]
    if agent:
        args += ["--agent", "llm"]
    return run_cli(
        [*args, "--model", "openai/scripted", "--api-base", server.api_base,
         "--output", str(out), "--format", "json", "--no-progress", *extra],
        env=env,
        timeout=180,
    )  # fmt: skip


def _events(trial: Path) -> list[dict]:
    return [json.loads(line) for line in (trial / "transcript.jsonl").read_text().splitlines()]


def _tool_messages(request: dict) -> list[str]:
    return [m["content"] for m in request["messages"] if m.get("role") == "tool"]


@needs_bwrap
def test_shell_only_answers_through_the_sandboxed_shell(llm_env, tmp_path):
    out = tmp_path / "o"
    probe = Path("/usr/itbench-llm-shell-probe")
    truth = Path(llm_env["TOY_SUITE_DIR"]) / "add-1" / "truth.json"
    steps = [
        _shell("cat TASK.md; echo '{\"sum\": 11}' > answer.json; echo wrote"),
        # what the sandbox hides and refuses: the scenario's ground truth beside its inputs, a
        # write outside the workspace
        _shell(f"cat {truth} >/dev/null 2>&1; echo cat=$?; touch {probe} 2>&1; echo touch=$?"),
        Step(chat_reply("done")),
    ]
    with ScriptedServer(steps) as server:
        proc = _run(llm_env, server, out, "--llm-shell", "only", "--reflection-rounds", "0")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["raw_results"][0]["scores"] == {"correct": 1.0}
    # the shell is the model's only tool
    assert [t["function"]["name"] for t in server.requests[0]["tools"]] == ["shell"]
    first = _tool_messages(server.requests[1])[0]
    assert first.startswith("exit code: 0") and "wrote" in first
    assert "answer.json" in first  # TASK.md's text (the toy task names its answer file)
    second = _tool_messages(server.requests[2])[1]
    stdout = second.split("--- stdout ---\n", 1)[1]
    assert stdout.splitlines()[0] == "cat=1", second
    assert "touch=1" in stdout, second
    assert truth.is_file()  # it was there to read, outside the sandbox
    assert not probe.exists()
    trial = out / "add-1" / "1"
    shells = [e for e in _events(trial) if e["event"] == "shell"]
    assert [e["exit_code"] for e in shells] == [0, 0]
    assert shells[0]["command"].startswith("cat TASK.md")
    # tool calls are counted and travel to results.json with the turns
    usage = doc["raw_results"][0]["usage"]
    assert usage["tool_calls"] == 2 and usage["llm_calls"] == 3


@needs_bwrap
def test_shell_on_keeps_the_other_tools_and_obeys_agent_network(llm_env, tmp_path):
    steps = [
        _shell("tail -n +3 /proc/net/dev | cut -d: -f1"),
        Step(
            chat_reply(
                tool_calls=[
                    {
                        "name": "write_file",
                        "arguments": json.dumps({"path": "answer.json", "content": '{"sum": 11}'}),
                    }
                ]
            )
        ),  # fmt: skip
        Step(chat_reply("done")),
    ]
    with ScriptedServer(steps) as server:
        proc = _run(
            llm_env,
            server,
            tmp_path / "o",
            "--llm-shell",
            "on",
            "--agent-network",
            "none",
            "--reflection-rounds",
            "0",
        )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["raw_results"][0]["scores"] == {"correct": 1.0}
    names = {t["function"]["name"] for t in server.requests[0]["tools"]}
    assert {"shell", "write_file", "read_file", "list_files"} <= names
    reply = _tool_messages(server.requests[1])[0]
    interfaces = reply.split("--- stdout ---\n", 1)[1].split("--- stderr ---")[0].split()
    assert interfaces == ["lo"], reply  # a private network namespace: loopback only


def test_clip_keeps_head_and_tail():
    assert clip("abc", 10) == "abc"
    text = "H" * 50 + "M" * 100 + "T" * 50
    clipped = clip(text, 100)
    assert clipped.startswith("H" * 50) and clipped.endswith("T" * 50)
    assert "(100 characters elided)" in clipped and "M" not in clipped


def test_shell_for_another_agent_is_a_usage_error(llm_env, tmp_path):
    proc = run_cli(["toy", "run", "--agent", "oracle", "--llm-shell", "on"], env=llm_env)
    assert proc.returncode == 2
    assert "--llm-shell on gives the llm agent a shell; the agent is oracle" in proc.stderr


def test_protocol_unknown_to_the_domain_is_a_usage_error(llm_env, tmp_path):
    with ScriptedServer([]) as server:
        proc = _run(llm_env, server, tmp_path / "o", "--protocol", "itbench-aa", agent=False)
    assert proc.returncode == 2
    assert "--protocol itbench-aa: the toy domain defines no metric for it" in proc.stderr
    assert server.requests == []


def test_protocol_refuses_another_agent(tmp_path):
    env = {"OPENAI_API_KEY": SECRET, "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    for extra in (["--agent", "baseline"], ["--agent-cmd", "true"]):
        proc = run_cli(["sre", "run", "--protocol", "itbench-aa", *extra], env=env)
        assert proc.returncode == 2, extra
        assert "--protocol itbench-aa runs the llm agent" in proc.stderr, extra


@needs_bwrap
def test_itbench_aa_protocol_on_sre(tmp_path):
    """Shell only, 100 turns, the AA headline as the primary metric; --trials given wins over
    the protocol's three."""
    sys.path.insert(0, str(REPO))
    from sre.generator.snapshot import write_incident

    scenarios = tmp_path / "incidents"
    write_incident(scenarios / "Scenario-1", "bad-command", 5, target="email")
    answer = {
        "entities": [
            {"name": "otel-demo/Deployment/email", "contributing_factor": True,
             "reasoning": "bad command", "evidence": "spec change"}
        ],
        "propagations": [],
        "alerts_explained": [],
    }  # fmt: skip
    write = f"cat > agent_output.json <<'EOF'\n{json.dumps(answer)}\nEOF"
    env = {"OPENAI_API_KEY": SECRET, "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    with ScriptedServer([_shell(write), Step(chat_reply("done"))]) as server:
        proc = _run(
            env,
            server,
            tmp_path / "run",
            "--scenarios",
            str(scenarios),
            "--protocol",
            "itbench-aa",
            "--trials",
            "1",
            "--reflection-rounds",
            "0",
            domain="sre",
            agent=False,
        )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["config"]["protocol"] == "itbench-aa"
    assert doc["config"]["primary_metric"] == "precision_at_full_recall"
    assert doc["config"]["agent"] == "llm" and doc["config"]["trials"] == 1
    (entry,) = doc["raw_results"]
    assert entry["scores"]["precision_at_full_recall"] == 1.0, entry
    assert [t["function"]["name"] for t in server.requests[0]["tools"]] == ["shell"]
    trial = next(p for p in (tmp_path / "run").glob("*/1") if not p.parent.name.startswith("."))
    (task,) = [e for e in _events(trial) if e["event"] == "task"]
    assert task["max_turns"] == 100 and task["tools"] == ["shell"]
