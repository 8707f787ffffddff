"""``itbench sre tool NAME --help`` lists NAME's arguments with types and defaults (issue 27),
from the same argument model the tool validates against."""

from __future__ import annotations

import pytest

from sre.tools import TOOL_NAMES, tool_specs
from tests._support.cli import run_cli


def _help(*args: str) -> str:
    proc = run_cli(["sre", "tool", *args, "--help"])
    assert proc.returncode == 0, proc.stderr
    return " ".join(proc.stdout.split())


def test_alert_summary_help_lists_each_argument_with_type_and_default() -> None:
    text = _help("alert_summary")
    assert "Arguments of alert_summary:" in text
    assert "--base-dir TEXT required; with --snapshot: <snapshot>/alerts" in text
    assert '--time-basis [snapshot|activeAt] default: "snapshot"' in text
    assert "--limit INTEGER default: 50" in text
    assert "--min-duration-min NUMBER optional" in text


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_every_tool_lists_every_field_of_its_argument_model(name: str) -> None:
    text = _help(name)
    for field in tool_specs()[name].args.model_fields:
        assert f"--{field.replace('_', '-')} " in text, field


def test_help_without_a_tool_lists_the_tools() -> None:
    text = _help()
    assert "Tools:" in text and all(name in text for name in TOOL_NAMES)
