"""Read a sandboxed command's stdout and stderr keeping at most a fixed number of bytes of each.

``Popen.communicate`` buffers everything a command prints, so a hostile command printing without
end fills the runner's memory. Here each stream is read by its own thread that keeps the first and
the last half of the cap and counts the rest; the first byte past the cap calls ``stop`` (the
caller kills the command), and the outcome says the cap was hit.
"""

from __future__ import annotations

import os
import select
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

_CHUNK = 1 << 16


@dataclass(frozen=True)
class Captured:
    text: str
    total_bytes: int
    truncated: bool


@dataclass(frozen=True)
class Communication:
    stdout: Captured
    stderr: Captured
    timed_out: bool
    #: True when either stream passed the cap (the command was stopped there).
    output_capped: bool


class _Reader(threading.Thread):
    def __init__(self, stream: IO[bytes], cap: int | None, overflow: Callable[[], None]) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.cap = cap
        self.overflow = overflow
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def run(self) -> None:
        fd = self.stream.fileno()
        half = None if self.cap is None else self.cap // 2
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                break
            if not chunk:
                break
            before = self.total
            self.total += len(chunk)
            if half is None:
                self.head += chunk
                continue
            room = max(0, half - len(self.head))
            self.head += chunk[:room]
            self.tail += chunk[room:]
            if len(self.tail) > self.cap - half:  # type: ignore[operator]  # half is set only when cap is (mypy does not relate the two)
                del self.tail[: len(self.tail) - (self.cap - half)]  # type: ignore[operator]  # half is set only when cap is (mypy does not relate the two)
            if before <= self.cap < self.total:  # type: ignore[operator]  # half is set only when cap is (mypy does not relate the two)
                self.overflow()
        self.stream.close()

    def captured(self) -> Captured:
        truncated = self.cap is not None and self.total > self.cap
        if not truncated:
            data = bytes(self.head + self.tail)
            return Captured(data.decode(errors="replace"), self.total, False)
        omitted = self.total - len(self.head) - len(self.tail)
        text = (
            self.head.decode(errors="replace")
            + f"\n[itbench: {omitted} bytes omitted: the output passed its cap of {self.cap} bytes]\n"
            + self.tail.decode(errors="replace")
        )
        return Captured(text, self.total, True)


def exited_within(proc: subprocess.Popen[bytes], timeout_s: float | None) -> bool:
    """Wait for ``proc`` to end, at most ``timeout_s``; False when it is still running then.

    ``Popen.wait`` with a time limit polls, sleeping up to 50 ms between looks, so a sandboxed
    command that takes 0.1 s is seen to end up to 50 ms late (several sandboxes per trial); a
    process file descriptor becomes readable the moment the process ends."""
    if timeout_s is None:
        proc.wait()
        return True
    try:
        pidfd = os.pidfd_open(proc.pid)
    except OSError:  # no pidfd (Linux before 5.3): Popen's polling wait
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return False
        return True
    try:
        # poll, not select: a process holding many files may get a descriptor past select's 1024
        watch = select.poll()
        watch.register(pidfd, select.POLLIN)
        ended = watch.poll(max(0, round(timeout_s * 1000)))
    finally:
        os.close(pidfd)
    if not ended:
        return False
    proc.wait()
    return True


def communicate(
    proc: subprocess.Popen[bytes],
    *,
    timeout_s: float | None,
    cap_bytes: int | None,
    stop: Callable[[], None],
) -> Communication:
    """Wait for ``proc`` (started with stdout and stderr pipes in binary mode) for at most
    ``timeout_s``; call ``stop`` past the time limit or when a stream passes ``cap_bytes``."""
    assert proc.stdout is not None and proc.stderr is not None
    capped = threading.Event()

    def overflow() -> None:
        if not capped.is_set():
            capped.set()
            stop()

    readers = [_Reader(proc.stdout, cap_bytes, overflow), _Reader(proc.stderr, cap_bytes, overflow)]
    for reader in readers:
        reader.start()
    timed_out = not exited_within(proc, timeout_s)
    if timed_out:
        stop()
        proc.wait()
    for reader in readers:
        reader.join(timeout=5)
        if reader.is_alive():  # something outside the sandbox kept the pipe open
            stop()
            reader.join()
    return Communication(
        readers[0].captured(),
        readers[1].captured(),
        timed_out and not capped.is_set(),
        capped.is_set(),
    )
