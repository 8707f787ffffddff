"""The opa CLI backend (backends/opa_cli.py) driven through ``fake_opa.py``, which replays answers
recorded per subcommand, query, file digests and flags (see record_opa.py for where they come from).
Each assertion is about what OpaCli makes of a different recorded answer; an unrecorded call fails.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from ciso.engines.rego import UNDEFINED, RegoError
from ciso.engines.rego.backends.opa_cli import OpaCli
from ciso.engines.rego.backends.opa_golib import available as golib_available
from tests._support.cli import run_cli
from tests.rego.record_opa import BROKEN, INPUTS, POLICY, TESTS, V0_POLICY

HERE = Path(__file__).parent


@pytest.fixture
def opa(tmp_path) -> Path:
    """An `opa` on a private PATH entry that runs the fake with this interpreter."""
    exe = tmp_path / "bin" / "opa"
    exe.parent.mkdir()
    exe.write_text(f'#!/bin/sh\nexec {sys.executable} {HERE / "fake_opa.py"} "$@"\n')
    exe.chmod(0o755)
    return exe


def test_the_version_line_is_read(opa):
    assert OpaCli(path=str(opa)).version == "1.20.2"


@pytest.mark.parametrize(
    ("query", "input_name", "expected"),
    [
        ("data.check.result", "host", False),
        ("data.check.result", "plain", True),
        ("data.check.names", "host", ["a"]),
        ("data.check.names", "plain", ["a", "b"]),
        ("data.check.missing", "plain", UNDEFINED),
    ],
)
def test_each_query_and_input_gets_its_own_answer(opa, query, input_name, expected):
    result = OpaCli(path=str(opa)).evaluate({"policy.rego": POLICY}, query, INPUTS[input_name])
    assert result.engine == "opa" and result.version == "1.20.2"
    if expected is UNDEFINED:
        assert result.value is UNDEFINED and result.results == []
    else:
        assert result.value == expected
        assert result.results[0]["expressions"][0]["text"] == query


def test_an_unrecorded_call_fails_loudly(opa):
    with pytest.raises(RegoError, match="no recording for"):
        OpaCli(path=str(opa)).evaluate({"policy.rego": POLICY}, "data.check.result", {"x": 1})


def test_eval_errors_come_back_with_the_callers_file_name_and_column(opa):
    with pytest.raises(RegoError) as info:
        OpaCli(path=str(opa)).evaluate({"broken.rego": BROKEN}, "data.broken.result")
    (d,) = info.value.diagnostics
    assert (d.file, d.line, d.column, d.code) == ("broken.rego", 6, 7, "rego_type_error")


def test_v0_modules_need_v0_compatible(opa):
    with pytest.raises(RegoError) as info:
        OpaCli(path=str(opa)).evaluate({"v0.rego": V0_POLICY}, "data.legacy.allow")
    assert info.value.diagnostics[0].code == "rego_parse_error"
    assert info.value.diagnostics[0].file == "v0.rego"
    v0 = OpaCli(v0=True, path=str(opa))
    privileged = v0.evaluate({"v0.rego": V0_POLICY}, "data.legacy.violation", INPUTS["privileged"])
    assert privileged.value == ["a is privileged"]
    assert (
        v0.evaluate({"v0.rego": V0_POLICY}, "data.legacy.allow", INPUTS["privileged"]).value
        is False
    )
    assert v0.evaluate({"v0.rego": V0_POLICY}, "data.legacy.allow", INPUTS["plain"]).value is True


def test_check(opa):
    plain = OpaCli(path=str(opa))
    assert plain.check({"policy.rego": POLICY}) == []
    (error,) = plain.check({"broken.rego": BROKEN})
    assert (error.file, error.line, error.column, error.code) == (
        "broken.rego",
        6,
        7,
        "rego_type_error",
    )
    assert plain.check({"v0.rego": V0_POLICY})[0].code == "rego_parse_error"
    assert OpaCli(v0=True, path=str(opa)).check({"v0.rego": V0_POLICY}) == []


def test_opa_test_results_per_test(opa):
    run = OpaCli(path=str(opa)).test({"policy.rego": POLICY, "policy_test.rego": TESTS})
    assert {c.name: c.status for c in run.cases} == {
        "test_host_network_fails": "pass",
        "test_plain_pod_passes": "pass",
        "test_wrong_expectation": "fail",
        "todo_test_later": "skip",
    }
    assert {c.location for c in run.cases} == {"policy_test.rego"}
    assert run.failed and run.coverage is None
    selected = OpaCli(path=str(opa)).test(
        {"policy.rego": POLICY, "policy_test.rego": TESTS}, run="plain"
    )
    assert [(c.name, c.status) for c in selected.cases] == [("test_plain_pod_passes", "pass")]


def test_opa_test_coverage(opa):
    run = OpaCli(path=str(opa)).test(
        {"policy.rego": POLICY, "policy_test.rego": TESTS}, coverage=True
    )
    report = run.coverage["files"]["policy.rego"]
    # the tests reach result's body (row 8); names only sees an empty list, so the row that binds
    # a container's name (13) never runs
    assert 8 in report["covered"] and 13 in report["not_covered"] and 12 in report["covered"]
    assert 0 < report["coverage"] < 100


def test_itbench_rego_uses_the_opa_on_path(opa, tmp_path):
    policy = tmp_path / "policy.rego"
    policy.write_text(POLICY)
    (tmp_path / "in.json").write_text(json.dumps(INPUTS["host"]))
    env = dict(os.environ, PATH=f"{opa.parent}:{os.environ['PATH']}")
    proc = run_cli(
        [
            "rego",
            "eval",
            "-d",
            str(policy),
            "-i",
            str(tmp_path / "in.json"),
            "data.check.result",
            "--format",
            "raw",
        ],
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "false\n" and "engine: opa 1.20.2" in proc.stderr
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "policy.rego").write_text(POLICY)
    (tests / "policy_test.rego").write_text(TESTS)
    run = run_cli(["rego", "test", str(tests), "--format", "json"], env=env)
    assert run.returncode == 1, run.stderr
    assert json.loads(run.stdout)["summary"] == {"pass": 2, "fail": 1, "error": 0, "skip": 1}


@pytest.mark.skipif(not golib_available(), reason="re-recording needs embedded OPA")
def test_recordings_are_what_the_recorder_makes_today(tmp_path):
    """The committed answers are reproducible: the same keys (so OpaCli still calls opa the way
    it was recorded) and the same outputs, test durations aside."""
    import record_opa

    fresh = tmp_path / "recordings.json"
    record_opa.record(fresh)

    def stable(path: Path) -> dict:
        document = json.loads(path.read_text())["recordings"]
        return {
            key: {**entry, "stdout": re.sub(r'"duration": \d+', "", entry["stdout"])}
            for key, entry in document.items()
        }

    assert stable(fresh) == stable(HERE / "opa_recordings.json")
