"""A rhel9 trial runs the agent's playbook as uid 0 (without capabilities): it must still see
nothing of the host that only root may read, wherever it lies (not only under /etc). The agent
below plants a playbook that prints such files through a failing task's message, which lands in
the world-readable ``evaluation.json``."""

from __future__ import annotations

import os
import secrets
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests._support.cli import run_cli

PLAYBOOK = """\
- name: look around the host
  hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: print what root alone may read
      ansible.builtin.shell: "cat {targets} 2>&1; true"
      register: seen
      changed_when: false
    - name: hand it back
      ansible.builtin.fail:
        msg: "SEEN {{{{ seen.stdout }}}}"
"""


@pytest.fixture
def root_only(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A 0600 file in a 0700 folder under /var/cache and a 0600 log file under /var/log, each
    holding a token of its own."""
    if os.geteuid() != 0:
        pytest.skip("only root can lay root-only files on the host")
    ansible = Path(sys.executable).parent / "ansible-playbook"  # where the runner looks
    if shutil.which("bwrap") is None or not ansible.exists():
        pytest.skip("the rhel9 class needs bubblewrap and Ansible beside this Python")
    tag = secrets.token_hex(6)
    folder = Path(f"/var/cache/itbench-probe-{tag}")
    log = Path(f"/var/log/itbench-probe-{tag}.log")
    tokens = {"in a private folder": f"cachetoken{tag}", "a private file": f"logtoken{tag}"}
    folder.mkdir(mode=0o700)
    (folder / "state").write_text(tokens["in a private folder"] + "\n")
    (folder / "state").chmod(0o600)
    log.write_text(tokens["a private file"] + "\n")
    log.chmod(0o600)
    try:
        yield {"targets": f"{folder}/state {log}", **tokens}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        log.unlink(missing_ok=True)


def test_the_playbook_reads_no_root_only_host_file(root_only: dict[str, str], tmp_path: Path):
    playbook = PLAYBOOK.format(targets=root_only["targets"])
    command = (
        f"cat > playbook.yml <<'EOF'\n{playbook}EOF\n"
        "printf 'package check\\nresult := true\\n' > policy.rego"
    )
    out = tmp_path / "run"
    proc = run_cli(
        ["ciso", "run", "--scenarios", "cis-rhel9-3.2.1-ip-forward", "--agent-cmd", command]
        + ["--output", str(out), "--no-progress"],
        timeout=600,
        subprocess_only=True,  # the host's private entries are listed once per process
    )
    assert proc.returncode in (0, 1), proc.stderr
    written = "".join(p.read_text(errors="replace") for p in out.rglob("*") if p.is_file())
    assert "SEEN" in written  # the play ran and reported
    for what in ("in a private folder", "a private file"):
        assert root_only[what] not in written, what
