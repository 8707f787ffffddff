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
from pathlib import Path, PurePosixPath
from types import TracebackType

from itbench.fsutil import UnsafeFile, agent_file, read_agent_bytes
from itbench.runner.layout import AGENT_OUTPUT_NAMES
from itbench.transcript import Transcript

ANSWER_SEEN = "answer_seen"
#: Seconds between two looks: the resolution of any time read from the watch.
INTERVAL_S = 0.25
#: Versions larger than this are recorded by digest only (the transcript stays readable).
MAX_RECORDED_BYTES = 256 * 1024
#: Versions recorded per trial at most: an agent rewriting its file in a loop cannot fill the
#: disk through the runner's transcript. The last look always records the final version.
MAX_VERSIONS = 500

_PLACES = tuple(
    PurePosixPath(base) / name for base in ("", "outputs") for name in AGENT_OUTPUT_NAMES
)


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
        self, workspace: Path, transcript: Transcript, interval_s: float = INTERVAL_S
    ) -> None:
        self._workspace = workspace
        self._transcript = transcript
        self._interval_s = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="answer-watch", daemon=True)
        self._signatures: dict[PurePosixPath, tuple[int, ...] | None] = {}
        self._digests: dict[PurePosixPath, str] = {}
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
        for place in _PLACES:
            try:
                found = agent_file(self._workspace, str(place))
            except (UnsafeFile, OSError):
                continue  # a link or special file is never read: the evaluator refuses it too
            if found is None:
                continue
            signature = _signature(found)
            if signature is None or signature == self._signatures.get(place):
                continue
            try:
                data = read_agent_bytes(found)
            except (UnsafeFile, OSError):
                continue
            digest = hashlib.sha256(data).hexdigest()
            if digest == self._digests.get(place):
                self._signatures[place] = signature
                continue  # touched or rewritten alike: the first sight keeps its time
            if self._recorded >= MAX_VERSIONS and not final:
                continue  # left unseen, so the last look still records it
            self._signatures[place] = signature
            self._digests[place] = digest
            self._recorded += 1
            self._transcript.record(ANSWER_SEEN, **_version(place, data, digest))


def _version(place: PurePosixPath, data: bytes, digest: str) -> dict[str, object]:
    fields: dict[str, object] = {"path": str(place), "sha256": digest, "size": len(data)}
    if len(data) <= MAX_RECORDED_BYTES:
        # not text: known by its digest only
        with contextlib.suppress(UnicodeDecodeError):
            fields["content"] = data.decode("utf-8")
    return fields
