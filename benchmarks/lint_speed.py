"""`itbench lint` wall time on the shared Kyverno library (without and with --run-tests), and over a
set of playbooks compared with ansible-lint alone on the same set, in one run. Prints JSON.
Run: .venv/bin/python benchmarks/lint_speed.py
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpora" / "kyverno-policies"
BIN = Path(sys.executable).parent


def timed(args: list[str], cwd: Path | None = None) -> tuple[float, int]:
    started = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, cwd=cwd)
    return round(time.perf_counter() - started, 2), proc.returncode


def main() -> None:
    report: dict = {"benchmark": "lint_speed"}
    if CORPUS.exists():
        report["kyverno_library_s"], _ = timed(
            [str(BIN / "itbench"), "lint", "-q", "--format", "json", str(CORPUS)]
        )
        report["kyverno_library_run_tests_s"], _ = timed(
            [str(BIN / "itbench"), "lint", "-q", "--format", "json", "--run-tests", str(CORPUS)]
        )
    with tempfile.TemporaryDirectory() as tmp:
        books = Path(tmp)
        for i in range(5):
            shutil.copy(
                REPO / "tests" / "lint" / "fixtures" / "ansible-pass.yml", books / f"play{i}.yml"
            )
            shutil.copy(
                REPO / "tests" / "sandbox" / "fixtures" / "collect_x11.yml",
                books / f"collect{i}.yml",
            )
        lint_s, _ = timed([str(BIN / "itbench"), "lint", "-q", "--format", "json", str(books)])
        alone_s, _ = timed(
            [
                str(BIN / "ansible-lint"),
                "--offline",
                "-f",
                "codeclimate",
                *sorted(str(p) for p in books.glob("*.yml")),
            ],
            cwd=books,
        )
    report["playbooks"] = 10
    report["itbench_lint_playbooks_s"] = lint_s
    report["ansible_lint_alone_s"] = alone_s
    report["ratio"] = round(lint_s / alone_s, 2) if alone_s else None
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
