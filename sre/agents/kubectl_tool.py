"""``kubectl`` as a function tool for the ``llm`` agent of a mitigation trial, guarded: it runs
against the trial's own cluster only (the workspace's ``kubeconfig.yaml``), never through a
shell, and refuses what would reach elsewhere — another kubeconfig, server, context or
identity, files outside the workspace, port forwarding, proxies, plugins, or kubectl's own
configuration. Files of the workspace it reads by relative path (``-f deploy.yaml``,
``--from-file=conf/app.properties``): the confined call runs there, with the workspace mounted
read-only and nothing else of the machine's files."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from itbench.cluster.kubeconfig import AgentKubeconfig
from itbench.cluster.kubectl_guard import (
    command_of,
    filenames,
    host_reach,
    outside_workspace,
    parse,
)
from itbench.errors import InputError
from itbench.llm.tools import Tool
from itbench.sandbox.kubectl import run_confined_kubectl

KUBECONFIG_FILE = "kubeconfig.yaml"
#: global flags that would point kubectl at another cluster or identity
_TARGET_FLAGS = (
    "--kubeconfig", "--server", "-s", "--context", "--cluster", "--user", "--token", "--as",
    "--as-group", "--as-uid", "--certificate-authority", "--client-certificate",
    "--client-key", "--insecure-skip-tls-verify", "--tls-server-name", "--username",
    "--password", "--cache-dir",
)  # fmt: skip
#: subcommands that read or write local files, open connections or change kubectl itself
_REFUSED_COMMANDS = frozenset(
    {"config", "proxy", "port-forward", "cp", "exec", "attach", "debug", "plugin", "kustomize",
     "completion", "alpha", "edit", "krew"}
)  # fmt: skip
MAX_OUTPUT = 20_000
TIMEOUT_S = 60.0


def refusal(args: Sequence[str], workspace: Path | None = None) -> str:
    """Why ``args`` may not run ('' if they may); ``workspace``: the folder the call runs in,
    whose files it may read by relative path (none: manifests come on stdin only)."""
    if not args or not all(isinstance(a, str) for a in args):
        return "args must be a non-empty list of strings (kubectl's arguments, no 'kubectl')"
    for arg in args:
        name = arg.split("=", 1)[0]
        if name in _TARGET_FLAGS or any(arg.startswith(f + "=") for f in _TARGET_FLAGS):
            return f"{name} is not allowed: the tool talks to the trial's cluster only"
    why = host_reach(args, workspace)
    if why:
        return why
    # as kubectl reads them: -sURL is --server, -f- is stdin, logs -f follows
    for flag in parse(args).flags:
        if flag.name in _TARGET_FLAGS:
            return f"{flag.written} is not allowed: the tool talks to the trial's cluster only"
    for value in filenames(args):
        why = "" if value == "-" else outside_workspace(value, workspace)
        if why:
            return f"-f {value}: {why}; or pass the manifest as 'stdin' with -f -"
    command = command_of(args)
    if command in _REFUSED_COMMANDS:
        return f"kubectl {command} is not allowed here"
    return ""


def kubectl_tool(workspace: Path) -> Tool:
    # read now, before the agent acts: the runner's own text; a text the agent wrote since is
    # checked before kubectl acts on it (AgentKubeconfig)
    kubeconfig = AgentKubeconfig(workspace / KUBECONFIG_FILE)

    def run(args: list[str], stdin: str | None = None) -> dict[str, Any]:
        why = refusal(args, workspace)
        if why:
            return {"error": why}
        try:
            # confined (itbench.sandbox.kubectl): the trial's API server and the workspace,
            # read-only and its working folder, are all it reaches;
            # where no sandbox can be made, SandboxUnavailable ends the trial (never unconfined)
            done = run_confined_kubectl(
                args,
                kubeconfig=kubeconfig.text(),
                workspace=workspace,
                stdin=stdin,
                timeout_s=TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return {"error": f"kubectl took longer than {TIMEOUT_S:g} s (a watch? add --timeout)"}
        except FileNotFoundError as exc:
            if exc.filename == "kubectl":
                return {"error": "kubectl is not installed"}
            return {"error": "this trial has no cluster"}
        except InputError as exc:
            return {"error": f"refused: {exc}"}
        except (OSError, UnicodeDecodeError) as exc:
            return {"error": f"cannot run kubectl: {exc}"}
        return {
            "exit_code": done.exit_code,
            "stdout": done.stdout[-MAX_OUTPUT:],
            "stderr": done.stderr[-MAX_OUTPUT:],
        }

    return Tool(
        "kubectl",
        "Run kubectl against the incident's cluster (get, describe, logs, rollout, scale, set, "
        "patch, delete, apply -f - with the manifest in 'stdin' or -f FILE of your workspace, "
        "...). Arguments only, no 'kubectl' and no shell; files by a path relative to your "
        "workspace; other clusters, contexts, files outside the workspace, exec and "
        "port-forward are refused.",
        {
            "type": "object",
            "properties": {
                "args": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": 'kubectl\'s arguments, e.g. ["get", "pods", "-n", "otel-demo"]',
                },
                "stdin": {"type": "string", "description": "text for -f - (a manifest)"},
            },  # fmt: skip
            "required": ["args"],
        },
        run,
    )
