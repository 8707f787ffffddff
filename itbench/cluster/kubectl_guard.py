"""What no agent's kubectl call may ask for, whichever tool runs it.

The agents' kubectl runs confined (:mod:`itbench.sandbox.kubectl`); this is the first layer, in
front of it, and says why. kubectl can read a host file into its output (``-o
go-template-file=/etc/shadow`` prints it once per object), write a host file (``--profile=cpu
--profile-output=/etc/passwd``), read manifests from anywhere (``-f``) and run other programs: a
first word that is not one of its commands runs the plugin ``kubectl-<word>`` found on ``PATH``,
``diff`` runs an external diff program, ``edit`` (and ``create --edit``, ``apply
edit-last-applied``) an editor.

Flags are read as kubectl's parser (pflag) reads them, per command: ``-Ao wide`` is ``-A -o
wide``, ``-f-`` is ``-f -``, ``-f/etc/x`` and ``-f=/etc/x`` are ``-f /etc/x``,
``-shttps://elsewhere`` is ``--server``, ``-Rf x`` is ``-R -f x``; and ``-f`` is ``--follow`` in
``logs`` (``-p`` ``--previous``), ``--filename`` elsewhere. A tool that compares whole arguments
with its flag list misses those spellings: :func:`parse` names every flag by its long name,
:func:`host_reach` answers, for the whole argument list, what it refuses and why, and
:func:`filenames` what ``--filename`` reads.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: kubectl's own commands (1.32; ``alpha`` and ``options`` included). Any other first word is a
#: plugin: kubectl runs ``kubectl-<word>`` from ``PATH``.
BUILTIN_COMMANDS = frozenset(
    {"create", "expose", "run", "set", "explain", "get", "edit", "delete", "rollout", "scale",
     "autoscale", "certificate", "cluster-info", "top", "cordon", "uncordon", "drain", "taint",
     "describe", "logs", "attach", "exec", "port-forward", "proxy", "cp", "auth", "debug",
     "events", "diff", "apply", "patch", "replace", "wait", "kustomize", "label", "annotate",
     "completion", "api-resources", "api-versions", "config", "plugin", "version", "options",
     "help", "alpha"}
)  # fmt: skip

#: Built-in commands that run another program of the machine, and what to do instead.
RUNS_A_PROGRAM: Mapping[str, str] = {
    "diff": "kubectl diff runs an external diff program; use apply --dry-run=server -o yaml",
    "edit": "kubectl edit runs an editor; use patch or apply -f -",
    "plugin": "kubectl plugin lists and runs programs found on PATH",
}

#: One-letter flags whose value may follow attached (``-ojson``, ``-lapp=web``, ``-nshop``,
#: ``-v4``, ``-cmain``, ``-p{...}``): what follows the letter is that flag's value, never more
#: flags. Any other letter with a value attached is refused (``-f-``, stdin, aside; and
#: ``-fdeploy.yaml`` written alone, for a file of the caller's workspace): write such flags one
#: by one.
VALUE_SHORTHANDS = frozenset("nloLcpv")

#: Each one-letter flag's long name (kubectl's, all commands), where the letter takes a value.
_VALUE_LETTERS: Mapping[str, str] = {
    "n": "--namespace", "s": "--server", "v": "--v", "o": "--output", "f": "--filename",
    "l": "--selector", "L": "--label-columns", "c": "--container", "p": "--patch",
    "k": "--kustomize", "e": "--env", "u": "--unix-socket", "P": "--www-prefix",
}  # fmt: skip
#: One-letter switches (no value): ``-A``, ``-R``, ``-h``, ``-i``, ``-q``, ``-t``, ``-w``.
_SWITCH_LETTERS: Mapping[str, str] = {
    "A": "--all-namespaces", "R": "--recursive", "h": "--help", "i": "--stdin", "q": "--quiet",
    "t": "--tty", "w": "--watch",
}  # fmt: skip
#: Where a command gives a letter another meaning: (its value letters, its switches).
_COMMAND_LETTERS: Mapping[str, tuple[Mapping[str, str], Mapping[str, str]]] = {
    "logs": ({}, {"f": "--follow", "p": "--previous"}),
    "proxy": ({"w": "--www", "p": "--port"}, {}),
}

#: Global flags that take a value and may come before the command (``-n shop get pods``), with
#: the command flags the tools have always let stand there.
_LEADING_VALUE_FLAGS = frozenset(
    {"--as", "--as-group", "--as-uid", "--cache-dir", "--certificate-authority",
     "--client-certificate", "--client-key", "--cluster", "--context", "--kubeconfig",
     "--namespace", "--password", "--profile", "--profile-output", "--request-timeout",
     "--server", "--tls-server-name", "--token", "--user", "--username", "--v", "--vmodule",
     "--log-file", "--log-dir", "--output", "--selector"}
)  # fmt: skip
#: Long flags that always take a value: ``--filename x`` reads ``x``, ``--from-file k=x`` too.
_LONG_VALUE_FLAGS = _LEADING_VALUE_FLAGS | {
    "--filename", "--kustomize", "--template", "--from-file", "--from-env-file", "--cert",
    "--key", "--patch-file",
}  # fmt: skip

#: Flags that read or write files of the host wherever they point: kubectl's profile, its logs,
#: kustomize directories (a kustomization names remote bases kubectl would fetch), its cache;
#: where a command writes the cluster's objects (``cluster-info dump
#: --output-directory=/anywhere``) and what ``proxy`` serves or binds. Never a file of the
#: agent's: refused wherever they point.
FILE_FLAGS = frozenset(
    {
        "--profile",
        "--profile-output",
        "--log-file",
        "--log-dir",
        "--kustomize",
        "-k",
        "--cache-dir",
        "--output-directory",
        "--www",
        "--unix-socket",
    }
)
#: A command's own flags that read a file into what kubectl sends (``create configmap
#: --from-file``, ``create secret tls --cert/--key``, ``patch --patch-file``): the object then
#: hands the file back to the agent. A relative path that stays inside the caller's workspace
#: is the agent's own file (:func:`outside_workspace`); anything else is refused.
READ_FLAGS = frozenset({"--from-file", "--from-env-file", "--cert", "--key", "--patch-file"})
#: ``--template`` is inline text (``--template={{.status.phase}}``) unless ``-o`` names a
#: ``*-file`` format, whose file is read as these flags' are (:func:`_template_file`).


@dataclass(frozen=True)
class Flag:
    """One flag as kubectl reads it: its long name, its value (None for a switch or a long flag
    whose value kubectl may not take), how it was written."""

    name: str
    value: str | None
    written: str
    #: a one-letter flag whose value was attached to it (``-f/x``), or that closed a cluster
    #: of several letters and took the next argument (``-Rf x``)
    packed: bool = False
    #: the letter it was written as, in a cluster of one-letter flags ('' for a long flag)
    letter: str = ""


@dataclass(frozen=True)
class Parsed:
    """An argument list read as kubectl reads it; ``problem`` says why it cannot be (an unknown
    one-letter flag, a value given to a switch)."""

    command: str
    flags: tuple[Flag, ...]
    problem: str = ""


def command_of(args: Sequence[str]) -> str:
    """The first word that is neither a flag nor a leading flag's value ('' when none)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--":
            return ""
        elif arg.startswith("--"):
            skip = "=" not in arg and arg in _LEADING_VALUE_FLAGS
        elif arg.startswith("-") and len(arg) > 1:
            skip = len(arg) == 2 and arg[1] in "nsvol"
        else:
            return arg
    return ""


def _letters(command: str) -> tuple[Mapping[str, str], Mapping[str, str]]:
    values, switches = _COMMAND_LETTERS.get(command, ({}, {}))
    value_letters = {k: v for k, v in _VALUE_LETTERS.items() if k not in switches}
    switch_letters = {k: v for k, v in _SWITCH_LETTERS.items() if k not in values}
    return {**value_letters, **values}, {**switch_letters, **switches}


def _is_number(arg: str) -> bool:
    return arg[1:].isdigit()  # ``--tail -1``: a value, no flag has a digit for a letter


def parse(args: Sequence[str]) -> Parsed:
    """``args`` as kubectl's flag parser reads them for their command."""
    command = command_of(args)
    values, switches = _letters(command)
    flags: list[Flag] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            break
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if eq:
                flags.append(Flag(name, value, arg))
            elif name in _LONG_VALUE_FLAGS:
                flags.append(Flag(name, args[index] if index < len(args) else "", arg))
                index += 1
            else:
                flags.append(Flag(name, None, arg))
            continue
        if not arg.startswith("-") or arg == "-" or _is_number(arg):
            continue
        letters = arg[1:]
        for position, letter in enumerate(letters):
            rest = letters[position + 1 :]
            if letter in switches:
                if rest.startswith("="):
                    return Parsed(command, tuple(flags), f"{arg}: -{letter} takes no value")
                flags.append(Flag(switches[letter], None, arg, letter=letter))
                continue
            if letter not in values:
                return Parsed(command, tuple(flags), f"{arg}: kubectl {command} has no -{letter}")
            if rest:
                value = rest[1:] if rest.startswith("=") else rest
                flags.append(Flag(values[letter], value, arg, packed=True, letter=letter))
            else:
                value = args[index] if index < len(args) else ""
                index += 1
                flags.append(
                    Flag(values[letter], value, arg, packed=len(letters) > 1, letter=letter)
                )
            break
    return Parsed(command, tuple(flags))


def filenames(args: Sequence[str]) -> list[str]:
    """What ``--filename`` reads, in every spelling (never ``logs -f``, which follows)."""
    return [f.value or "" for f in parse(args).flags if f.name == "--filename"]


def outside_workspace(path: str, workspace: Path | None) -> str:
    """Why kubectl reading ``path`` (as written; the confined call's working folder is
    ``workspace``) would read something other than a file of ``workspace``: a URL (another
    server), an absolute path, a relative one that leaves it after ``..`` and symbolic links, or
    no workspace at all ('' when it stays inside)."""
    if "://" in path:
        return "a URL: kubectl would fetch it from another server"
    if not path:
        return "no file named"
    if os.path.isabs(path):
        return "an absolute path: name a file of your workspace by a relative path"
    if workspace is None:
        return "this tool has no workspace to read files from"
    root = workspace.resolve()
    try:
        # resolve follows each link as the kernel would: manifests/.. through a linked folder
        # lands wherever that link points
        target = (root / path).resolve()
    except (RuntimeError, ValueError, OSError) as exc:  # a link loop, a NUL byte
        return f"not a path kubectl can read ({exc})"
    if not target.is_relative_to(root):
        return "it leaves your workspace (through '..' or a symbolic link)"
    return ""


def _template_of(parsed: Parsed) -> str:
    """The last ``--template`` value: the file an ``-o FORMAT-file`` with no ``=PATH`` reads."""
    values = [f.value or "" for f in parsed.flags if f.name == "--template"]
    return values[-1] if values else ""


def _template_file(output: str, template: str, workspace: Path | None) -> str:
    """Why ``-o FORMAT-file=PATH`` (go-template-file, jsonpath-file, custom-columns-file,
    templatefile; the path may come as ``--template``) reads something other than a file of
    ``workspace`` ('' when it does not, or when the format reads no file): kubectl prints such a
    file's text back, so only the agent's own files may be named."""
    form, eq, path = output.partition("=")
    if "file" not in form.lower():
        return ""
    why = outside_workspace(path if eq else template, workspace)
    if not why:
        return ""
    return f"-o {output}: output formats that read a template file may only read your own ({why})"


def _read_paths(flag: Flag) -> list[str]:
    """The files a :data:`READ_FLAGS` flag reads: ``--from-file`` takes ``[key=]path``."""
    value = flag.value or ""
    if flag.name == "--from-file" and "=" in value:
        return [value, value.split("=", 1)[1]]  # either reading stays inside, or it is refused
    return [value]


def host_reach(args: Sequence[str], workspace: Path | None = None) -> str:
    """Why ``args`` would have kubectl read or write a host file, run another program or take a
    flag the caller's list cannot see ('' when they would not). ``workspace``: the folder the
    confined call runs in, whose files a :data:`READ_FLAGS` flag may read by relative path
    (without one, those flags are refused)."""
    parsed = parse(args)
    if parsed.problem:
        return f"{parsed.problem}: write one-letter flags one by one, e.g. -A -f FILE"
    command = parsed.command
    if command and command not in BUILTIN_COMMANDS:
        return (
            f"{command!r} is not a kubectl command: kubectl would run a plugin "
            f"(kubectl-{command}) found on PATH"
        )
    if command in RUNS_A_PROGRAM:
        return RUNS_A_PROGRAM[command]
    if command == "apply" and "edit-last-applied" in args:
        return RUNS_A_PROGRAM["edit"]
    for flag in parsed.flags:
        if flag.name == "--edit" and (flag.value or "true").lower() != "false":
            return f"{flag.written}: {RUNS_A_PROGRAM['edit']}"
        if flag.name in FILE_FLAGS:
            return (
                f"{flag.written.split('=', 1)[0]} is not allowed: it reads or writes files "
                "outside your workspace"
            )
        if flag.name in READ_FLAGS:
            for path in _read_paths(flag):
                why = outside_workspace(path, workspace)
                if why:
                    return f"{flag.name} {flag.value}: {why}"
        if flag.name == "--output":
            why = _template_file(flag.value or "", _template_of(parsed), workspace)
            if why:
                return why
        letter = flag.letter
        stdin = flag.name == "--filename" and flag.value == "-"
        if flag.packed and letter not in VALUE_SHORTHANDS and not stdin:
            # ``-fdeploy.yaml``: one letter, its value attached, which pflag reads as ``-f
            # deploy.yaml`` and nothing else; a file of the caller's workspace is read so
            if (
                flag.name == "--filename"
                and flag.written[1:2] == letter
                and not outside_workspace(flag.value or "", workspace)
            ):
                continue
            return (
                f"{flag.written}: write one-letter flags one by one, each value apart "
                f"(-{letter} VALUE), e.g. -A -f FILE"
            )
    return ""
