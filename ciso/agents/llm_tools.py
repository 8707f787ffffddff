"""The CISO tools of the ``llm`` agent (``DomainRun.llm_tools``), beside the core workspace tools
(write_file, read_file, list_files):

- ``kubectl`` against the trial's cluster (cluster classes only): read-only verbs; ``apply`` of
  Kyverno policies from the workspace for the kyverno classes. The workspace's kubeconfig is the
  only one it uses: flags that would point kubectl elsewhere or change who it acts as are refused.
- ``validate``: the CISO validator on the current answer (files, lint, compile, dry run).
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ciso.environments import KUBECONFIG_FILE
from ciso.scenarios.model import ScenarioClass
from itbench.cluster.kubeconfig import AgentKubeconfig
from itbench.cluster.kubectl_guard import filenames, host_reach
from itbench.errors import InputError
from itbench.fsutil import UnsafeFile, agent_file
from itbench.llm.tools import Tool
from itbench.models import PublicScenario
from itbench.sandbox.kubectl import run_confined_kubectl

READ_ONLY_VERBS = frozenset({"get", "describe", "api-resources", "explain", "api-versions"})
APPLY_CLASSES = frozenset({ScenarioClass.KYVERNO, ScenarioClass.KYVERNO_UPDATE})
CLUSTER_CLASSES = APPLY_CLASSES | {ScenarioClass.KUBECTL_OPA}
#: Flags that would reach another cluster, act as someone else, or never return.
REFUSED_FLAGS = (
    "--kubeconfig",
    "--server",
    "-s",
    "--token",
    "--context",
    "--cluster",
    "--user",
    "--as",
    "--as-group",
    "--as-uid",
    "--username",
    "--password",
    "--certificate-authority",
    "--client-certificate",
    "--client-key",
    "--insecure-skip-tls-verify",
    "--tls-server-name",
    "-w",
    "--watch",
    "--watch-only",
    # flags that read or write files on the host outside the workspace
    "-k",
    "--kustomize",
    "--template",
    "--log-file",
    "--log-dir",
    "--profile-output",
    "--cache-dir",
)
TIMEOUT_S = 30.0
MAX_OUTPUT = 20_000


class Refused(ValueError):
    pass


def _flag_name(arg: str) -> str:
    return arg.split("=", 1)[0]


def _inside(workspace: Path, relative: str) -> Path:
    root = workspace.resolve()
    target = (root / relative).resolve()
    if root not in target.parents:
        raise Refused(f"{relative!r} is not a file in your workspace")
    return target


def _workspace_file(workspace: Path, name: str) -> Path:
    target = _inside(workspace, name)
    try:
        found = agent_file(workspace, target.relative_to(workspace.resolve()))
    except UnsafeFile as exc:
        raise Refused(f"{exc} (-f takes a file of your workspace)") from None
    if found is None:
        raise Refused(f"{name}: no such file in your workspace (-f takes a file, not a folder)")
    return found


def _check_policy_file(path: Path, shown: str) -> None:
    from ciso.environments.kubernetes import is_policy
    from itbench.yamlsafe import load_all

    if not path.is_file():
        raise Refused(f"{shown}: no such file in your workspace")
    try:
        documents = [d for d in load_all(path.read_text(encoding="utf-8")) if d is not None]
    except Exception as exc:
        raise Refused(f"{shown}: not readable YAML: {exc}") from None
    others = [
        str(d.get("kind") if isinstance(d, dict) else type(d).__name__)
        for d in documents
        if not (isinstance(d, dict) and is_policy(d))
    ]
    if not documents or others:
        raise Refused(
            f"{shown}: apply takes Kyverno ClusterPolicy/Policy documents only"
            + (f" (found {', '.join(others)})" if others else " (the file is empty)")
        )


def checked_arguments(command: str, workspace: Path, scenario_class: ScenarioClass) -> list[str]:
    """The kubectl arguments, or :class:`Refused` saying why not."""
    try:
        args = shlex.split(command)
    except ValueError as exc:
        raise Refused(f"cannot split the command: {exc}") from None
    if args and args[0] == "kubectl":
        args = args[1:]
    if not args:
        raise Refused("no kubectl verb given")
    for arg in args:
        if arg.startswith("-") and _flag_name(arg) in REFUSED_FLAGS:
            raise Refused(f"flag {_flag_name(arg)} is not allowed: kubectl uses your cluster")
    for index, arg in enumerate(args):
        # -o go-template-file=/etc/... would print any host file the runner can read
        value = arg.split("=", 1)[1] if "=" in arg else ""
        if arg in ("-o", "--output") and index + 1 < len(args):
            value = args[index + 1]
        if (arg.startswith(("-o", "--output")) or arg in ("-o", "--output")) and "-file" in value:
            raise Refused("output formats that read a template file are not allowed")
    # and what hides in a one-letter cluster (-f/etc/x, -shttps://elsewhere) or reaches a host
    # file otherwise (--profile-output)
    why = host_reach(args)
    if why:
        raise Refused(why)
    verb = args[0]
    # kubectl reads each -f by path as the runner's user: a folder (every file in it, a link the
    # shell tool planted there included) or a URL (fetched from the runner's network) would
    # reach past the workspace, so -f takes a regular file of the workspace, reached without a link
    files = filenames(args)  # in every spelling kubectl reads (-f x, --filename=x, -Rf x)
    for name in files:
        _workspace_file(workspace, name)
    if verb == "apply":
        if scenario_class not in APPLY_CLASSES:
            raise Refused("apply is only for Kyverno policies in the kyverno classes")
        if not files:
            raise Refused("apply needs -f <file in your workspace>")
        for name in files:
            _check_policy_file(_inside(workspace, name), name)
    elif verb not in READ_ONLY_VERBS:
        allowed = ", ".join(sorted(READ_ONLY_VERBS)) + (
            ", apply (Kyverno policies)" if scenario_class in APPLY_CLASSES else ""
        )
        raise Refused(f"verb {verb!r} is not allowed; allowed: {allowed}")
    return args


def run_kubectl(
    command: str,
    workspace: Path,
    scenario_class: ScenarioClass,
    kubeconfig: AgentKubeconfig | None = None,
) -> str:
    """``kubectl <command>`` for the agent, on the workspace's kubeconfig as ``kubeconfig`` hands
    it out (the runner's text as written, an agent's rewrite only once checked), confined."""
    try:
        args = checked_arguments(command, workspace, scenario_class)
    except Refused as exc:
        return f"refused: {exc}"
    # without the tool's kubeconfig (read when it was made), the text now is checked like any
    config = kubeconfig or AgentKubeconfig(workspace / KUBECONFIG_FILE, pin=False)
    try:
        # confined (itbench.sandbox.kubectl): the scenario's API server and the workspace, read
        # only, are all it reaches; SandboxUnavailable ends the trial (never run unconfined)
        proc = run_confined_kubectl(
            args, kubeconfig=config.text(), workspace=workspace, timeout_s=TIMEOUT_S
        )
    except FileNotFoundError as exc:
        if exc.filename == "kubectl":
            return "error: kubectl is not installed"
        return f"error: no {KUBECONFIG_FILE} in the workspace (no cluster)"
    except InputError as exc:
        return f"refused: {exc}"
    except subprocess.TimeoutExpired:
        return f"error: kubectl did not finish within {TIMEOUT_S:g} s"
    except (OSError, UnicodeDecodeError) as exc:
        return f"error: cannot run kubectl: {exc}"
    text = proc.stdout + (f"\nstderr:\n{proc.stderr}" if proc.stderr.strip() else "")
    if proc.exit_code != 0:
        text = f"exit code {proc.exit_code}\n{text}"
    if len(text) > MAX_OUTPUT:
        text = text[:MAX_OUTPUT] + f"\n... (truncated; {len(text)} characters in all)"
    return text or "(no output)"


def ciso_tools(scenario: PublicScenario, workspace: Path) -> Sequence[Tool]:
    """The ``DomainRun.llm_tools`` hook."""
    from ciso.validation import render, scenario_class_of, validate

    cls = scenario_class_of(scenario)
    tools = [
        Tool(
            "validate",
            "Check your answer files as the benchmark will load them: required file names, lint, "
            "compile/syntax errors, then a dry run on the environment you were given (what your "
            "collector wrote, what data.check.result is, which resources your Kyverno policy "
            "reports fail for). Call it after writing your files; fix every problem it lists.",
            {"type": "object", "properties": {}},
            lambda: render(validate(scenario, workspace)),
        )
    ]
    if cls in CLUSTER_CLASSES:
        # read now, before the agent acts: the runner's own text (see AgentKubeconfig)
        kubeconfig = AgentKubeconfig(workspace / KUBECONFIG_FILE)
        verbs = "get, describe, api-resources, explain" + (
            "; apply -f <workspace file> for Kyverno policies" if cls in APPLY_CLASSES else ""
        )
        tools.append(
            Tool(
                "kubectl",
                f"Run kubectl against the scenario's cluster ({verbs}). Give the arguments "
                "after 'kubectl', e.g. 'get deployments -A -o json'. The kubeconfig is set for "
                "you; --kubeconfig, --server, --token and similar flags are refused.",
                {
                    "type": "object",
                    "properties": {"command": {"type": "string"}},
                    "required": ["command"],
                },
                lambda command: run_kubectl(command, workspace, cls, kubeconfig),
            )
        )
    return tools
