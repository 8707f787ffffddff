"""A sandboxed Python imports itbench and the domains from where the caller does: a checkout on
``PYTHONPATH`` (a git worktree run with another checkout's editable install) is searched inside
the sandbox too, whose package folders are bound there. Without it the sandbox's interpreter
followed the editable install's finder to the other checkout, hidden inside, and every fetch
driver and offline cluster failed with ``No module named 'ciso'``. Real bubblewrap."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests._support.sandbox import needs_sandbox

REPO = Path(__file__).resolve().parents[2]


pytestmark = needs_sandbox

PROBE = """
import json, sys, tempfile
from pathlib import Path
from itbench.sandbox import run_sandboxed
out = Path(tempfile.mkdtemp(prefix="itbench-imports-"))
code = "import json, itbench, ciso.evaluation.fetch_driver as d; print(json.dumps([itbench.__file__, d.__file__]))"
result = run_sandboxed([sys.executable, "-c", code], out_dir=out)
print(json.dumps({"code": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}))
"""


def test_sandboxed_python_imports_the_callers_checkout(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for package in sorted(REPO.iterdir()):
        if (package / "__init__.py").is_file():
            (checkout / package.name).symlink_to(package, target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(checkout)
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer["code"] == 0, answer["stderr"]
    imported = json.loads(answer["stdout"].splitlines()[-1])
    assert imported == [
        str(checkout / "itbench" / "__init__.py"),
        str(checkout / "ciso" / "evaluation" / "fetch_driver.py"),
    ]
