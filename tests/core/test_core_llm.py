"""The llm agent driven through real litellm over real HTTP against a scripted local server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._support.cli import run_cli
from tests._support.fake_openai import ScriptedServer, Step, chat_reply

SECRET = "sk-itbench-test-0123456789abcdef"


def _write(sum_value) -> dict:
    args = json.dumps({"path": "answer.json", "content": json.dumps({"sum": sum_value})})
    return chat_reply(tool_calls=[{"name": "write_file", "arguments": args}])


@pytest.fixture
def llm_env(toy_env):
    toy_env["OPENAI_API_KEY"] = SECRET
    toy_env["TOY_SCENARIOS"] = "1"
    return toy_env


def _run(env, server, out: Path, *extra: str):
    return run_cli(
        [
            "toy",
            "run",
            "--agent",
            "llm",
            "--model",
            "openai/scripted",
            "--api-base",
            server.api_base,
            "--output",
            str(out),
            "--format",
            "json",
            "--no-progress",
            *extra,
        ],
        env=env,
        timeout=120,
    )


def _events(out: Path) -> list[dict]:
    path = out / "add-1" / "1" / "transcript.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def _assert_secret_never_written(out: Path) -> None:
    for path in out.rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(errors="replace"), path


def test_tool_call_answer_is_scored_and_usage_recorded(llm_env, tmp_path):
    with ScriptedServer([Step(_write(11)), Step(chat_reply("done"))]) as server:
        proc = _run(llm_env, server, tmp_path / "o")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["raw_results"][0]["scores"] == {"correct": 1.0}
    evaluation = json.loads((tmp_path / "o/add-1/1/evaluation.json").read_text())
    assert evaluation["usage"]["prompt_tokens"] == 200
    assert evaluation["usage"]["completion_tokens"] == 40
    assert evaluation["usage"]["llm_calls"] == 2
    # the model was offered the workspace tools and received the task prompt
    first = server.requests[0]
    assert {t["function"]["name"] for t in first["tools"]} >= {
        "write_file",
        "read_file",
        "list_files",
    }
    assert "answer.json" in first["messages"][1]["content"]
    # the key travelled as a header, and was never written to disk
    assert server.headers[0].get("authorization") == f"Bearer {SECRET}"
    _assert_secret_never_written(tmp_path / "o")


def test_rate_limit_is_retried_with_backoff(llm_env, tmp_path):
    steps = [
        Step({"error": {"message": "slow down", "type": "rate_limit"}}, status=429),
        Step(_write(11)),
        Step(chat_reply("ok")),
    ]
    with ScriptedServer(steps) as server:
        proc = _run(llm_env, server, tmp_path / "r")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["raw_results"][0]["scores"] == {"correct": 1.0}
    retries = [e for e in _events(tmp_path / "r") if e["event"] == "llm_retry"]
    assert len(retries) == 1 and retries[0]["error"] == "RateLimitError"
    assert len(server.requests) == 3


def test_timeout_is_retried(llm_env, tmp_path):
    steps = [Step(_write(11), delay_s=4), Step(_write(11)), Step(chat_reply("ok"))]
    with ScriptedServer(steps) as server:
        proc = _run(llm_env, server, tmp_path / "t", "--llm-timeout", "1")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["raw_results"][0]["scores"] == {"correct": 1.0}
    retries = [e for e in _events(tmp_path / "t") if e["event"] == "llm_retry"]
    assert [r["error"] for r in retries] == ["Timeout"]


def test_malformed_tool_call_is_fed_back_and_corrected(llm_env, tmp_path):
    broken = chat_reply(
        tool_calls=[{"name": "write_file", "arguments": '{"path": "answer.json", "content": '}]
    )
    with ScriptedServer([Step(broken), Step(_write(11)), Step(chat_reply("ok"))]) as server:
        proc = _run(llm_env, server, tmp_path / "m")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["raw_results"][0]["scores"] == {"correct": 1.0}
    tool_messages = [m for m in server.requests[1]["messages"] if m["role"] == "tool"]
    assert "not valid JSON" in tool_messages[0]["content"]


def test_reflection_feeds_validator_diagnostics_back(llm_env, tmp_path):
    steps = [
        Step(_write("eleven")),
        Step(chat_reply("first try")),
        Step(_write(11)),
        Step(chat_reply("fixed")),
    ]
    with ScriptedServer(steps) as server:
        proc = _run(llm_env, server, tmp_path / "f", "--reflection-rounds", "3")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["raw_results"][0]["scores"] == {"correct": 1.0}
    feedback = server.requests[2]["messages"][-1]
    assert feedback["role"] == "user" and "'sum' must be an integer" in feedback["content"]
    rounds = [e for e in _events(tmp_path / "f") if e["event"] == "reflection_round"]
    assert [(r["round"], r["clean"]) for r in rounds] == [(1, False), (2, True)]
    assert rounds[0]["diagnostics"] == ["answer.json: field 'sum' must be an integer"]


def test_reflection_stops_after_the_round_limit(llm_env, tmp_path):
    # two feedback rounds: the first attempt and two fixes, all still wrong
    steps = [Step(_write("x")), Step(chat_reply("a")), Step(_write("y")), Step(chat_reply("b"))]
    steps += [Step(_write("z")), Step(chat_reply("c"))]
    with ScriptedServer(steps) as server:
        proc = _run(llm_env, server, tmp_path / "l", "--reflection-rounds", "2")
    assert proc.returncode == 0, proc.stderr
    assert len(server.requests) == 6
    rounds = [e for e in _events(tmp_path / "l") if e["event"] == "reflection_round"]
    assert [r["clean"] for r in rounds] == [False, False, False]
    assert json.loads(proc.stdout)["raw_results"][0]["scores"] == {"correct": 0.0}


def test_missing_provider_key_fails_before_any_trial(toy_env, tmp_path):
    toy_env.pop("OPENAI_API_KEY", None)
    out = tmp_path / "nokey"
    proc = run_cli(
        ["toy", "run", "--agent", "llm", "--model", "openai/gpt-4o", "--output", str(out)],
        env=toy_env,
    )
    assert proc.returncode == 2
    assert "OPENAI_API_KEY" in proc.stderr
    assert not out.exists() or not any(out.iterdir())


def test_max_turns_caps_the_model_calls_of_a_round(llm_env, tmp_path):
    # the model would go on calling tools; the cap ends the round after two calls
    steps = [Step(_write(11)), Step(_write(11)), Step(chat_reply("never reached"))]
    with ScriptedServer(steps) as server:
        proc = _run(llm_env, server, tmp_path / "t", "--max-turns", "2", "--reflection-rounds", "0")
        requests = len(server.requests)
    assert proc.returncode == 0, proc.stderr
    assert requests == 2
    capped = [e for e in _events(tmp_path / "t") if e["event"] == "max_steps_reached"]
    assert [e["max_steps"] for e in capped] == [2]
    raw = json.loads(proc.stdout)["raw_results"][0]
    assert raw["usage"]["llm_calls"] == 2 and raw["scores"] == {"correct": 1.0}


def test_the_run_sessions_validator_and_tools_drive_the_llm_agent(llm_env, tmp_path):
    """``--answer-file`` is a setting of the toy's run session: the validator feeding the
    reflection loop and the tools the model is offered are that session's."""

    def write(name: str) -> dict:
        args = json.dumps({"path": name, "content": json.dumps({"sum": 11})})
        return chat_reply(tool_calls=[{"name": "write_file", "arguments": args}])

    steps = [
        Step(write("answer.json")),
        Step(chat_reply("first try")),
        Step(write("result.json")),
        Step(chat_reply("fixed")),
    ]
    with ScriptedServer(steps) as server:
        proc = _run(llm_env, server, tmp_path / "s", "--answer-file", "result.json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["raw_results"][0]["scores"] == {"correct": 1.0}
    offered = {tool["function"]["name"] for tool in server.requests[0]["tools"]}
    assert "answer_location" in offered
    feedback = server.requests[2]["messages"][-1]["content"]
    assert "result.json: missing" in feedback
