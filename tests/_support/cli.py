"""The repository's paths and ``run_cli``: ``itbench`` as a user runs it, in this process when
the call needs nothing a process of its own gives (its own environment or working directory)."""

from __future__ import annotations

import contextlib
import faulthandler
import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
TOY_DIST = REPO / "tests" / "core" / "toy_dist"

#: ``ITBENCH_CLI_SUBPROCESS=1`` runs every call as a subprocess (to compare, or to rule the
#: in-process path out when a test misbehaves)
ALWAYS_SUBPROCESS = os.environ.get("ITBENCH_CLI_SUBPROCESS") == "1"


def itbench_executable() -> str:
    candidate = Path(sys.executable).parent / "itbench"
    return str(candidate) if candidate.exists() else "itbench"


def run_cli(
    args: list[str],
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 120,
    *,
    subprocess_only: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``itbench ARGS``: exit code, stdout and stderr as a subprocess would give them.

    In this process (about 0.3-1 s of interpreter start and imports saved per call) unless the
    caller gives an environment or a working directory, asks for a subprocess, or
    ``ITBENCH_CLI_SUBPROCESS=1`` is set. In-process calls go through ``itbench.cli.main.main``,
    the installed script's own function, with file descriptors 1 and 2 redirected so that the
    output of the commands' own child processes is captured too; a call still running
    ``timeout`` + 60 s later dumps every thread's stack and ends the test session rather than
    hanging it."""
    if env is not None or cwd is not None or subprocess_only or ALWAYS_SUBPROCESS:
        return subprocess.run(
            [itbench_executable(), *args],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    return _in_process(args, timeout)


def run_evaluations(args: list[str], out: Path, timeout: float = 120) -> dict[str, dict[str, Any]]:
    """``itbench ARGS --output OUT``, a run that must end without a crash (exit code 0, or 1
    when a trial failed), and the evaluation of each scenario's first trial, by scenario id."""
    proc = run_cli([*args, "--output", str(out)], timeout=timeout)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    evaluations = [json.loads(p.read_text()) for p in sorted(out.glob("*/1/evaluation.json"))]
    return {e["scenario_id"]: e for e in evaluations}


def finops_outputs_to_evaluate(tmp_path: Path, seed: int = 5) -> tuple[Path, Path]:
    """Three easy generated FinOps scenarios run by the baseline, their run's results.json
    removed: (scenarios, outputs), ready for a ``finops eval`` test to spoil one output."""
    scenarios, out = tmp_path / "scenarios", tmp_path / "run"
    generate = ["finops", "generate", "--n", "3", "--seed", str(seed), "--difficulty", "easy"]
    assert run_cli([*generate, "--out", str(scenarios)]).returncode == 0
    run = ["finops", "run", "--scenarios", str(scenarios), "--output", str(out), "--no-progress"]
    assert run_cli(run).returncode == 0
    (out / "results.json").unlink()
    return scenarios, out


def _in_process(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    from itbench.cli.main import main

    saved_tempdir = tempfile.tempdir
    with _captured() as (out, err):
        faulthandler.dump_traceback_later(timeout + 60, exit=True)
        try:
            code = main(args)
        except SystemExit as exc:  # a command that exits by itself, as the script would
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            faulthandler.cancel_dump_traceback_later()
            # the CLI points tempfile at a per-process scratch folder it removes at exit
            tempfile.tempdir = saved_tempdir
    return subprocess.CompletedProcess([itbench_executable(), *args], code, out.value, err.value)


class _Text:
    value = ""


@contextlib.contextmanager
def _captured() -> Iterator[tuple[_Text, _Text]]:
    """sys.stdout/sys.stderr and file descriptors 1 and 2 into two files; stdin empty."""
    out, err = _Text(), _Text()
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        saved_fds = [os.dup(1), os.dup(2), os.dup(0)]
        saved_streams = sys.stdout, sys.stderr, sys.stdin
        devnull = os.open(os.devnull, os.O_RDONLY)
        try:
            for stream in saved_streams[:2]:
                with contextlib.suppress(Exception):
                    stream.flush()
            os.dup2(out_file.fileno(), 1)
            os.dup2(err_file.fileno(), 2)
            os.dup2(devnull, 0)
            sys.stdout = _text(1)
            sys.stderr = _text(2)
            sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
            yield out, err
        finally:
            ours = sys.stdout, sys.stderr
            for stream in ours:
                with contextlib.suppress(Exception):
                    stream.flush()
            sys.stdout, sys.stderr, sys.stdin = saved_streams
            for stream in ours:
                # their descriptors are duplicates: left to the collector, one held anywhere
                # (a reference kept by a library) stays open for the rest of the session
                with contextlib.suppress(Exception):
                    stream.close()
            for fd, saved in zip((1, 2, 0), saved_fds, strict=True):
                os.dup2(saved, fd)
                os.close(saved)
            os.close(devnull)
            for holder, file in ((out, out_file), (err, err_file)):
                file.seek(0)
                holder.value = file.read().decode("utf-8", errors="replace")


def _text(fd: int) -> IO[str]:
    # a writer on the redirected descriptor, unbuffered per line as a terminal's would be
    return io.TextIOWrapper(
        os.fdopen(os.dup(fd), "wb", buffering=0), encoding="utf-8", line_buffering=True,
        write_through=True,
    )  # fmt: skip


def run_example(code: str, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    """A documentation page's Python example run as a user runs it: a script of its own in a
    fresh working folder (returned), the installed package rather than the checkout on its
    path."""
    script = tmp_path / "example.py"
    script.write_text(code)
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    return proc, work
