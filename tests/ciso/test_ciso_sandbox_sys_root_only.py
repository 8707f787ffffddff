"""The kernel's /sys holds files only root may read (ACPI tables, slab statistics, DMI serials).
Sandboxed code may run as uid 0 without capabilities, which still reads them: the rhel9 class
runs the agent's playbook so, and an agent whose ``--agent-home`` root owns runs as root. Both
leave what they read where the run's outputs lie (a failing task's message lands in the
world-readable ``evaluation.json``); neither may find the host's bytes there."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests._support.cli import run_cli

#: How many of the host's root-only /sys files the sandboxed code tries (each one is named in the
#: command line; a handful from different folders is enough to tell).
TRIED = 6
#: The bytes of each file compared: enough to be the file's own, few enough to fit the message.
HEAD = 48

PLAYBOOK = """\
- name: read the kernel's private files
  hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: print them
      ansible.builtin.shell: "{reader}"
      register: seen
      changed_when: false
    - name: hand them back
      ansible.builtin.fail:
        msg: "PLAY {{{{ seen.stdout }}}}"
"""


def _reader(paths: list[str]) -> str:
    """A shell loop printing ``path=base64 of its first bytes`` for each of ``paths``."""
    names = " ".join(paths)
    return f"for f in {names}; do printf '%s=' $f; head -c {HEAD} $f 2>/dev/null | base64 -w0; echo; done"


def _root_only_sys_files() -> list[str]:
    """Up to TRIED root-only regular files of the host's /sys that hold bytes for root, from
    different folders (the ACPI tables first: the red team's)."""
    found = subprocess.run(
        ["find", "/sys/firmware", "/sys/kernel", "/sys/devices", "/sys/module",
         "-type", "f", "!", "-perm", "-o=r", "-perm", "-u=r"],
        capture_output=True, text=True, timeout=60, check=False,
    ).stdout.split()  # fmt: skip
    chosen: list[str] = []
    folders: set[str] = set()
    for path in found:
        folder = "/".join(Path(path).parts[:4])  # /sys/kernel/slab, /sys/firmware/acpi, ...
        if folder in folders:
            continue
        try:
            with open(path, "rb") as file:
                if not file.read(HEAD):
                    continue
        except OSError:  # a file the kernel refuses to read (a write-only knob, a busy device)
            continue
        folders.add(folder)
        chosen.append(path)
        if len(chosen) == TRIED:
            break
    return chosen


def _read_in(text: str, path: str) -> list[str]:
    """What the reader printed for ``path`` each time ``text`` holds its line: the base64 after
    ``path=`` (empty when the sandbox gave nothing)."""
    alphabet = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
    found = []
    start = text.find(f"{path}=")
    while start >= 0:
        rest = text[start + len(path) + 1 :]
        found.append("".join(itertools.takewhile(alphabet.__contains__, rest)))
        start = text.find(f"{path}=", start + 1)
    return found


@pytest.fixture
def sys_files() -> list[str]:
    if os.geteuid() != 0:
        pytest.skip("only root reads the host's root-only /sys files to compare")
    ansible = Path(sys.executable).parent / "ansible-playbook"  # where the runner looks
    if shutil.which("bwrap") is None or not ansible.exists():
        pytest.skip("the rhel9 class needs bubblewrap and Ansible beside this Python")
    files = _root_only_sys_files()
    if not files:
        pytest.skip("this host's /sys has no root-only file holding bytes")
    return files


def test_neither_the_agent_nor_its_playbook_reads_root_only_sys_files(
    sys_files: list[str], tmp_path: Path
) -> None:
    reader = _reader(sys_files)
    playbook = PLAYBOOK.format(reader=reader)
    command = (
        f"cat > playbook.yml <<'EOF'\n{playbook}EOF\n"
        "printf 'package check\\nresult := true\\n' > policy.rego\n"
        f"{{ echo AGENT; {reader}; }} > agent-saw.txt"
    )
    home = tmp_path / "home"  # root's: the agent runs as root
    home.mkdir()
    out = tmp_path / "run"
    proc = run_cli(
        ["ciso", "run", "--scenarios", "cis-rhel9-3.2.1-ip-forward", "--agent-cmd", command]
        + ["--agent-home", str(home), "--output", str(out), "--no-progress"],
        timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stderr
    played = "".join(p.read_text(errors="replace") for p in out.rglob("evaluation.json"))
    agent = "".join(p.read_text(errors="replace") for p in out.rglob("agent-saw.txt"))
    assert "PLAY" in played  # the play ran and reported
    assert "AGENT" in agent  # the agent's command ran
    read = {
        (who, path): _read_in(text, path)
        for path in sys_files
        for who, text in (("playbook", played), ("agent", agent))
    }
    assert all(read.values()), f"a reader printed nothing for a file: {read}"
    leaked = {key: got for key, got in read.items() if any(got)}
    assert not leaked, f"read in the sandbox: {leaked}"
