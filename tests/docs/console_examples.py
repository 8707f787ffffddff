"""The documentation's console examples as files the test suite runs (typer's "docs that cannot
rot").

The documentation is README.md and the pages of the site under docs/ (``doc_pages()``). An example
is ``docs/examples/<name>.console``: the exact text of one console block of a page, ``$ command``
lines each followed by the output the page shows. The page names the file in an HTML comment on
the line just before the block (``<!-- example: docs/examples/x.console -->``) and the block must
equal the file. Beside it:

- ``docs/examples/<name>.toml`` says how to run it: one ``[[command]]`` table per ``$`` line, in
  order, with ``exit`` (expected exit code, default 0), ``stderr = true`` when the shown output is
  stdout and stderr interleaved as a terminal shows them (otherwise only stdout is shown),
  ``output = "not shown"`` when the page shows no output for a command that prints some (only
  its exit code is checked), and ``run = false`` with a ``reason`` for a command that cannot run
  offline within the test budget (it is only parsed). Top-level keys: ``requires`` (``shared``,
  ``kubectl``, ``bwrap``, ``ansible``: skipped with that reason when missing), ``repo_links``
  (repository paths the example reads, linked into its working directory) and ``normalise``
  (which of the normalisations below apply).
- ``docs/examples/<name>/``, when present, is copied into the working directory first.

The working directory stands for the repository root: ``.venv/bin/itbench`` is the installed CLI
and ``../shared`` the shared corpora. A command ending in ``&`` starts in the background; its
output is compared once it has printed as many lines as the page shows, and it is stopped when
the example ends.

Normalisation is kept to values that differ between runs; each one is applied to both the shown
and the actual text, so the page keeps a realistic value:

- always: trailing spaces of a line and trailing empty lines (tools pad table cells);
- ``age``: the trailing AGE cell kubectl prints (``0s``, ``3m10s``);
- ``duration``: a measured time in seconds (``0.52 s``);
- ``port``: the free port a server picked (``127.0.0.1:40835``);
- ``uid``: a UUID the server generated (the uid of a loaded object, which a PolicyReport's name
  repeats);
- ``workdir``: the working directory's absolute path, which tools print where the page shows
  the path relative to the repository root.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import tomllib
from dataclasses import dataclass
from pathlib import Path

import click

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DOCS = REPO / "docs"
EXAMPLES = REPO / "docs" / "examples"
MARKER = re.compile(r"^<!-- example: (docs/examples/[\w.-]+\.console) -->$")
PROMPT = "$ "
NORMALISATIONS = ("age", "duration", "port", "uid", "workdir")
#: What an example may need that not every machine has, and how to tell it is there.
REQUIREMENTS = ("shared", "kubectl", "bwrap", "ansible")


@dataclass(frozen=True)
class ConsoleCommand:
    """One ``$`` line and the lines the page shows under it."""

    line: str
    shown: tuple[str, ...]

    @property
    def command(self) -> str:
        return self.line[len(PROMPT) :]

    @property
    def background(self) -> bool:
        return background_command(self.command) is not None


@dataclass(frozen=True)
class ReadmeBlock:
    """A fenced code block of a documentation page."""

    language: str
    text: str
    line_number: int
    example: str | None
    page: str = "README.md"

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line_number}"

    @property
    def shows_output(self) -> bool:
        return any(line.strip() and not line.startswith(PROMPT) for line in self.text.splitlines())


@dataclass(frozen=True)
class CommandSpec:
    """How the docs test treats one ``$`` line of an example."""

    run: bool = True
    reason: str = ""
    exit: int = 0
    stderr: bool = False
    output_shown: bool = True


@dataclass(frozen=True)
class ExampleSpec:
    name: str
    commands: tuple[CommandSpec, ...]
    requires: tuple[str, ...] = ()
    repo_links: tuple[str, ...] = ()
    normalise: tuple[str, ...] = ()


class ExampleError(ValueError):
    """An example file or its specification is malformed (names the file and the field)."""


def parse_console(text: str) -> list[ConsoleCommand]:
    """Split a console transcript into commands; text before the first ``$`` is an error."""
    commands: list[ConsoleCommand] = []
    line: str | None = None
    shown: list[str] = []
    for number, current in enumerate(text.splitlines(), 1):
        if current.startswith(PROMPT):
            if line is not None:
                commands.append(ConsoleCommand(line, tuple(shown)))
            line, shown = current, []
        elif line is None:
            raise ExampleError(f"line {number}: output before the first '$ ' command: {current!r}")
        else:
            shown.append(current)
    if line is not None:
        commands.append(ConsoleCommand(line, tuple(shown)))
    return commands


def doc_pages() -> list[Path]:
    """README.md and every page of the site (docs/examples holds data, not pages)."""
    pages = sorted(path for path in DOCS.rglob("*.md") if EXAMPLES not in path.parents)
    return [README, *pages]


def doc_blocks() -> list[ReadmeBlock]:
    """Every fenced block of every documentation page."""
    blocks: list[ReadmeBlock] = []
    for path in doc_pages():
        page = path.relative_to(REPO).as_posix()
        for block in readme_blocks(path.read_text(encoding="utf-8")):
            blocks.append(
                ReadmeBlock(block.language, block.text, block.line_number, block.example, page)
            )
    return blocks


def readme_blocks(text: str) -> list[ReadmeBlock]:
    """Every fenced block of a Markdown text, with the example file it declares, if any."""
    blocks: list[ReadmeBlock] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        fence = lines[index]
        if not fence.startswith("```"):
            index += 1
            continue
        start = index
        end = index + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        marker = MARKER.match(lines[start - 1]) if start > 0 else None
        body = "\n".join(lines[start + 1 : end])
        blocks.append(
            ReadmeBlock(
                language=fence[3:].strip(),
                text=body + "\n" if body else "",
                line_number=start + 1,
                example=marker.group(1) if marker else None,
            )
        )
        index = end + 1
    return blocks


def load_spec(name: str) -> ExampleSpec:
    path = EXAMPLES / f"{name}.toml"
    if not path.is_file():
        raise ExampleError(f"{path}: missing (every example needs its run specification)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ExampleError(f"{path}: not valid TOML: {exc}") from exc
    unknown = set(data) - {"requires", "repo_links", "normalise", "command"}
    if unknown:
        raise ExampleError(f"{path}: unknown key(s) {sorted(unknown)}")
    for key, allowed in (("requires", REQUIREMENTS), ("normalise", NORMALISATIONS)):
        bad = [value for value in data.get(key, []) if value not in allowed]
        if bad:
            raise ExampleError(f"{path}: {key}: {bad} not among {list(allowed)}")
    commands = []
    for number, table in enumerate(data.get("command", []), 1):
        unknown = set(table) - {"run", "reason", "exit", "stderr", "output"}
        if unknown:
            raise ExampleError(f"{path}: command {number}: unknown key(s) {sorted(unknown)}")
        spec = CommandSpec(
            run=table.get("run", True),
            reason=table.get("reason", ""),
            exit=table.get("exit", 0),
            stderr=table.get("stderr", False),
            output_shown=table.get("output", "shown") != "not shown",
        )
        if not spec.run and not spec.reason:
            raise ExampleError(f"{path}: command {number}: run = false needs a reason")
        commands.append(spec)
    return ExampleSpec(
        name=name,
        commands=tuple(commands),
        requires=tuple(data.get("requires", [])),
        repo_links=tuple(data.get("repo_links", [])),
        normalise=tuple(data.get("normalise", [])),
    )


def example_names() -> list[str]:
    return sorted(path.stem for path in EXAMPLES.glob("*.console"))


# --- normalisation ---------------------------------------------------------------------------

_AGE = re.compile(r"(?<=\s)\d+[smhd](\d+[smh])?$")
_DURATION = re.compile(r"\b\d+(\.\d+)? s\b")
_PORT = re.compile(r"127\.0\.0\.1:\d+")
_UID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")


def normalise(text: str, kinds: tuple[str, ...], workdir: Path | None = None) -> str:
    if "workdir" in kinds and workdir is not None:
        text = text.replace(f"{workdir}/", "").replace(str(workdir), ".")
    lines = [line.rstrip() for line in text.splitlines()]
    if "age" in kinds:
        lines = [_AGE.sub("<age>", line) for line in lines]
    if "duration" in kinds:
        lines = [_DURATION.sub("<s>", line) for line in lines]
    if "port" in kinds:
        lines = [_PORT.sub("127.0.0.1:<port>", line) for line in lines]
    if "uid" in kinds:
        lines = [_UID.sub("<uid>", line) for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


# --- commands as shell and as itbench arguments ----------------------------------------------

_BACKGROUND = re.compile(r"^(?P<command>.*?)\s+&\s*(#.*)?$")


def background_command(command: str) -> str | None:
    """The command without its trailing ``&`` (and comment), or None when it runs in front."""
    match = _BACKGROUND.match(command)
    return match.group("command") if match else None


_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SHELL_OPERATORS = {"|", "||", "&", "&&", ";", ">", ">>", "<", "2>", "2>&1"}


def itbench_arguments(command: str) -> list[str] | None:
    """The arguments after ``.venv/bin/itbench``, or None for another program.

    Synopsis lines are read as synopses: ``[--flag]`` is checked as if given, and of ``a|b`` the
    first alternative is used (a pipe ends the command, as in a shell).
    """
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;<>")
    lexer.whitespace_split = True
    words = list(lexer)
    while words and _ASSIGNMENT.match(words[0]):
        words.pop(0)
    if not words or words[0] != ".venv/bin/itbench":
        return None
    arguments: list[str] = []
    for word in words[1:]:
        if word in _SHELL_OPERATORS:
            break
        word = word.removeprefix("[").removesuffix("]")
        if word:
            arguments.append(word)
    return arguments


def bash_commands(block: ReadmeBlock) -> list[str]:
    """Commands of a console or bash block, ``$`` stripped and ``\\`` continuations joined."""
    commands: list[str] = []
    pending = ""
    for raw in block.text.splitlines():
        if block.language == "console":
            if not raw.startswith(PROMPT) and not pending:
                continue
            raw = raw.removeprefix(PROMPT)
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        commands.append(pending + raw)
        pending = ""
    return [command for command in commands if command.strip()]


def parse_problems(arguments: list[str]) -> list[str]:
    """What the CLI's own parser rejects in ``arguments``, without running anything.

    Every option must exist on the command it is given to and its value must convert (a path
    that does not exist here is accepted: the examples name the reader's files), required
    parameters must be present and no argument may be left over.
    """
    from itbench.cli.main import cli

    command: click.Command = cli
    name = "itbench"
    parent: click.Context | None = None
    remaining = list(arguments)
    try:
        while True:
            # The parser alone (no value conversion) reports unknown options and missing values,
            # which resilient parsing would swallow; resilient parsing then reads the values
            # without failing on a path that does not exist here.
            # with the command's own settings: a command taking free-form options
            # (ignore_unknown_options) accepts what its parser is built to pass through
            strict = click.Context(
                command, info_name=name, parent=parent, **command.context_settings
            )
            command.make_parser(strict).parse_args(list(remaining))
            context = command.make_context(name, remaining, parent=parent, resilient_parsing=True)
            if not isinstance(command, click.Group):
                return _leaf_problems(command, context, name)
            rest = [*getattr(context, "_protected_args", []), *context.args]
            if not rest:
                return [f"{name}: no subcommand given"]
            sub_name, sub_command, remaining = command.resolve_command(context, rest)
            if sub_command is None or sub_name is None:
                return [f"{name}: no such command {rest[0]!r}"]
            command, name, parent = sub_command, sub_name, context
    except click.UsageError as exc:
        return [f"{name}: {exc.format_message()}"]


def _leaf_problems(command: click.Command, context: click.Context, name: str) -> list[str]:
    problems = []
    if context.args and not (command.allow_extra_args or context.allow_extra_args):
        problems.append(f"{name}: unexpected extra argument(s) {context.args}")
    for parameter in command.params:
        if parameter.name is None or parameter.expose_value is False:
            continue
        source = context.get_parameter_source(parameter.name)
        given = source is click.core.ParameterSource.COMMANDLINE
        label = parameter.opts[0] if isinstance(parameter, click.Option) else parameter.name
        if parameter.required and not given:
            problems.append(f"{name}: missing {label}")
        # Resilient parsing turns a value that did not convert into None.
        converted = context.params.get(parameter.name)
        if given and converted in (None, ()) and not isinstance(parameter.type, click.Path):
            problems.append(f"{name}: {label}: the value given does not convert")
    return problems


def help_path(arguments: list[str]) -> list[str]:
    """The command path in ``arguments`` (the words before the first option or operand)."""
    from itbench.cli.main import cli

    path: list[str] = []
    command: click.Command = cli
    context = click.Context(cli, info_name="itbench")
    for word in arguments:
        if not isinstance(command, click.Group):
            break
        sub = command.get_command(context, word)
        if sub is None:
            break
        path.append(word)
        command = sub
    return path


def missing_requirements(spec: ExampleSpec, shared: Path) -> list[str]:
    reasons = []
    for requirement in spec.requires:
        if requirement == "shared" and not shared.is_dir():
            reasons.append(f"{shared} is absent (shared corpora)")
        if requirement in ("kubectl", "bwrap") and shutil.which(requirement) is None:
            reasons.append(f"no {requirement} on PATH")
        # itbench runs the ansible-playbook installed beside its own interpreter first.
        venv_bin = str(Path(sys.executable).parent)
        search = os.pathsep.join([venv_bin, os.environ.get("PATH", "")])
        if requirement == "ansible" and shutil.which("ansible-playbook", path=search) is None:
            reasons.append("no ansible-playbook in the virtual environment or on PATH")
        if requirement == "bwrap" and shutil.which("bwrap") is not None:
            from itbench.sandbox import SandboxUnavailable
            from itbench.sandbox.availability import bwrap_path

            try:
                bwrap_path()
            except SandboxUnavailable as exc:
                reasons.append(f"no sandbox here: {exc}")
    return reasons


# --- running an example ----------------------------------------------------------------------


@dataclass(frozen=True)
class CommandOutcome:
    """What one ``$`` line did, next to what the page shows."""

    command: str
    expected_exit: int | None
    exit_code: int | None
    shown: str
    actual: str

    @property
    def problem(self) -> str | None:
        if self.expected_exit is not None and self.exit_code != self.expected_exit:
            return (
                f"$ {self.command}\nexit {self.exit_code}, the docs expect {self.expected_exit}\n"
                f"output:\n{self.actual}"
            )
        if self.shown != self.actual:
            diff = "\n".join(
                difflib.unified_diff(
                    self.shown.splitlines(),
                    self.actual.splitlines(),
                    "docs",
                    "actual",
                    lineterm="",
                )
            )
            return f"$ {self.command}\noutput differs from the docs:\n{diff}"
        return None


def prepare_workdir(spec: ExampleSpec, root: Path, itbench: str, shared: Path) -> Path:
    """A working directory that stands for the repository root, with the example's files."""
    workdir = root / "work"
    workdir.mkdir()
    (root / "shared").symlink_to(shared, target_is_directory=True)
    (workdir / ".venv" / "bin").mkdir(parents=True)
    (workdir / ".venv" / "bin" / "itbench").symlink_to(itbench)
    fixtures = EXAMPLES / spec.name
    if fixtures.is_dir():
        shutil.copytree(fixtures, workdir, dirs_exist_ok=True)
    for link in spec.repo_links:
        target = workdir / link
        if target.exists():
            raise ExampleError(f"{spec.name}.toml: repo_links: {link} is also a fixture")
        target.symlink_to(REPO / link)
    return workdir


def run_example(
    spec: ExampleSpec, commands: list[ConsoleCommand], workdir: Path, env: dict[str, str]
) -> list[CommandOutcome]:
    """Run every runnable command in order in ``workdir``; background jobs end with the example."""
    outcomes: list[CommandOutcome] = []
    background: list[subprocess.Popen[str]] = []
    try:
        for command, command_spec in zip(commands, spec.commands, strict=True):
            if not command_spec.run:
                continue
            shown = normalise("\n".join(command.shown), spec.normalise)
            stderr = subprocess.STDOUT if command_spec.stderr else subprocess.DEVNULL
            in_background = background_command(command.command)
            if in_background is not None:
                process = subprocess.Popen(
                    ["bash", "-c", f"exec {in_background}"],
                    cwd=workdir,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=stderr,
                    text=True,
                    start_new_session=True,
                )
                background.append(process)
                lines = _read_lines(process, len(command.shown), timeout=BACKGROUND_TIMEOUT_S)
                if len(lines) < len(command.shown):
                    # Its output ended early: let a job that is exiting finish, to say so.
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.wait(timeout=5)
                actual = normalise("\n".join(lines), spec.normalise, workdir)
                exit_code = process.poll()
                if exit_code is not None:
                    # A server shown with `&` must still be serving: make its end part of the diff.
                    actual += f"\n[background job ended with exit {exit_code}]"
                outcomes.append(CommandOutcome(command.command, None, exit_code, shown, actual))
                continue
            completed = subprocess.run(
                ["bash", "-c", command.command],
                cwd=workdir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                timeout=COMMAND_TIMEOUT_S,
            )
            actual = normalise(completed.stdout, spec.normalise, workdir)
            outcomes.append(
                CommandOutcome(
                    command.command,
                    command_spec.exit,
                    completed.returncode,
                    shown if command_spec.output_shown else actual,
                    actual,
                )
            )
    finally:
        for process in background:
            _stop(process)
    return outcomes


COMMAND_TIMEOUT_S = 90
BACKGROUND_TIMEOUT_S = 30


def _read_lines(process: subprocess.Popen[str], count: int, timeout: float) -> list[str]:
    """The first ``count`` lines a background job prints (fewer if it ends or times out)."""
    lines: list[str] = []
    done = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if len(lines) >= count:
                break
        done.set()

    if count:
        threading.Thread(target=read, daemon=True).start()
        done.wait(timeout)
    return list(lines[:count])


def _stop(process: subprocess.Popen[str]) -> None:
    # The job was started in its own session: its process group holds it and its children.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    if process.stdout is not None:
        process.stdout.close()
