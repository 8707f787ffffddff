"""Run generated code (Ansible playbooks, fetch scripts) in a bubblewrap sandbox."""

from itbench.sandbox.availability import SandboxUnavailable
from itbench.sandbox.runner import SandboxResult, run_sandboxed

__all__ = ["SandboxResult", "SandboxUnavailable", "run_sandboxed"]
