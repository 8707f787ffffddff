"""The CLI contract every command shares: exit codes and clean streams."""

from __future__ import annotations

from conftest import run_cli

from itbench import __version__
from itbench.exitcodes import ExitCode


def test_exit_code_table_is_the_documented_one():
    assert [(c.name, int(c)) for c in ExitCode] == [
        ("OK", 0),
        ("FINDINGS", 1),
        ("USAGE", 2),
        ("TOOL_ERROR", 3),
    ]


def test_unknown_flag_is_a_usage_error():
    proc = run_cli(["domains", "--no-such-flag"])
    assert proc.returncode == 2
    assert "No such option" in proc.stderr
    assert proc.stdout == ""


def test_version_and_help_succeed():
    proc = run_cli(["--version"])
    assert proc.returncode == 0 and __version__ in proc.stdout
    proc = run_cli(["--help"])
    assert proc.returncode == 0 and "Exit codes" in proc.stdout


def test_domain_group_lists_its_commands():
    proc = run_cli(["finops", "--help"])
    assert proc.returncode == 0
    for name in ("run", "eval", "generate"):
        assert f"  {name} " in proc.stdout, name
