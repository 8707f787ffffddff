"""On the container backend, too, an agent that keeps uid 0 (its ``--agent-home`` is root's)
finds no byte of the host's root-only /sys files: the engine mounts the host's sysfs read-only
at /sys, masking only /sys/firmware, and the container's root reads the rest (slab statistics,
module parameters)."""

from __future__ import annotations

from pathlib import Path

from tests._support.cli import run_cli
from tests.ciso.test_ciso_sandbox_sys_root_only import _read_in, _reader, sys_files
from tests.sandbox.test_container_backend import engine_host, evaluation_image, on_container

__all__ = ["engine_host", "evaluation_image", "on_container", "sys_files"]  # fixtures used here


def test_a_root_agent_in_a_container_reads_no_root_only_sys_file(
    on_container: dict[str, str], sys_files: list[str], tmp_path: Path
) -> None:
    home = tmp_path / "home"  # root's: the agent runs as root
    home.mkdir()
    out = tmp_path / "run"
    command = f"{{ echo AGENT; {_reader(sys_files)}; }} > agent-saw.txt"
    proc = run_cli(
        ["ciso", "run", "--scenarios", "cis-rhel9-3.2.1-ip-forward", "--agent-cmd", command]
        + ["--agent-home", str(home), "--output", str(out), "--no-progress"],
        timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stderr
    agent = "".join(p.read_text(errors="replace") for p in out.rglob("agent-saw.txt"))
    assert "AGENT" in agent  # the agent's command ran
    read = {path: _read_in(agent, path) for path in sys_files}
    assert all(read.values()), f"the agent printed nothing for a file: {read}"
    leaked = {path: got for path, got in read.items() if any(got)}
    assert not leaked, f"read in the container: {leaked}"
