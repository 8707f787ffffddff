"""The runner's watch on the answer file (``itbench/runner/answer_watch.py``), driven look by
look: what each version of the file leaves in the transcript, and what it costs the runner."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from itbench.runner import answer_watch
from itbench.runner.answer_watch import ANSWER_SEEN, AnswerWatch
from itbench.transcript import Transcript, read_transcript


class _Clock:
    """The watch's clock, moved by hand: which look falls inside a pause is the test's to say."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _watch(tmp_path: Path, clock: _Clock | None = None) -> tuple[Path, Path, AnswerWatch]:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    log = tmp_path / "runner.jsonl"
    transcript = Transcript(log)
    watch = (
        AnswerWatch(workspace, transcript, clock=clock)
        if clock
        else AnswerWatch(workspace, transcript)
    )
    return workspace / "agent_output.json", log, watch


def _seen(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [e for e in read_transcript(log) if e["event"] == ANSWER_SEEN]


def _large(label: str) -> bytes:
    """An answer over the recorded size: a diagnosis with a long note."""
    note = label * (answer_watch.MAX_RECORDED_BYTES // len(label) + 10)
    return json.dumps({"entities": [], "note": note}).encode()


def test_a_version_over_the_recorded_size_is_kept_by_digest_only(tmp_path: Path) -> None:
    answer, log, watch = _watch(tmp_path)
    data = _large("checked the pods; ")
    answer.write_bytes(data)
    watch.look(final=False)
    (event,) = _seen(log)
    assert event["sha256"] == hashlib.sha256(data).hexdigest()
    assert event["size"] == len(data)
    assert "content" not in event


def test_versions_past_the_cap_are_left_to_the_last_look(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answer_watch, "MAX_VERSIONS", 3)
    answer, log, watch = _watch(tmp_path)
    for attempt in range(1, 6):
        answer.write_text(json.dumps({"attempt": attempt}))
        watch.look(final=False)
    assert [json.loads(e["content"])["attempt"] for e in _seen(log)] == [1, 2, 3]
    watch.look(final=True)  # the version the agent left is always recorded
    assert [json.loads(e["content"])["attempt"] for e in _seen(log)] == [1, 2, 3, 5]


def test_a_large_file_is_read_again_only_once_its_pause_has_ended(tmp_path: Path) -> None:
    clock = _Clock()
    answer, log, watch = _watch(tmp_path, clock)
    first, second, third = _large("first look; "), _large("second try; "), _large("third go; ")
    answer.write_bytes(first)
    watch.look(final=False)
    answer.write_bytes(second)
    clock.now += answer_watch.LARGE_INTERVAL_S / 2
    watch.look(final=False)  # within the pause: not read
    assert [e["sha256"] for e in _seen(log)] == [hashlib.sha256(first).hexdigest()]
    clock.now += answer_watch.LARGE_INTERVAL_S
    watch.look(final=False)
    answer.write_bytes(third)
    watch.look(final=True)  # the last look reads it whatever the pause
    digests = [hashlib.sha256(d).hexdigest() for d in (first, second, third)]
    assert [e["sha256"] for e in _seen(log)] == digests


def test_a_version_past_the_hashed_size_is_recorded_by_its_size_only(tmp_path: Path) -> None:
    answer, log, watch = _watch(tmp_path)
    size = answer_watch.MAX_HASHED_BYTES + 1
    with answer.open("wb") as handle:  # sparse: nothing is written but its last byte
        handle.truncate(size - 1)
        handle.seek(size - 1)
        handle.write(b"}")
    watch.look(final=False)
    (event,) = _seen(log)
    assert event["size"] == size
    assert "sha256" not in event and "content" not in event
    os.utime(answer, (1.0, 1.0))  # touched: its change time moves, its size does not
    watch.look(final=True)
    assert len(_seen(log)) == 1
