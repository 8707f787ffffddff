"""Fixtures the report tests share: a headless chromium to render the HTML pages in."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture
def headless_chromium(tmp_path: Path) -> list[str]:
    """chromium's command line, headless and quiet, with a profile of the test's own (the test is
    skipped where chromium is not installed)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (make test installs it with apt-get where it can)")
    return [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
