"""The documentation's console examples (README.md and the site's pages under docs/) are files
the suite runs, so the documentation cannot rot.

How an example is written, run and normalised: tests/docs/console_examples.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests._support.cli import SHARED, itbench_executable
from tests.docs.console_examples import (
    EXAMPLES,
    REPO,
    CommandSpec,
    ExampleError,
    ExampleSpec,
    ReadmeBlock,
    bash_commands,
    doc_blocks,
    example_names,
    help_path,
    itbench_arguments,
    load_spec,
    missing_requirements,
    normalise,
    parse_console,
    parse_problems,
    prepare_workdir,
    run_example,
)

BLOCKS = doc_blocks()
NAMES = example_names()


def _command_blocks() -> list[ReadmeBlock]:
    return [block for block in BLOCKS if block.language in ("console", "bash")]


def _doc_commands() -> list[tuple[str, list[str]]]:
    """Every itbench command in a console or bash block of the docs, as (where, arguments)."""
    found = []
    for block in _command_blocks():
        for command in bash_commands(block):
            arguments = itbench_arguments(command)
            if arguments is not None:
                found.append((f"{block.where}: {command.strip()}", arguments))
    return found


COMMANDS = _doc_commands()


def test_the_docs_have_examples_and_commands():
    # Guards the parametrised tests below against silently collecting nothing.
    assert NAMES, f"no *.console file in {EXAMPLES}"
    assert len(COMMANDS) >= len(NAMES)


def test_every_console_block_showing_output_is_an_example_file():
    unfiled = [
        block.where
        for block in BLOCKS
        if block.language == "console" and block.shows_output and block.example is None
    ]
    assert not unfiled, (
        "console blocks that show output must be example files (put "
        "`<!-- example: docs/examples/<name>.console -->` on the line before the block): "
        + ", ".join(unfiled)
    )


def test_every_marked_block_names_an_existing_example():
    missing = [
        f"{block.where}: {block.example}"
        for block in BLOCKS
        if block.example is not None and not (REPO / block.example).is_file()
    ]
    assert not missing, missing


@pytest.mark.parametrize("name", NAMES)
def test_docs_block_equals_example_file(name):
    path = f"docs/examples/{name}.console"
    blocks = [block for block in BLOCKS if block.example == path]
    assert len(blocks) == 1, f"{path}: named by {len(blocks)} docs blocks, expected exactly one"
    assert blocks[0].language == "console", f"{blocks[0].where}: not a console block"
    assert blocks[0].text == (REPO / path).read_text(encoding="utf-8"), (
        f"{blocks[0].where} differs from {path}: edit both, or copy the file in"
    )


@pytest.mark.parametrize("name", NAMES)
def test_example_spec_describes_every_command(name):
    commands = parse_console((EXAMPLES / f"{name}.console").read_text(encoding="utf-8"))
    spec = load_spec(name)
    assert len(spec.commands) == len(commands), (
        f"docs/examples/{name}.toml has {len(spec.commands)} [[command]] tables for "
        f"{len(commands)} '$' lines in {name}.console"
    )
    for command, command_spec in zip(commands, spec.commands, strict=True):
        if not command_spec.output_shown:
            assert not command.shown, (
                f"{command.line}: output = 'not shown' but the file shows some"
            )


@pytest.mark.parametrize("name", NAMES)
def test_example_runs_as_shown(name, tmp_path):
    spec = load_spec(name)
    skip = missing_requirements(spec, SHARED)
    if skip:
        pytest.skip(f"{name}: " + "; ".join(skip))
    commands = parse_console((EXAMPLES / f"{name}.console").read_text(encoding="utf-8"))
    workdir = prepare_workdir(spec, tmp_path, itbench_executable(), SHARED)
    env = dict(os.environ)
    # Unbuffered, so stdout and stderr interleave as a terminal shows them.
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("KUBECONFIG", None)
    outcomes = run_example(spec, commands, workdir, env)
    problems = [outcome.problem for outcome in outcomes if outcome.problem]
    assert not problems, f"docs/examples/{name}.console:\n\n" + "\n\n".join(problems)
    ran = sum(1 for command_spec in spec.commands if command_spec.run)
    assert len(outcomes) == ran


# Ids without line numbers, so they stay put while the pages grow around them.
@pytest.mark.parametrize(
    ("where", "arguments"), COMMANDS, ids=[where.split(": ", 1)[1] for where, _ in COMMANDS]
)
def test_docs_command_parses(where, arguments):
    """Every itbench command the docs show, run or not, is accepted by the CLI's parser."""
    problems = parse_problems(arguments)
    assert not problems, f"{where}: " + "; ".join(problems)
    path = help_path(arguments)
    from itbench.cli.main import cli

    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, f"{where}: itbench {' '.join(path)} --help: {result.output}"
    assert result.output.startswith("Usage: "), result.output


# --- the machinery itself ---------------------------------------------------------------------


def test_parse_console_splits_commands_and_their_output():
    commands = parse_console("$ a --x\none\ntwo\n$ b &\n$ c\n")
    assert [(c.command, c.shown) for c in commands] == [
        ("a --x", ("one", "two")),
        ("b &", ()),
        ("c", ()),
    ]
    assert [c.background for c in commands] == [False, True, False]


def test_parse_console_refuses_output_before_a_command():
    with pytest.raises(ExampleError, match="line 1: output before the first"):
        parse_console("stray\n$ a\n")


def test_normalise_touches_only_the_named_variable_values(tmp_path):
    text = f"paa   web-1   Running   0   12s   \n{tmp_path}/out/x.json on 127.0.0.1:40835\n\n"
    assert (
        normalise(text, ())
        == f"paa   web-1   Running   0   12s\n{tmp_path}/out/x.json on 127.0.0.1:40835"
    )
    assert normalise(text, ("age", "port", "workdir"), tmp_path) == (
        "paa   web-1   Running   0   <age>\nout/x.json on 127.0.0.1:<port>"
    )
    # A number inside a line is not an age, and 3m10s is one.
    assert normalise("replicas 5s ok\nx  3m10s", ("age",)) == "replicas 5s ok\nx  <age>"
    report = "paa  48281993-9198-5958-8456-3f5574716a1d  Pod  0.52 s  100.00"
    assert normalise(report, ("uid", "duration")) == "paa  <uid>  Pod  <s>  100.00"
    assert normalise(report, ()) == report


def test_itbench_arguments_reads_synopses_and_stops_at_shell_operators():
    assert itbench_arguments("OPENAI_API_KEY=x .venv/bin/itbench finops run --trials 3") == [
        "finops",
        "run",
        "--trials",
        "3",
    ]
    assert itbench_arguments(".venv/bin/itbench kyverno apply p.yaml [--format json|yaml]") == [
        "kyverno",
        "apply",
        "p.yaml",
        "--format",
        "json",
    ]
    assert itbench_arguments(".venv/bin/itbench cluster serve m/ &   # bg") == [
        "cluster",
        "serve",
        "m/",
    ]
    assert itbench_arguments("kubectl get pods") is None


def test_parse_problems_names_unknown_flags_bad_choices_and_leftovers():
    assert parse_problems(["rego", "eval", "-d", "p.rego", "data.x"]) == []
    assert any("--no-such-flag" in p for p in parse_problems(["domains", "--no-such-flag"]))
    assert any("--format" in p for p in parse_problems(["lint", ".", "--format", "yaml"]))
    assert any("extra argument" in p for p in parse_problems(["domains", "surplus"]))
    assert any("no such command" in p for p in parse_problems(["nonexistent"]))
    assert any("missing" in p for p in parse_problems(["ciso", "eval"]))


def test_bash_commands_joins_continuations_and_skips_output(tmp_path: Path):
    block = ReadmeBlock("console", "$ a \\\n    --b\nout\n$ c\n", 1, None)
    assert [command.split() for command in bash_commands(block)] == [["a", "--b"], ["c"]]


def test_run_example_reports_wrong_output_wrong_exit_and_a_dead_server(tmp_path):
    commands = parse_console(
        "$ echo actual\nshown\n$ exit 3\n$ true &\nserving\n$ echo kept; exit 1\nkept\n"
    )
    spec = ExampleSpec(
        name="synthetic",
        commands=(CommandSpec(), CommandSpec(), CommandSpec(), CommandSpec(exit=1)),
    )
    outcomes = run_example(spec, commands, tmp_path, dict(os.environ))
    problems = [outcome.problem for outcome in outcomes]
    assert "-shown\n+actual" in (problems[0] or "")
    assert "exit 3, the docs expect 0" in (problems[1] or "")
    # The background job ended without its line: its end is part of the comparison.
    assert "[background job ended with exit 0]" in (problems[2] or "")
    assert problems[3] is None


def test_run_example_only_parses_commands_marked_not_run(tmp_path):
    commands = parse_console("$ touch ran\n$ echo checked\nchecked\n")
    spec = ExampleSpec(
        name="synthetic", commands=(CommandSpec(run=False, reason="offline"), CommandSpec())
    )
    outcomes = run_example(spec, commands, tmp_path, dict(os.environ))
    assert [outcome.command for outcome in outcomes] == ["echo checked"]
    assert not (tmp_path / "ran").exists()
