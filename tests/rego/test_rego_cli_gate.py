"""`itbench rego eval --fail|--fail-defined`: a Rego policy gates a pipeline as `opa eval` does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._support.cli import run_cli

POLICY = """package gate

allow if input.user == "admin"

deny contains msg if {
    input.user != "admin"
    msg := sprintf("%s may not deploy", [input.user])
}
"""


@pytest.fixture
def gate(tmp_path: Path) -> Path:
    (tmp_path / "gate.rego").write_text(POLICY)
    (tmp_path / "admin.json").write_text(json.dumps({"user": "admin"}))
    (tmp_path / "guest.json").write_text(json.dumps({"user": "guest"}))
    return tmp_path


@pytest.mark.parametrize(
    ("query", "user", "flag", "code"),
    [
        # allow is defined only for the admin: --fail exits 1 on undefined
        ("data.gate.allow", "admin", "--fail", 0),
        ("data.gate.allow", "guest", "--fail", 1),
        ("data.gate.allow", "admin", "--fail-defined", 1),
        ("data.gate.allow", "guest", "--fail-defined", 0),
        # a value that is false or empty is still defined, as in OPA
        ("data.gate.allow == true", "guest", "--fail", 1),
        ("data.gate.deny", "admin", "--fail", 0),
        ("data.gate.deny", "admin", "--fail-defined", 1),
        # a query expression that is false leaves the result set empty: undefined
        ('x := input.user; x == "admin"', "guest", "--fail", 1),
        ('x := input.user; x == "admin"', "guest", "--fail-defined", 0),
        ('x := input.user; x == "admin"', "admin", "--fail", 0),
        ("data.gate.nothing", "admin", "--fail", 1),
        ("data.gate.nothing", "admin", "--fail-defined", 0),
        # without a flag the result never sets the exit code
        ("data.gate.allow", "guest", None, 0),
        ("data.gate.allow", "admin", None, 0),
    ],
)
def test_fail_flags_follow_opa(gate, query, user, flag, code):
    args = ["rego", "eval", "-d", str(gate / "gate.rego"), "-i", str(gate / f"{user}.json")]
    proc = run_cli([*args, *([flag] if flag else []), query])
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    json.loads(proc.stdout)  # the document is printed whatever the verdict


def test_fail_and_fail_defined_together_is_a_usage_error(gate):
    proc = run_cli(["rego", "eval", "-d", str(gate), "--fail", "--fail-defined", "data.gate.allow"])
    assert proc.returncode == 2
    assert "--fail or --fail-defined" in proc.stderr and proc.stdout == ""
