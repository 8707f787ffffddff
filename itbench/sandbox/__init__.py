"""Run generated code (Ansible playbooks, fetch scripts) in a bubblewrap sandbox."""

from itbench.sandbox.availability import SandboxUnavailable
from itbench.sandbox.runner import run_sandboxed
from itbench.sandbox.sandboxed import SandboxResult

__all__ = ["SandboxResult", "SandboxUnavailable", "run_sandboxed"]
