"""One rule for failed runs (issue 27): a run where no trial produced a score exits 3 with the
first cause on stderr; partial failures are reported and fail the run beyond --fail-on-errors N;
the llm agent's endpoint is tried once, time-limited, before the first trial."""

from __future__ import annotations

import json
import shutil
import socket
import threading
from pathlib import Path

import pytest

from tests._support.cli import REPO, run_cli
from tests._support.fake_openai import ScriptedServer, Step

USER_SCENARIO = REPO / "docs" / "examples" / "ciso-scenarios" / "my-scenarios" / "host-net"
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")


def _user_scenarios(tmp_path: Path) -> Path:
    """A user's scenario folder with no reference answer (no solution/)."""
    root = tmp_path / "mine"
    shutil.copytree(USER_SCENARIO, root / "host-net")
    return root


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the block ends: nothing listens


@needs_bwrap
def test_agent_cmd_program_not_found_exits_3_naming_it(tmp_path: Path) -> None:
    out = tmp_path / "o"
    proc = run_cli(
        ["ciso", "run", "--scenarios", str(_user_scenarios(tmp_path)), "--no-progress",
         "--agent-cmd", "no-such-agent-cli --go", "--output", str(out)],
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    assert "no trial produced a score" in proc.stderr
    assert "no-such-agent-cli: command not found" in proc.stderr
    # the results document is still written: nothing is lost
    doc = json.loads((out / "results.json").read_text())
    for entry in doc["raw_results"]:
        assert "exited with 127" in entry["error"], entry


@needs_bwrap
def test_agent_cmd_under_a_hidden_directory_names_the_missing_file(tmp_path: Path) -> None:
    # the checkout lies under /work, which the sandbox hides (tmp_path does not)
    hidden = REPO / ".pytest-hidden-agent"
    hidden.mkdir(exist_ok=True)
    try:
        program = hidden / "my-agent"
        program.write_text("#!/bin/sh\necho hi\n")
        program.chmod(0o755)
        proc = run_cli(
            ["ciso", "run", "--scenarios", str(_user_scenarios(tmp_path)), "--no-progress",
             "--agent-cmd", str(program), "--output", str(tmp_path / "o")],
        )  # fmt: skip
    finally:
        shutil.rmtree(hidden)
    assert proc.returncode == 3, proc.stderr
    assert f"{program}: No such file or directory" in proc.stderr
    assert "sandbox cannot see" in proc.stderr


def test_oracle_without_reference_exits_3(tmp_path: Path) -> None:
    proc = run_cli(
        ["ciso", "run", "--scenarios", str(_user_scenarios(tmp_path)), "--agent", "oracle",
         "--no-progress", "--output", str(tmp_path / "o")],
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    assert "no trial produced a score: all 2 trial(s) failed" in proc.stderr
    assert "has no reference answer" in proc.stderr


@needs_bwrap
@pytest.mark.parametrize(("limit", "code"), [(None, 0), (1, 0), (0, 3)])
def test_partial_failures_warn_and_fail_beyond_the_limit(
    toy_env: dict[str, str], tmp_path: Path, limit: int | None, code: int
) -> None:
    # add-2 fails, add-1 and add-3 answer
    command = (
        "grep -q '\"a\": 2' task.json && { echo 'cannot add' >&2; exit 5; }; "
        "echo '{\"sum\": 0}' > answer.json"
    )
    extra = [] if limit is None else ["--fail-on-errors", str(limit)]
    proc = run_cli(
        ["toy", "run", "--agent-cmd", command, "--no-progress", "--output", str(tmp_path / "o"),
         *extra],
        env=toy_env,
    )  # fmt: skip
    assert proc.returncode == code, proc.stderr
    assert "1 of 3 trial(s) failed (no score); first: add-2#1: agent command exited with 5: " \
        "cannot add" in proc.stderr  # fmt: skip
    if code == 3:
        assert "more than --fail-on-errors 0" in proc.stderr


def test_eval_over_outputs_whose_every_trial_failed_exits_3(
    toy_env: dict[str, str], tmp_path: Path
) -> None:
    outputs = tmp_path / "outputs"
    for n in (1, 2, 3):
        (outputs / f"add-{n}" / "1").mkdir(parents=True)  # no answer.json anywhere
    proc = run_cli(["toy", "eval", "--outputs", str(outputs)], env=toy_env)
    assert proc.returncode == 3, proc.stderr
    assert "no trial produced a score" in proc.stderr
    assert "answer.json: missing" in proc.stderr


def _llm_run(env: dict[str, str], api_base: str, out: Path):
    return run_cli(
        ["toy", "run", "--agent", "llm", "--model", "openai/scripted", "--api-base", api_base,
         "--output", str(out), "--no-progress"],
        env={**env, "OPENAI_API_KEY": "sk-test", "TOY_SCENARIOS": "3"},
    )  # fmt: skip


def test_dead_llm_endpoint_stops_before_any_trial_naming_url_and_model(
    toy_env: dict[str, str], tmp_path: Path
) -> None:
    api_base = f"http://127.0.0.1:{_closed_port()}/v1"
    proc = _llm_run(toy_env, api_base, tmp_path / "o")
    assert proc.returncode == 3, proc.stderr
    assert "LLM pre-flight request failed" in proc.stderr
    assert api_base in proc.stderr and "'openai/scripted'" in proc.stderr
    assert not (tmp_path / "o" / "add-1").exists()  # no trial started


class _HangingUp:
    """An endpoint that accepts each connection and closes it unanswered, counting them: the
    number of connections is the number of attempts the pre-flight made."""

    def __init__(self) -> None:
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self.connections = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:  # closed by __exit__
                return
            self.connections += 1
            conn.close()

    def __enter__(self) -> _HangingUp:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._sock.close()
        self._thread.join(timeout=5)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}/v1"


def test_endpoint_that_hangs_up_is_tried_once_before_the_run_stops(
    toy_env: dict[str, str], tmp_path: Path
) -> None:
    # one attempt, no retries (three trials of litellm's retries took 3 x 11 s once); counted
    # rather than timed, so a loaded machine cannot fail it
    with _HangingUp() as endpoint:
        proc = _llm_run(toy_env, endpoint.api_base, tmp_path / "o")
    assert proc.returncode == 3, proc.stderr
    assert "LLM pre-flight request failed" in proc.stderr
    assert endpoint.connections == 1, (endpoint.connections, proc.stderr[-2000:])
    assert not (tmp_path / "o" / "add-1").exists()  # no trial started


def test_garbage_llm_endpoint_stops_before_any_trial(
    toy_env: dict[str, str], tmp_path: Path
) -> None:
    with ScriptedServer([], preflight=Step(status=200, body={"unexpected": "shape"})) as server:
        proc = _llm_run(toy_env, server.api_base, tmp_path / "o")
    assert proc.returncode == 3, proc.stderr
    assert "LLM pre-flight request failed" in proc.stderr
    assert server.api_base in proc.stderr
    assert len(server.preflights) == 1 and server.requests == []
    assert not (tmp_path / "o" / "add-1").exists()


def test_live_llm_endpoint_passes_the_preflight_with_one_request(
    toy_env: dict[str, str], tmp_path: Path
) -> None:
    from tests._support.fake_openai import chat_reply

    args = json.dumps({"path": "answer.json", "content": json.dumps({"sum": 11})})
    steps = [
        Step(chat_reply(tool_calls=[{"name": "write_file", "arguments": args}])),
        Step(chat_reply("done")),
    ]
    env = {**toy_env, "TOY_SCENARIOS": "1", "OPENAI_API_KEY": "sk-test"}
    with ScriptedServer(steps) as server:
        proc = run_cli(
            ["toy", "run", "--agent", "llm", "--model", "openai/scripted", "--api-base",
             server.api_base, "--output", str(tmp_path / "o"), "--no-progress",
             "--reflection-rounds", "0"],
            env=env,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert len(server.preflights) == 1
    assert server.preflights[0]["max_tokens"] == 1
