"""What no agent's kubectl call may ask for, whichever tool runs it.

The agents' kubectl tools run kubectl as the runner's user, outside any sandbox, with arguments
an agent chose. Besides the cluster and identity flags each tool refuses, kubectl can read a host
file into its output (``-o go-template-file=/etc/shadow`` prints it once per object), write a
host file (``--profile=cpu --profile-output=/etc/passwd``) and read manifests from anywhere
(``-f``). A flag can also hide in a one-letter cluster: pflag reads ``-f/etc/x`` and ``-f=/etc/x``
as ``-f /etc/x``, ``-shttps://elsewhere`` as ``--server``, ``-Rf x`` as ``-R -f x``; a tool that
compares whole arguments with its flag list misses them. :func:`host_reach` answers, for the
whole argument list, what it refuses and why.
"""

from __future__ import annotations

from collections.abc import Sequence

#: One-letter flags whose value may follow attached (``-ojson``, ``-lapp=web``, ``-nshop``,
#: ``-v4``, ``-cmain``, ``-p{...}``): what follows the letter is that flag's value, never more
#: flags. Any other letter with something attached is refused: write such flags one by one.
VALUE_SHORTHANDS = frozenset("nloLcpv")

#: Flags that read or write files of the host wherever they point: kubectl's profile, its logs,
#: templates read from a file, kustomize directories; and a command's own: what it reads into an
#: object the agent then gets back (``create configmap --from-file=/etc/shadow``, ``create
#: secret tls --cert/--key``, ``patch --patch-file``) or where it writes the cluster's objects
#: (``cluster-info dump --output-directory=/anywhere``).
FILE_FLAGS = frozenset(
    {
        "--profile",
        "--profile-output",
        "--log-file",
        "--log-dir",
        "--template",
        "--kustomize",
        "-k",
        "--cache-dir",
        "--from-file",
        "--from-env-file",
        "--cert",
        "--key",
        "--patch-file",
        "--output-directory",
    }
)

_OUTPUT_FLAGS = ("-o", "--output")


def _output_value(args: Sequence[str], index: int) -> str | None:
    """The ``-o`` / ``--output`` value at ``args[index]``, in any of its spellings."""
    arg = args[index]
    for flag in _OUTPUT_FLAGS:
        if arg == flag:
            return args[index + 1] if index + 1 < len(args) else ""
        if arg.startswith(flag + "="):
            return arg[len(flag) + 1 :]
    if arg.startswith("-o") and not arg.startswith("--"):
        return arg[2:]
    return None


def host_reach(args: Sequence[str]) -> str:
    """Why ``args`` would have kubectl read or write a host file or take a flag the caller's
    list cannot see ('' when they would not)."""
    for index, arg in enumerate(args):
        if not arg.startswith("-") or arg == "-":
            continue
        name = arg.split("=", 1)[0]
        if name in FILE_FLAGS:
            return f"{name} is not allowed: it reads or writes files outside your workspace"
        value = _output_value(args, index)
        if value is not None and "file" in value.split("=", 1)[0]:
            return "output formats that read a template file are not allowed"
        if not arg.startswith("--") and len(arg) > 2 and arg[1] not in VALUE_SHORTHANDS:
            return (
                f"{arg}: write one-letter flags one by one, each value apart "
                f"(-{arg[1]} VALUE), e.g. -A -f FILE"
            )
    return ""
