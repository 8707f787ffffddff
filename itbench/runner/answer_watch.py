"""The runner's own clock on the agent's answer file: when each version of it first appeared.

An agent's files say nothing trustworthy about time: it sets their modification times as it
pleases. While the agent runs, the runner looks at the answer file (``agent_output.json`` or
``agent_response.json``, in the workspace or its ``outputs/``) every ``interval_s`` seconds and
records each new content it sees as an ``answer_seen`` event in its transcript, at its own clock;
a last look when the agent has ended records the version it left. A time read from these events
is never earlier than the moment the agent wrote that content (at most one interval later), so
no agent can make itself faster than it was.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import TracebackType

from itbench.fsutil import UnsafeFile, agent_file, agent_file_digest, read_agent_bytes
from itbench.runner.layout import AGENT_OUTPUT_PLACES
from itbench.transcript import Transcript

ANSWER_SEEN = "answer_seen"
#: Seconds between two looks: the resolution of any time read from the watch.
INTERVAL_S = 0.25
#: Versions larger than this are recorded by digest only (the transcript stays readable), read
#: in chunks, and looked at again at most every ``LARGE_INTERVAL_S`` seconds: an agent touching a
#: large file in a loop cannot keep the runner hashing it (100 MB touched every 0.05 s cost a
#: second of the runner's CPU every 4 s).
MAX_RECORDED_BYTES = 256 * 1024
LARGE_INTERVAL_S = 5.0
#: Versions larger than this are never read: recorded by size only (no diagnosis is that large;
#: MTTD counts a right one at the agent's end, never earlier than it appeared).
MAX_HASHED_BYTES = 64 * 1024 * 1024
#: Versions recorded per trial at most: an agent rewriting its file in a loop cannot fill the
#: disk through the runner's transcript. The last look always records the final version.
MAX_VERSIONS = 500


def _signature(path: Path) -> tuple[int, ...] | None:
    """What changes whenever the file does: the change time is the kernel's, not the agent's."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


class AnswerWatch:
    """A context manager: watches ``workspace`` from entry until exit, recording into
    ``transcript``."""

    def __init__(
        self,
        workspace: Path,
        transcript: Transcript,
        interval_s: float = INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._workspace = workspace
        self._transcript = transcript
        self._interval_s = interval_s
        self._clock = clock
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="answer-watch", daemon=True)
        self._signatures: dict[PurePosixPath, tuple[int, ...] | None] = {}
        #: what identifies the version last recorded: its digest, or its size past MAX_HASHED_BYTES
        self._versions: dict[PurePosixPath, str] = {}
        #: when a large file may be read again
        self._large_after: dict[PurePosixPath, float] = {}
        self._recorded = 0

    def __enter__(self) -> AnswerWatch:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
        self.look(final=True)

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            self.look(final=False)

    def look(self, final: bool) -> None:
        """Record every answer file whose content differs from the last version seen."""
        for place in AGENT_OUTPUT_PLACES:
            try:
                found = agent_file(self._workspace, str(place))
            except (UnsafeFile, OSError):
                continue  # a link or special file is never read: the evaluator refuses it too
            if found is None:
                continue
            signature = _signature(found)
            if signature is None or signature == self._signatures.get(place):
                continue
            size = signature[1]
            if size > MAX_RECORDED_BYTES and size <= MAX_HASHED_BYTES:
                if not final and self._clock() < self._large_after.get(place, 0.0):
                    continue  # its signature is kept unseen: looked at once the pause ends
                self._large_after[place] = self._clock() + LARGE_INTERVAL_S
            try:
                seen = _read(found, size)
            except (UnsafeFile, OSError):
                continue
            if seen.identity == self._versions.get(place):
                self._signatures[place] = signature
                continue  # touched or rewritten alike: the first sight keeps its time
            if self._recorded >= MAX_VERSIONS and not final:
                continue  # left unseen, so the last look still records it
            self._signatures[place] = signature
            self._versions[place] = seen.identity
            self._recorded += 1
            self._transcript.record(ANSWER_SEEN, path=str(place), **seen.fields())


@dataclass(frozen=True)
class _Version:
    """One version of an answer file: its size, its digest unless past ``MAX_HASHED_BYTES``, its
    text when small and UTF-8."""

    size: int
    sha256: str | None
    content: str | None

    @property
    def identity(self) -> str:
        return self.sha256 if self.sha256 is not None else f"size {self.size}"

    def fields(self) -> dict[str, object]:
        found: dict[str, object] = {"size": self.size}
        if self.sha256 is not None:
            found["sha256"] = self.sha256
        if self.content is not None:
            found["content"] = self.content
        return found


def _read(path: Path, size: int) -> _Version:
    """The version at ``path``, whose ``lstat`` said ``size``: a small one read whole, a large one
    hashed in chunks, one past ``MAX_HASHED_BYTES`` not read at all."""
    if size > MAX_HASHED_BYTES:
        return _Version(size, None, None)
    if size > MAX_RECORDED_BYTES:
        return _Version(*agent_file_digest(path), None)
    data = read_agent_bytes(path)
    text = None
    if len(data) <= MAX_RECORDED_BYTES:  # it may have grown since
        with contextlib.suppress(UnicodeDecodeError):  # not text: known by its digest only
            text = data.decode("utf-8")
    return _Version(len(data), hashlib.sha256(data).hexdigest(), text)
