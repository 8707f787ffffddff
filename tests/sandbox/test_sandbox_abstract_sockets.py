"""An agent sharing the host's network (``--agent-network allow``) reaches no abstract UNIX socket
of the host (issue 26, gap 4): abstract sockets belong to the network namespace, so no mount
hides them; Landlock's abstract-socket scope (Linux 6.12+) closes them. Through ``itbench finops
run`` with a real listener on the host; the agent's own abstract sockets still work."""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

from itbench.sandbox import SandboxUnavailable
from itbench.sandbox.landlock import SCOPE_ABI, abi
from tests._support.cli import itbench_executable


def _no_sandbox() -> str | None:
    try:
        from itbench.sandbox.availability import bwrap_path

        bwrap_path()
    except SandboxUnavailable as exc:
        return str(exc)
    return None


pytestmark = [
    pytest.mark.skipif(_no_sandbox() is not None, reason=f"no sandbox here: {_no_sandbox()}"),
    pytest.mark.skipif(
        abi() < SCOPE_ABI, reason=f"Landlock ABI {abi()} < {SCOPE_ABI}: no abstract-socket scope"
    ),
    pytest.mark.skipif(not Path("/usr/bin/python3").exists(), reason="no /usr/bin/python3"),
]

CONNECT = """
import socket, sys
def reach(name):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect("\\0" + name)
        return "reached"
    except OSError as e:
        return "refused:" + type(e).__name__
own = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
own.bind("\\0" + sys.argv[1] + "-own")
own.listen()
print("host", reach(sys.argv[1]))
print("own", reach(sys.argv[1] + "-own"))
"""


def test_host_abstract_sockets_are_unreachable_with_the_network_shared(tmp_path):
    name = f"itbench-test-{uuid.uuid4().hex}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\0" + name)
    listener.listen()
    accepted: list[str] = []

    def accept() -> None:
        listener.settimeout(60)
        try:
            conn, _ = listener.accept()
            accepted.append("connected")
            conn.close()
        except OSError:
            pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    base = Path(tempfile.mkdtemp(dir="/var/tmp", prefix="itbench-abstract-"))
    try:
        scenarios = base / "scenarios"
        gen = subprocess.run(
            [itbench_executable(), "finops", "generate", "--n", "1", "--seed", "5",
             "--difficulty", "easy", "--out", str(scenarios)],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert gen.returncode == 0, gen.stderr
        command = (
            f"/usr/bin/python3 - {name} > reach.txt 2>&1 <<'EOF'\n{CONNECT}EOF\n"
            "echo '{\"resource\": []}' > agent_output.json"
        )
        out = base / "out"
        proc = subprocess.run(
            [itbench_executable(), "finops", "run", "--scenarios", str(scenarios), "--agent-cmd",
             command, "--agent-network", "allow", "--output", str(out), "--no-progress"],
            capture_output=True, text=True, timeout=300,
            env={**os.environ, "ITBENCH_CACHE_DIR": str(base / "cache")},
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        reach = (next(out.glob("*/1")) / "reach.txt").read_text()
    finally:
        listener.close()
        thread.join(5)
        subprocess.run(["rm", "-rf", str(base)], check=False)
    assert "own reached" in reach, reach  # the agent's own abstract sockets work
    assert "host refused:" in reach, reach
    assert accepted == [], "the host listener was reached"
