"""A run folder, an agent's HOME or an evaluation's output folder may lie inside a folder not
every user may enter (a service's ``0700`` ``/var/lib/<name>``): the sandbox covers that folder
with an empty tmpfs, then binds the run's own folder inside the cover, then makes the cover
read-only. Real bwrap; the host's private folders are looked for in a folder laid here."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from itbench.sandbox import hosttree, runner
from itbench.sandbox.agent import AgentConfinement, agent_bwrap_argv, agent_user
from itbench.sandbox.identity import hand_over
from itbench.sandbox.runner import run_sandboxed
from tests._support.sandbox import needs_sandbox

pytestmark = needs_sandbox


def _laid(monkeypatch: pytest.MonkeyPatch, parent: Path | None) -> Iterator[Path]:
    """A ``0700`` folder, found as the host's only private folder, holding a sibling's secret,
    in a new folder under ``parent`` (the temporary folder when None)."""
    system = Path(tempfile.mkdtemp(prefix="itbench-private-run-", dir=parent))
    system.chmod(0o755)
    folder = system / "service"
    (folder / "other").mkdir(parents=True)
    (folder / "other" / "token").write_text("do-not-show\n")
    folder.chmod(0o700)
    monkeypatch.setattr(hosttree, "PRIVATE_TOPS", (system,))
    monkeypatch.setattr(hosttree, "PACKAGE_TOPS", ())
    hosttree.private_entries.cache_clear()
    assert hosttree.private_folders() == (folder,)
    yield folder
    hosttree.private_entries.cache_clear()
    shutil.rmtree(system, ignore_errors=True)


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Under the temporary folder, not the machine's /var: another test process comparing the
    machine's private entries found twice would see it appear between the two."""
    yield from _laid(monkeypatch, None)


@pytest.fixture
def service_in_var(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Under /var/cache, a system folder every sandbox shows (/tmp is a sandbox's own scratch,
    where nothing of the machine's is seen to hide), for the few seconds of one test."""
    base = Path("/var/cache")
    if not (base.is_dir() and os.access(base, os.W_OK)):
        pytest.skip("/var/cache is not writable here")
    yield from _laid(monkeypatch, base)


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True)
    hand_over(folder, agent_user(AgentConfinement()))  # as the command agent does
    return folder


def test_an_agent_works_in_a_workspace_inside_a_private_folder(service: Path) -> None:
    workspace = _made(service / "runs" / "scenario" / "1")
    argv = agent_bwrap_argv(
        f"echo done > answer.txt; ls -A {service} > listing.txt; "
        f"cat {service}/other/token > leaked.txt 2>&1; true",
        workspace=workspace,
        read_only_inputs=(),
        hidden=(),
        confinement=AgentConfinement(),
        env={"PATH": "/usr/bin:/bin"},
    )
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "answer.txt").read_text() == "done\n"
    assert (workspace / "listing.txt").read_text() == "runs\n"  # the way in, not the sibling
    assert "do-not-show" not in (workspace / "leaked.txt").read_text()


def test_an_agent_home_inside_a_private_folder_is_its_home(service: Path, tmp_path: Path) -> None:
    home = _made(service / "agent-home")
    workspace = _made(tmp_path / "workspace")
    argv = agent_bwrap_argv(
        "echo kept > $HOME/note; touch " + str(service) + "/x 2>/dev/null && echo w > writes; true",
        workspace=workspace,
        read_only_inputs=(),
        hidden=(),
        confinement=AgentConfinement(home=home),
        env={"PATH": "/usr/bin:/bin", "HOME": str(home)},
    )
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (home / "note").read_text() == "kept\n"
    assert not (workspace / "writes").exists()  # the cover itself stays read-only


def test_an_evaluation_writes_its_output_folder_inside_a_private_folder(
    service: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the folder above the output folder is left uncovered, as on a host where the tools the
    # evaluation needs lie beside the runs (output_cover stops there): usually that cover, laid
    # over the private folder's, hides the missing mount point
    monkeypatch.setattr(runner, "output_cover", lambda out_dir, needed=None: None)
    out = service / "runs" / "scenario" / "1"
    script = "import pathlib, sys; pathlib.Path('result.txt').write_text('scored')"
    result = run_sandboxed([sys.executable, "-c", script], out_dir=out)
    assert result.exit_code == 0, result.stderr
    assert (out / "result.txt").read_text() == "scored"


def test_a_private_folder_inside_a_hidden_folder_stays_hidden(
    service_in_var: Path, tmp_path: Path
) -> None:
    service = service_in_var
    # the run folder hidden whole holds the private folder: its cover lies under the hiding one
    workspace = _made(tmp_path / "workspace")
    argv = agent_bwrap_argv(
        f"ls -A {service.parent} > listing.txt; true",
        workspace=workspace,
        read_only_inputs=(),
        hidden=(service.parent,),
        confinement=AgentConfinement(),
        env={"PATH": "/usr/bin:/bin"},
    )
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "listing.txt").read_text() == ""
