"""The runner end to end through the real CLI, on the toy third-party domain."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from tests._support.cli import itbench_executable, run_cli


def _results(out: Path) -> dict:
    return json.loads((out / "results.json").read_text())


def test_baseline_run_writes_trial_folders_and_results(toy_env, tmp_path):
    out = tmp_path / "run"
    proc = run_cli(
        ["toy", "run", "--output", str(out), "--trials", "2", "--format", "json"], env=toy_env
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc == _results(out)
    pairs = sorted((r["incident_id"], r["trial_id"]) for r in doc["raw_results"])
    assert pairs == [(f"add-{i}", str(n)) for i in (1, 2, 3) for n in (1, 2)]
    for i in (1, 2, 3):
        for n in (1, 2):
            trial = out / f"add-{i}" / str(n)
            evaluation = json.loads((trial / "evaluation.json").read_text())
            assert evaluation["scores"] == {"correct": 1.0}
            assert json.loads((trial / "answer.json").read_text()) == {"sum": 11 * i}
            assert (trial / "transcript.jsonl").exists()
            # ground truth never reaches the workspace
            assert not (trial / "truth.json").exists()
    assert doc["config"]["agent"] == "baseline"
    assert doc["config"]["scenario_classes"] == {"add-1": "odd", "add-2": "even", "add-3": "odd"}


def test_oracle_scores_full_marks_and_third_party_agent_is_found(toy_env, tmp_path):
    proc = run_cli(
        ["toy", "run", "--agent", "oracle", "--output", str(tmp_path / "o"), "--format", "json"],
        env=toy_env,
    )
    assert proc.returncode == 0, proc.stderr
    assert all(r["scores"]["correct"] == 1.0 for r in json.loads(proc.stdout)["raw_results"])
    proc = run_cli(
        [
            "toy",
            "run",
            "--agent",
            "echo-agent",
            "--output",
            str(tmp_path / "e"),
            "--format",
            "json",
        ],
        env=toy_env,
    )
    assert proc.returncode == 0, proc.stderr
    assert all(r["scores"]["correct"] == 0.0 for r in json.loads(proc.stdout)["raw_results"])


def test_unknown_agent_and_scenario_are_usage_errors_listing_what_exists(toy_env, tmp_path):
    proc = run_cli(["toy", "run", "--agent", "nope", "--output", str(tmp_path)], env=toy_env)
    assert proc.returncode == 2
    assert "baseline" in proc.stderr and "oracle" in proc.stderr and "echo-agent" in proc.stderr
    proc = run_cli(["toy", "run", "--scenarios", "add-9", "--output", str(tmp_path)], env=toy_env)
    assert proc.returncode == 2
    assert "add-1" in proc.stderr


def test_fail_under_turns_a_low_score_into_findings(toy_env, tmp_path):
    args = [
        "toy",
        "run",
        "--agent",
        "echo-agent",
        "--output",
        str(tmp_path / "x"),
        "--fail-under",
        "0.5",
    ]
    assert run_cli(args, env=toy_env).returncode == 1
    args = ["toy", "run", "--output", str(tmp_path / "y"), "--fail-under", "0.5"]
    assert run_cli(args, env=toy_env).returncode == 0


def test_command_agent_gets_task_in_file_and_env(toy_env, tmp_path):
    cmd = "test -f TASK.md && case \"$ITBENCH_TASK\" in *answer.json*) ;; *) exit 9;; esac; python3 -c \"import json; d=json.load(open('task.json')); json.dump({'sum': d['a']+d['b']}, open('answer.json','w'))\""
    proc = run_cli(
        ["toy", "run", "--agent-cmd", cmd, "--output", str(tmp_path / "c"), "--format", "json"],
        env=toy_env,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [r["scores"]["correct"] for r in doc["raw_results"]] == [1.0, 1.0, 1.0]
    assert doc["config"]["agent"] == "command"


def test_failing_command_agent_is_recorded_as_error(toy_env, tmp_path):
    proc = run_cli(
        [
            "toy",
            "run",
            "--agent-cmd",
            "exit 4",
            "--output",
            str(tmp_path / "f"),
            "--format",
            "json",
        ],
        env=toy_env,
    )
    # no trial produced a score: a tool error, the document still on stdout and on disk
    assert proc.returncode == 3, proc.stderr
    raw = json.loads(proc.stdout)["raw_results"]
    assert [r["error"] for r in raw] == ["agent command exited with 4"] * 3


def test_timeout_kills_the_agent_and_its_children(toy_env, tmp_path):
    workspace = tmp_path / "t" / "add-1" / "1"
    # the agent starts a grandchild that would write a marker after the limit, then hangs; the
    # markers go in the workspace, the one place the sandboxed agent can write
    cmd = (
        'touch "$ITBENCH_WORKSPACE/started"; (sleep 3; touch "$ITBENCH_WORKSPACE/alive") & sleep 60'
    )
    toy_env["TOY_SCENARIOS"] = "1"
    started = time.monotonic()
    proc = run_cli(
        [
            "toy",
            "run",
            "--agent-cmd",
            cmd,
            "--timeout",
            "1",
            "--output",
            str(tmp_path / "t"),
            "--format",
            "json",
        ],
        env=toy_env,
    )
    assert time.monotonic() - started < 20
    assert proc.returncode == 3, proc.stderr  # its only trial produced no score
    raw = json.loads(proc.stdout)["raw_results"]
    # an errored trial carries empty scores too, so scripts that iterate scores do not crash
    assert raw == [{"incident_id": "add-1", "trial_id": "1", "scores": {}, "error": "timeout"}]
    time.sleep(3)
    assert (workspace / "started").exists(), "the agent could not write its workspace"
    assert not (workspace / "alive").exists(), "a process of the timed-out trial survived"


def test_kill_minus_nine_mid_run_then_resume_completes_each_trial_once(toy_env, tmp_path):
    out = tmp_path / "resume"
    toy_env["TOY_AGENT_SLEEP"] = "0.4"
    toy_env["TOY_SCENARIOS"] = "4"
    args = [
        itbench_executable(),
        "toy",
        "run",
        "--trials",
        "3",
        "-j",
        "2",
        "--output",
        str(out),
        "--no-progress",
    ]
    proc = subprocess.Popen(
        args, env=toy_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    # wait until some but not all trials are complete, then kill the runner hard
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done = list(out.glob("*/*/evaluation.json"))
        if len(done) >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)  # workers die with the runner (PDEATHSIG)
    first = {p.parent for p in out.glob("*/*/evaluation.json")}
    assert 3 <= len(first) < 12
    assert not (out / "results.json").exists()
    for path in out.glob("*/*/evaluation.json"):
        json.loads(path.read_text())  # nothing half-written
    assert not list(out.glob("*/*/.evaluation.json.*")), "temporary files left behind"

    mtimes = {p: (p / "evaluation.json").stat().st_mtime_ns for p in first}
    proc2 = run_cli(args[1:] + ["--format", "json"], env=toy_env)
    assert proc2.returncode == 0, proc2.stderr
    assert f"resuming: {len(first)} complete trial(s) kept" in proc2.stderr
    doc = json.loads(proc2.stdout)
    pairs = [(r["incident_id"], r["trial_id"]) for r in doc["raw_results"]]
    assert sorted(pairs) == sorted((f"add-{i}", str(n)) for i in range(1, 5) for n in range(1, 4))
    assert len(set(pairs)) == len(pairs) == 12
    assert all(r["scores"]["correct"] == 1.0 for r in doc["raw_results"])
    # completed trials were skipped, not redone
    for trial, mtime in mtimes.items():
        assert (trial / "evaluation.json").stat().st_mtime_ns == mtime
    # the interrupted trials' runner transcripts were replaced by their redos', then moved
    assert not (out / ".itbench-transcripts").exists()


def test_eval_scores_the_original_outputs_layout(toy_env, tmp_path):
    outputs = tmp_path / "outputs"
    for folder, trial, answer in [
        ("Scenario-add-1", "1", 11),
        ("add-2", "1", 5),
        ("add-2", "2", 22),
    ]:
        d = outputs / folder / trial
        d.mkdir(parents=True)
        (d / "answer.json").write_text(json.dumps({"sum": answer}))
    (outputs / "notes.txt").write_text("ignored")
    result = tmp_path / "scored.json"
    proc = run_cli(
        [
            "toy",
            "eval",
            "--outputs",
            str(outputs),
            "--result-file",
            str(result),
            "--format",
            "json",
        ],
        env=toy_env,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(result.read_text())
    scores = {
        (r["incident_id"], r["trial_id"]): r["scores"]["correct"]
        for r in doc["raw_results"]
        if "error" not in r
    }
    assert scores == {("add-1", "1"): 1.0, ("add-2", "1"): 0.0, ("add-2", "2"): 1.0}
    # scenarios of the ground truth without any output are counted as bad runs, by id
    missing = {r["incident_id"] for r in doc["raw_results"] if "error" in r}
    assert missing and all(i not in ("add-1", "add-2") for i in missing)
    assert "counted as bad runs" in proc.stderr


def test_processes_a_finished_trial_left_behind_are_ended(toy_env, tmp_path):
    """Trial add-1 leaves a process that would write a marker 1.5 s later and ends at once; trial
    add-2 (same worker, -j 1) then runs for 3 s. The marker must never appear."""
    marker = tmp_path / "l" / "add-1" / "1" / "leftover-ran"
    toy_env["TOY_SCENARIOS"] = "2"
    answer = "python3 -c \"import json; d=json.load(open('task.json')); json.dump({'sum': d['a']+d['b']}, open('answer.json', 'w'))\""
    cmd = (
        f'if grep -q \'"a": 1,\' task.json; then (sleep 1.5; touch "$ITBENCH_WORKSPACE/leftover-ran") >/dev/null 2>&1 & '
        f"else sleep 3; fi; {answer}"
    )
    proc = run_cli(
        [
            "toy",
            "run",
            "--agent-cmd",
            cmd,
            "-j",
            "1",
            "--output",
            str(tmp_path / "l"),
            "--format",
            "json",
        ],
        env=toy_env,
    )
    assert proc.returncode == 0, proc.stderr
    assert [r["scores"] for r in json.loads(proc.stdout)["raw_results"]] == [{"correct": 1.0}] * 2
    assert not marker.exists(), "a process the first trial left behind outlived it"


def test_command_agent_reports_its_usage_through_usage_json(toy_env, tmp_path):
    answer = "python3 -c \"import json; d=json.load(open('task.json')); json.dump({'sum': d['a']+d['b']}, open('answer.json','w'))\""
    report = """echo '{"prompt_tokens": 1200, "completion_tokens": 80, "cost_usd": 0.03, "llm_calls": 5}' > usage.json"""
    out = tmp_path / "u"
    proc = run_cli(
        ["toy", "run", "--agent-cmd", f"{answer} && {report}", "--output", str(out)],
        env=toy_env,
    )
    assert proc.returncode == 0, proc.stderr
    raw = _results(out)["raw_results"]
    expected = {
        "prompt_tokens": 1200,
        "completion_tokens": 80,
        "cost_usd": 0.03,
        "llm_calls": 5,
        "tool_calls": 0,
    }
    assert [r["usage"] for r in raw] == [expected] * 3
    assert [r["scores"]["correct"] for r in raw] == [1.0, 1.0, 1.0]
    evaluation = json.loads((out / "add-1" / "1" / "evaluation.json").read_text())
    assert evaluation["usage"] == expected


def test_a_bad_usage_json_is_named_and_the_answer_still_counts(toy_env, tmp_path):
    answer = "python3 -c \"import json; d=json.load(open('task.json')); json.dump({'sum': d['a']+d['b']}, open('answer.json','w'))\""
    report = """echo '{"prompt_tokens": -3}' > usage.json"""
    out = tmp_path / "b"
    proc = run_cli(
        ["toy", "run", "--agent-cmd", f"{answer} && {report}", "--output", str(out)],
        env=toy_env,
    )
    assert proc.returncode == 0, proc.stderr
    assert "usage.json: prompt_tokens must be an integer from 0 to 1,000,000,000,000, got -3" in (
        proc.stderr
    )
    raw = _results(out)["raw_results"]
    assert all("usage" not in r for r in raw)
    assert [r["scores"]["correct"] for r in raw] == [1.0, 1.0, 1.0]
    transcript = (out / "add-1" / "1" / "transcript.jsonl").read_text()
    assert "usage_rejected" in transcript


def test_a_usage_json_that_is_a_link_or_a_fifo_is_not_read(toy_env, tmp_path):
    """Issue 26: the runner reads usage.json as root on the host; a link to a host file or a
    FIFO (which would block the reader) is refused like any answer file, and the answer counts."""
    answer = "python3 -c \"import json; d=json.load(open('task.json')); json.dump({'sum': d['a']+d['b']}, open('answer.json','w'))\""
    out = tmp_path / "l"
    for plant, word in (("ln -s /etc/hostname usage.json", "link"), ("mkfifo usage.json", "FIFO")):
        proc = run_cli(
            ["toy", "run", "--agent-cmd", f"{answer} && {plant}", "--output", str(out / word)],
            env=toy_env,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        assert "usage.json: not read" in proc.stderr, proc.stderr
        raw = _results(out / word)["raw_results"]
        assert all("usage" not in r for r in raw)
        assert [r["scores"]["correct"] for r in raw] == [1.0, 1.0, 1.0]
