"""Rule ids that do not exist are usage errors (exit 2) wherever they are given; before, a typo
in `--enable` ran no rule at all and exited 0. Linting nothing warns."""

from __future__ import annotations

import pytest

from tests._support.cli import REPO, run_cli

FIXTURE = REPO / "tests" / "lint" / "fixtures" / "kyverno-fail-structure.yaml"


@pytest.mark.parametrize("option", ["--enable", "--disable"])
def test_an_unknown_rule_id_on_the_command_line_is_a_usage_error(option):
    proc = run_cli(["lint", "-q", option, "KYV999", str(FIXTURE)])
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"{option}: unknown rule id 'KYV999' (did you mean KYV009?)" in proc.stderr
    assert proc.stdout == ""


def test_an_unknown_rule_id_in_the_configuration_names_the_file(tmp_path):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.itbench.lint]\nenable = ["KYV001", "REG001"]\n')
    proc = run_cli(["lint", "-q", "--config", str(config), str(FIXTURE)])
    assert proc.returncode == 2
    assert f"{config}: enable: unknown rule id 'REG001'" in proc.stderr


def test_known_ids_still_select(tmp_path):
    proc = run_cli(["lint", "-q", "--enable", "KYV001", str(FIXTURE)])
    assert proc.returncode == 1 and "KYV001" in proc.stdout


def test_linting_nothing_warns(tmp_path):
    proc = run_cli(["lint", "-q", str(tmp_path)])
    assert proc.returncode == 0
    assert f"warning: no files to lint under {tmp_path}" in proc.stderr
