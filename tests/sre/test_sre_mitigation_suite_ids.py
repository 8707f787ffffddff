"""The built-in mitigation suite's ids and incidents are keyed by a secret of the run directory:
an agent that hashes the public fault names (``itbench sre faults``) cannot find its own fault in
its workspace's path. Through the real CLI and a sandboxed command agent."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from sre.generator.faults import FAULT_TYPES
from tests._support.cli import run_cli

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is absent: command agents refuse to run"
)


def _public_hash(fault_type: str) -> str:
    """The id anyone can compute from a public fault name (the suite's ids were this)."""
    return "mitigate-" + hashlib.sha256(f"sre-mitigation/{fault_type}".encode()).hexdigest()[:8]


def test_an_id_is_not_the_public_hash_of_its_fault_and_depends_on_the_secret() -> None:
    from sre.twin.suite import suite_id, suite_seed

    for fault in ("cpu-stress", "wrong-target-port"):
        first, second = suite_id(fault, 5), suite_id(fault, 6)
        assert first != _public_hash(fault) and second != _public_hash(fault)
        assert first != second, fault
        assert suite_id(fault, 5) == first  # the same secret gives the same id: resume works
    seeds = {s: [suite_seed(f, s) for f in sorted(FAULT_TYPES)] for s in (5, 6)}
    assert seeds[5] != seeds[6]


def test_the_secret_is_drawn_once_and_kept_in_the_run_directory(tmp_path: Path) -> None:
    from sre.twin.suite import SECRET_FILE, suite_secret

    first = suite_secret(tmp_path / "a")
    assert (tmp_path / "a" / SECRET_FILE).is_file()
    assert suite_secret(tmp_path / "a") == first
    assert suite_secret(tmp_path / "b") != first


#: the agent: hash every public fault name and look for the hash in its workspace's path
GUESS = """python3 - <<'P' > guess.txt
import hashlib, os
where = os.environ.get("ITBENCH_WORKSPACE", "") + " " + os.getcwd()
for name in NAMES:
    for text in (f"sre-mitigation/{name}", f"sre-mitigation/seed/{name}"):
        if hashlib.sha256(text.encode()).hexdigest()[:8] in where:
            print("FOUND", name)
print("looked in", where)
P
""".replace("NAMES", json.dumps(sorted(FAULT_TYPES)))


@needs_kubectl
@needs_bwrap
@pytest.mark.parametrize("fault", ["ambient-off", "missing-secret"])
def test_an_agent_hashing_the_public_fault_names_does_not_find_its_fault(
    tmp_path: Path, fault: str
) -> None:
    from sre.twin.suite import SECRET_FILE, suite_id

    out = tmp_path / "run"
    # the operator knows the run directory's secret (it picks the incident); the agent does not
    (out / "mitigation-suite").mkdir(parents=True)
    (out / "mitigation-suite" / SECRET_FILE).write_text("424242\n")
    picked = suite_id(fault, 424242)
    proc = run_cli(
        ["sre", "run", "--task", "mitigate", "--select", picked, "--agent-cmd", GUESS,
         "--output", str(out)], timeout=300,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    (guess,) = out.glob("*/1/guess.txt")
    text = guess.read_text()
    assert "looked in" in text and picked in text, text  # the agent ran and saw its id
    assert "FOUND" not in text, text
    assert picked != _public_hash(fault)
