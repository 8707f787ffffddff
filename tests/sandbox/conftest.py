"""Fixtures the sandbox tests share: an agent's workspace next to a served offline cluster."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sre.twin.scenario import build_case, serve_case


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Path]:
    """An agent's workspace with the runner's kubeconfig of a served offline cluster."""
    folder = tmp_path / "workspace"
    folder.mkdir(mode=0o755)
    cluster, _twin = serve_case(build_case("scaled-to-zero", 5), folder / "kubeconfig.yaml")
    try:
        yield folder
    finally:
        cluster.stop()
