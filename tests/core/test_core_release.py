"""The release and install paths a new user takes (issue 27, items 2 and 3): pinned installs, a
wheel and sdist that install and lint, and the shipped pre-commit hook run by pre-commit itself."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests._support.cli import REPO

CONSTRAINTS = REPO / "constraints.txt"
BROKEN_REGO = "package check\n\nallow if {\n"
GOOD_POLICY = (REPO / "tests" / "lint" / "fixtures" / "kyverno-pass.yaml").read_text()
HELM_TEMPLATE = (
    "apiVersion: v1\nkind: ConfigMap\n{{- if .Values.on }}\nmetadata:\n  name: x\n{{- end }}\n"
)


def _pins() -> dict[str, str]:
    pins = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned with =="
            pins[canonicalize_name(name)] = version
    return pins


def _needed(extras: tuple[str, ...]) -> dict[str, str]:
    """Every distribution itbench[extras] needs here, direct and transitive, with the version
    installed: the closure of pyproject's requirements over the installed metadata."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    todo = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        todo += [Requirement(r) for r in project["optional-dependencies"][extra]]
    found: dict[str, str] = {}
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in found:
            continue
        found[name] = importlib.metadata.version(name)
        for text in importlib.metadata.requires(name) or []:
            nested = Requirement(text)
            if nested.marker is None or any(
                nested.marker.evaluate({"extra": e}) for e in ("", *requirement.extras)
            ):
                todo.append(nested)
    return found


def test_constraints_pin_every_distribution_the_project_needs_at_its_installed_version():
    pins = _pins()
    needed = _needed(("test", "ray", "docs", "container"))
    assert len(needed) > 50  # the closure was walked, not only the direct requirements
    missing = sorted(set(needed) - set(pins))
    assert not missing, f"not in constraints.txt (run scripts/lock.sh): {missing}"
    drifted = {n: (v, pins[n]) for n, v in needed.items() if pins[n] != v}
    assert not drifted, f"installed vs pinned: {drifted}"
    assert "opa-golib-python-bindings" in pins  # installed by the set-up beside the extras


def test_setup_installs_with_the_constraints():
    setup = (REPO / "scripts" / "setup-venv.sh").read_text()
    installs = [line for line in setup.splitlines() if "pip install" in line and "-q" in line]
    project_installs = [line for line in installs if "--upgrade pip" not in line]
    assert project_installs and all("-c constraints.txt" in line for line in project_installs)
    assert "constraints.txt" in (REPO / "Makefile").read_text()  # a new pin reinstalls
    assert (REPO / "scripts" / "lock.sh").stat().st_mode & 0o111


def _fresh_venv(where: Path) -> Path:
    """A real fresh venv (no system site-packages) with the runtime dependencies installed from
    the pins; itbench itself is then installed from the built artifact."""
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    proc = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "-c",
            str(CONSTRAINTS),
            *project["dependencies"],
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return python


@pytest.mark.slow
def test_built_wheel_and_sdist_install_into_a_fresh_venv_and_lint(tmp_path):
    dist = tmp_path / "dist"
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    (wheel,) = dist.glob("itbench-*.whl")
    (sdist,) = dist.glob("itbench-*.tar.gz")
    python = _fresh_venv(tmp_path / "venv")
    for artifact in (wheel, sdist):
        proc = subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--force-reinstall",
                str(artifact),
            ],
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        work = tmp_path / f"work-{artifact.suffix}"
        work.mkdir()
        (work / "bad.rego").write_text("package p\n\nf contains x if { true }\n")
        (work / "good.yaml").write_text(GOOD_POLICY)
        itbench = str(tmp_path / "venv" / "bin" / "itbench")
        good = subprocess.run(
            [itbench, "lint", "-q", "good.yaml"],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert good.returncode == 0, good.stdout + good.stderr
        # pip installed no OPA: regorus runs, says what it did not check, and fails closed
        bad = subprocess.run(
            [itbench, "lint", "-q", "--strict-engines", "bad.rego"],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert bad.returncode == 3, bad.stdout + bad.stderr
        assert "rego engine: regorus" in bad.stdout
        assert "not checked by the regorus Rego backend" in bad.stderr


@pytest.mark.slow
def test_pre_commit_hook_from_a_pinned_clone_fails_only_on_the_broken_rego(tmp_path):
    """The set-up docs/engines/lint.md gives users, on a clean clone: a .pre-commit-config.yaml
    naming the clone at a full commit sha, then `pre-commit run` twice in a repository holding a
    broken Rego file, a Helm template and a good Kyverno policy. pre-commit builds the hook's venv
    from the clone once (pip, from the index or its cache, pinned through PIP_CONSTRAINT) and the
    second run reuses it, as on a user's next commit. `pre-commit try-repo` would build that venv
    afresh on every call (its store is a temporary directory): the same install twice, ~2-8 min
    each on a loaded 2-core machine."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True, timeout=300)
    # the working tree's hooks and code, as they would be committed
    for relative in (".pre-commit-hooks.yaml",):
        shutil.copy(REPO / relative, clone / relative)
    subprocess.run(["git", "-C", str(clone), "add", "-A"], check=True)
    subprocess.run(
        [
            "git",
            "-C",
            str(clone),
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "wt",
            "--allow-empty",
        ],
        check=True,
    )
    sha = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    repo = tmp_path / "user-repo"
    (repo / "charts" / "app" / "templates").mkdir(parents=True)
    (repo / "policies").mkdir()
    (repo / "charts" / "app" / "templates" / "cm.yaml").write_text(HELM_TEMPLATE)
    (repo / "policies" / "bad.rego").write_text(BROKEN_REGO)
    (repo / "policies" / "good.yaml").write_text(GOOD_POLICY)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {clone}\n    rev: {sha}\n    hooks:\n      - id: itbench-lint\n"
    )
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PIP_CONSTRAINT": str(CONSTRAINTS),
    }
    pre_commit = [sys.executable, "-m", "pre_commit", "run"]
    files = ["charts/app/templates/cm.yaml", "policies/good.yaml"]
    clean = subprocess.run(
        [*pre_commit, "--files", *files],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-3000:]
    assert "Installing environment" in clean.stdout + clean.stderr  # built from the clone here
    broken = subprocess.run(
        [*pre_commit, "--files", *files, "policies/bad.rego"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert broken.returncode == 1, broken.stdout[-3000:]
    assert "Installing environment" not in broken.stdout + broken.stderr  # reused
    assert re.search(r"policies/bad\.rego:\d+:\d+: error: REGO001", broken.stdout), broken.stdout
    assert "cm.yaml" not in broken.stdout.replace("skip:", "")  # skipped, never an error
