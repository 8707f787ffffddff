"""The runner's record signing key (``itbench.records``): made once, private to its user, and
refused when others may read it (a key anyone can read signs anything)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from itbench.errors import InputError
from itbench.records import key_path, read_signed_record, write_signed_record


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ITBENCH_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


def _trial(tmp_path: Path) -> Path:
    workspace = tmp_path / "run" / "s" / "1"
    workspace.mkdir(parents=True)
    return workspace


def test_the_key_is_made_on_first_use_readable_by_its_user_only(
    state: Path, tmp_path: Path
) -> None:
    workspace = _trial(tmp_path)
    write_signed_record(workspace, Path(".itbench/r.json"), {"a": 1})
    assert key_path() == state / "record-key"
    assert stat.S_IMODE(key_path().stat().st_mode) == 0o600
    first = key_path().read_bytes()
    write_signed_record(workspace, Path(".itbench/r.json"), {"a": 2})
    assert key_path().read_bytes() == first  # kept, not made again
    assert read_signed_record(workspace, Path(".itbench/r.json"), "gone") == {"a": 2}


def test_a_key_others_may_read_is_refused(state: Path, tmp_path: Path) -> None:
    workspace = _trial(tmp_path)
    write_signed_record(workspace, Path(".itbench/r.json"), {"a": 1})
    key_path().chmod(0o644)
    with pytest.raises(InputError, match="record-key: the record signing key may be read by"):
        read_signed_record(workspace, Path(".itbench/r.json"), "gone")


def test_another_key_does_not_verify(state: Path, tmp_path: Path) -> None:
    workspace = _trial(tmp_path)
    write_signed_record(workspace, Path(".itbench/r.json"), {"a": 1})
    key_path().write_text("00" * 32 + "\n")
    with pytest.raises(InputError, match=r"r\.json: its signature does not match"):
        read_signed_record(workspace, Path(".itbench/r.json"), "gone")


def test_a_missing_record_says_what_its_absence_means(state: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"r\.json: the trial did not end"):
        read_signed_record(_trial(tmp_path), Path(".itbench/r.json"), "the trial did not end")
