"""``kubectl`` as a function tool for the ``llm`` agent of a mitigation trial, guarded: it runs
against the trial's own cluster only (the workspace's ``kubeconfig.yaml``), never through a
shell, and refuses what would reach elsewhere — another kubeconfig, server, context or
identity, local files, port forwarding, proxies, plugins, or kubectl's own configuration."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from itbench.cluster.kubeconfig import AgentKubeconfig
from itbench.cluster.kubectl_guard import host_reach
from itbench.errors import InputError
from itbench.llm.tools import Tool

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
_FILE_FLAGS = ("-f", "--filename", "-k", "--kustomize")
#: flags whose value may come before the command (``-n otel-demo exec``)
_VALUE_FLAGS = frozenset({"-n", "--namespace", "-v", "--v", "--request-timeout", "-o", "--output",
                          "-l", "--selector"})  # fmt: skip
MAX_OUTPUT = 20_000


def refusal(args: Sequence[str]) -> str:
    """Why ``args`` may not run ('' if they may)."""
    if not args or not all(isinstance(a, str) for a in args):
        return "args must be a non-empty list of strings (kubectl's arguments, no 'kubectl')"
    for i, arg in enumerate(args):
        name = arg.split("=", 1)[0]
        if name in _TARGET_FLAGS or any(arg.startswith(f + "=") for f in _TARGET_FLAGS):
            return f"{name} is not allowed: the tool talks to the trial's cluster only"
        if name in _FILE_FLAGS:
            value = (
                arg.split("=", 1)[1] if "=" in arg else (args[i + 1] if i + 1 < len(args) else "")
            )
            if value != "-":
                return f"{name} {value}: no local files; pass the manifest as 'stdin' with -f -"
    why = host_reach(args)
    if why:
        return why
    command, skip = "", False
    for arg in args:
        if skip:
            skip = False
        elif arg in _VALUE_FLAGS:
            skip = True  # its value is not the command
        elif not arg.startswith("-"):
            command = arg
            break
    if command in _REFUSED_COMMANDS:
        return f"kubectl {command} is not allowed here"
    return ""


def kubectl_tool(workspace: Path) -> Tool:
    # read now, before the agent acts: the runner's own text; a text the agent wrote since is
    # checked before kubectl (run here as the runner's user) acts on it (AgentKubeconfig)
    kubeconfig = AgentKubeconfig(workspace / KUBECONFIG_FILE)

    def run(args: list[str], stdin: str | None = None) -> dict[str, Any]:
        why = refusal(args)
        if why:
            return {"error": why}
        try:
            with kubeconfig.file() as config:
                # kubectl's home (its discovery cache) in the runner's private folder of this
                # call, never in the workspace: a link the agent planted anywhere below a home
                # there would take kubectl's writes to any folder of the machine
                home = config.parent / "home"
                home.mkdir()
                env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                       "KUBECONFIG": str(config)}  # fmt: skip
                done = subprocess.run(
                    ["kubectl", *args], input=stdin, capture_output=True, text=True, env=env,
                    timeout=60, cwd=home,
                )  # fmt: skip
        except subprocess.TimeoutExpired:
            return {"error": "kubectl took longer than 60 s (a watch? add --timeout)"}
        except FileNotFoundError as exc:
            if exc.filename == "kubectl":
                return {"error": "kubectl is not installed"}
            return {"error": "this trial has no cluster"}
        except InputError as exc:
            return {"error": f"refused: {exc}"}
        except (OSError, UnicodeDecodeError) as exc:
            return {"error": f"cannot run kubectl: {exc}"}
        return {
            "exit_code": done.returncode,
            "stdout": done.stdout[-MAX_OUTPUT:],
            "stderr": done.stderr[-MAX_OUTPUT:],
        }

    return Tool(
        "kubectl",
        "Run kubectl against the incident's cluster (get, describe, logs, rollout, scale, set, "
        "patch, delete, apply -f - with the manifest in 'stdin', ...). Arguments only, no "
        "'kubectl' and no shell; other clusters, contexts, local files, exec and port-forward "
        "are refused.",
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
