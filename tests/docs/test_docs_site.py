"""The documentation is a site (mkdocs.yml, pages under docs/) that builds with ``--strict``: a
broken link or anchor, a nav entry naming no page, or a page left out of the nav fails the suite.
The README stays a short front door, and the pages read as a user guide, not a development log."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.console_examples import REPO, doc_pages

#: Wording of a development log: the pages state behaviour, not the history of the code.
DEVELOPMENT_LOG = re.compile(
    r"this stop|previous stop|this session|previous session|before this change|"
    r"this stop's|\bwave [0-9]|main before|before this (?:work|change)",
    re.IGNORECASE,
)


def _mkdocs(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def _needs_mkdocs() -> None:
    try:
        import material  # noqa: F401  (the theme mkdocs.yml names)
        import mkdocs  # noqa: F401 - imported only to learn whether mkdocs is installed
    except ImportError as exc:
        pytest.skip(f"mkdocs is not installed here ({exc}); `make setup` installs the docs extra")


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    _needs_mkdocs()
    site = tmp_path / "site"
    result = _mkdocs("build", "--strict", "--site-dir", str(site), cwd=REPO)
    assert result.returncode == 0, result.stderr
    # every page of the nav became a page of the site
    for page in ("index", "cli-contract", "engines/kyverno", "sre/tools", "benchmarks"):
        built = site / page / "index.html" if page != "index" else site / "index.html"
        assert built.is_file(), f"{built} missing from the built site"
    assert "offline-first" in (site / "index.html").read_text(encoding="utf-8").lower()


def test_a_broken_link_fails_the_strict_build(tmp_path: Path) -> None:
    """The build above can fail: the same configuration on a copy with one broken link does."""
    _needs_mkdocs()
    copy = tmp_path / "repo"
    copy.mkdir()
    shutil.copy(REPO / "mkdocs.yml", copy / "mkdocs.yml")
    shutil.copytree(REPO / "docs", copy / "docs")
    page = copy / "docs" / "cli-contract.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [nowhere](no-such-page.md).\n")
    result = _mkdocs("build", "--strict", "--site-dir", str(tmp_path / "site"), cwd=copy)
    assert result.returncode != 0
    assert "no-such-page.md" in result.stderr


def test_a_page_left_out_of_the_nav_fails_the_strict_build(tmp_path: Path) -> None:
    _needs_mkdocs()
    copy = tmp_path / "repo"
    copy.mkdir()
    shutil.copy(REPO / "mkdocs.yml", copy / "mkdocs.yml")
    shutil.copytree(REPO / "docs", copy / "docs")
    (copy / "docs" / "orphan.md").write_text("# Orphan\n")
    result = _mkdocs("build", "--strict", "--site-dir", str(tmp_path / "site"), cwd=copy)
    assert result.returncode != 0
    assert "orphan.md" in result.stderr


def test_the_readme_is_a_short_front_door() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 400
    for command in ("make run", "make test"):
        assert command in readme
    # it links the site's pages, and each link names a page that exists
    links = re.findall(r"\]\((docs/[\w/.-]+\.md)\)", readme)
    assert len(links) >= 10
    missing = [link for link in links if not (REPO / link).is_file()]
    assert not missing, missing


@pytest.mark.parametrize("page", doc_pages(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_development_log_wording(page: Path) -> None:
    found = [
        f"{page.relative_to(REPO)}:{number}: {match.group(0)!r}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for match in DEVELOPMENT_LOG.finditer(line)  # every one: a page's line can be long
    ]
    assert not found, found
