"""Between two environments the fetch driver removes the System V IPC objects a run left, and
starts ``ipcrm`` for that only when the sandbox's IPC namespace holds one: it reads the kernel's
tables (``/proc/sysvipc``) first. Checked in the sandbox itself, with objects made by ``ipcmk``."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from itbench.sandbox import run_sandboxed
from tests._support.ciso import needs_sandbox

#: what the driver reads, before and after each kind of object is made, then after ipcrm
PROBE = f"""set -eu
left() {{ {sys.executable} -c 'from ciso.evaluation.fetch_driver import ipc_objects_left as f; print(f())'; }}
echo "empty $(left)"
ipcmk -S 2 >/dev/null
echo "semaphores $(left)"
ipcrm --all
echo "removed $(left)"
ipcmk -Q >/dev/null
echo "queue $(left)"
ipcrm --all
ipcmk -M 4096 >/dev/null
echo "segment $(left)"
"""


@needs_sandbox
@pytest.mark.skipif(shutil.which("ipcmk") is None, reason="util-linux's ipcmk is not installed")
def test_the_driver_sees_each_kind_of_object_a_run_leaves(tmp_path: Path) -> None:
    result = run_sandboxed(["bash", "-c", PROBE], out_dir=tmp_path, timeout_s=60)
    assert result.exit_code == 0, result.stderr
    seen = dict(line.split() for line in result.stdout.splitlines())
    assert seen == {
        "empty": "False",
        "semaphores": "True",
        "removed": "False",
        "queue": "True",
        "segment": "True",
    }


def test_a_table_it_cannot_read_counts_as_holding_an_object(tmp_path: Path) -> None:
    from ciso.evaluation.fetch_driver import ipc_objects_left

    assert ipc_objects_left(tmp_path / "absent") is True
