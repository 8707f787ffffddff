"""Bulk ``kyverno apply``: many resources evaluated in worker processes, printed in input order.

Resources are independent of one another (without generate rules or reports), so they are
evaluated a batch of :data:`BATCH` at a time. With more than one batch and more than one CPU the
batches go to worker processes forked from the caller: each worker holds the :class:`BulkApply`
it was forked with (policies, context, output format: never pickled, and the engine's caches of
compiled patterns stay warm across its batches) and answers its own queue of batches in order.
A large input (:data:`SPLIT_BYTES`) is cut into byte ranges of whole documents that the workers
read themselves, sparing the caller the parsing and the pickling of every object.

``itbench kyverno apply`` is a caller of :func:`evaluate_resources`; a Python program is another.
"""

from __future__ import annotations

import collections
import itertools
import json
import multiprocessing
import os
import queue
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from itbench.errors import InputError, ItbenchError

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess
    from multiprocessing.queues import Queue

    from ciso.engines.kyverno.model import Context
    from itbench.cluster.manifests import StderrProgress

#: Resources evaluated and printed together.
BATCH = 2000
#: Most worker processes (never more than the CPUs).
MAX_WORKERS = 4
#: Batches handed out ahead of the one being printed, per worker: keeps the workers busy while
#: bounding what is held in memory (the input is read lazily, so a large file stays streamed).
AHEAD_PER_WORKER = 2
#: Inputs smaller than this are read by the caller, in one pass.
SPLIT_BYTES = 1 << 20
#: Seconds between two checks that a worker being waited for is still alive.
_POLL_S = 0.2

#: A range to read, evaluate and render: (file, first byte, end byte, documents).
Range = tuple[Path, int, int, int]


@dataclass(frozen=True)
class Rendered:
    """One batch's results as printed (JSON: its array items joined, without the leading
    separator), with the number of results, of fail/error ones and of resources read."""

    text: str
    results: int
    failing: int
    resources: int


@dataclass(frozen=True)
class BulkApply:
    """What every batch of one apply is evaluated with."""

    policies: list[dict[str, Any]]
    ctx: Context
    #: policy id -> the file it was read from (named in results)
    sources: dict[str, str]
    #: ``table``, ``json`` or ``yaml``.
    fmt: str

    def batch(self, objects: list[dict[str, Any]]) -> Rendered:
        from ciso.engines.kyverno.engine import apply_rows

        rows = apply_rows(self.policies, objects, self.ctx, sources=self.sources)
        return render(rows, self.fmt, len(objects))

    def range(self, task: Range) -> Rendered | None:
        """The range read and evaluated; None when it is not BATCH resources of one document
        each (the batches, and so the order of the results, would differ from the streamed
        reading's)."""
        from ciso.engines.kyverno.scope import as_the_cli_reads_it
        from itbench.cluster.manifests import objects_in_range

        found = objects_in_range(*task)
        if found is None:
            return None
        return self.batch([as_the_cli_reads_it(obj) for obj in found])


def render(rows: Sequence[tuple[Any, ...]], fmt: str, resources: int) -> Rendered:
    """A batch's result rows (``engine.apply_rows``) as printed: the text rendering each
    RuleResult's ``__dict__`` gives (its fields, in order)."""
    from ciso.engines.kyverno.engine import ROW_FIELDS

    status = ROW_FIELDS.index("status")
    bad = sum(1 for r in rows if r[status] in ("fail", "error"))
    if fmt == "json":
        text = ",\n  ".join(
            json.dumps(dict(zip(ROW_FIELDS, r, strict=True)), indent=2).replace("\n", "\n  ")
            for r in rows
        )
    elif fmt == "yaml":
        text = (
            yaml.safe_dump([dict(zip(ROW_FIELDS, r, strict=True)) for r in rows], sort_keys=False)
            if rows
            else ""
        )
    else:
        text = "".join(
            f"{s.upper():5}  {policy}/{rule}  {kind}/{ns + '/' if ns else ''}{name}  {message}\n"
            for policy, rule, kind, ns, name, s, message, *_ in rows
        )
    return Rendered(text, len(rows), bad, resources)


def worker_count() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_WORKERS))


def batches(items: Iterable[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


class Tally:
    """Counts what passes through a stream (the resources are read once, lazily)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, items: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for item in items:
            self.count += 1
            yield item


# --- the worker processes ---------------------------------------------------------------------

#: What a worker is asked: a batch of objects, or a range it reads itself.
_Task = tuple[str, Any]


def _serve(job: BulkApply, tasks: Queue[_Task | None], replies: Queue[tuple[str, Any]]) -> None:
    """A worker's life: answer each task in the order given until told to stop (None)."""
    while (task := tasks.get()) is not None:
        kind, payload = task
        try:
            reply: tuple[str, Any] = (
                "ok",
                job.batch(payload) if kind == "batch" else job.range(payload),
            )
        except Exception as exc:  # the caller raises it, as if the batch had run there
            reply = ("raise", exc)
        replies.put(reply)


class _Workers:
    """``count`` forked workers; task ``i`` goes to worker ``i % count`` and each answers in
    order, so reading the replies round-robin gives them in input order."""

    def __init__(self, job: BulkApply, count: int) -> None:
        context = multiprocessing.get_context("fork")  # the job is inherited, never pickled
        self._members: list[tuple[BaseProcess, Queue[_Task | None], Queue[tuple[str, Any]]]] = []
        for _ in range(count):
            tasks: Queue[_Task | None] = context.Queue()
            replies: Queue[tuple[str, Any]] = context.Queue()
            process = context.Process(target=_serve, args=(job, tasks, replies), daemon=True)
            process.start()
            self._members.append((process, tasks, replies))
        self._sent = 0
        self._read = 0

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        # work still queued (an error, a range read as a stream from there on) is not waited for
        finished = self._read == self._sent
        for process, tasks, _ in self._members:
            if finished and process.is_alive():
                tasks.put(None)
        for process, tasks, replies in self._members:
            process.join(timeout=5 if finished else 0)
            if process.is_alive():
                process.kill()
                process.join()
            for channel in (tasks, replies):
                channel.close()
                channel.cancel_join_thread()  # a worker gone early never drains what it was sent

    def send(self, task: _Task) -> None:
        _, tasks, _ = self._members[self._sent % len(self._members)]
        tasks.put(task)
        self._sent += 1

    def receive(self) -> Any:
        """The reply to the oldest task not yet read; its exception raised here."""
        process, _, replies = self._members[self._read % len(self._members)]
        self._read += 1
        while True:
            try:
                kind, value = replies.get(timeout=_POLL_S)
                break
            except queue.Empty:
                if not process.is_alive():
                    try:
                        kind, value = replies.get(timeout=_POLL_S)  # sent just before it ended
                        break
                    except queue.Empty:
                        raise ItbenchError(
                            "kyverno apply: a worker process evaluating resources ended abruptly "
                            "(killed, or out of memory); nothing after the results printed so far "
                            "was evaluated"
                        ) from None
        if kind == "raise":
            raise value
        return value


# --- the entry point ----------------------------------------------------------------------------


def evaluate_resources(
    job: BulkApply,
    resources: Sequence[Path],
    stream: Iterable[dict[str, Any]],
    tally: Tally,
    progress: StderrProgress,
) -> Iterator[Rendered]:
    """Every resource of ``resources`` evaluated and rendered a batch at a time, in input order.
    ``stream`` is their streamed reading (counted by ``tally``); a large input is cut into
    ranges the workers read themselves instead."""
    cut = None if worker_count() < 2 else file_ranges(resources)
    if cut is not None:
        return _evaluated_ranges(job, cut, tally, progress)
    return evaluated(job, batches(stream, BATCH))


def evaluated(job: BulkApply, pieces: Iterable[list[dict[str, Any]]]) -> Iterator[Rendered]:
    """Every batch evaluated and rendered, in input order: in worker processes when there is
    more than one batch and more than one CPU (this process keeps reading the input), else
    here, sparing the workers' start-up."""
    pending = iter(pieces)
    head = list(itertools.islice(pending, 2))
    workers = worker_count()
    if len(head) < 2 or workers < 2:
        for batch in itertools.chain(head, pending):
            yield job.batch(batch)
        return
    with _Workers(job, workers) as pool:
        ahead = 0
        for batch in itertools.chain(head, pending):
            pool.send(("batch", batch))
            ahead += 1
            if ahead >= workers * AHEAD_PER_WORKER:
                yield pool.receive()
                ahead -= 1
        for _ in range(ahead):
            yield pool.receive()


def file_ranges(resources: Sequence[Path]) -> list[Range] | None:
    """The resource files cut into ranges of BATCH documents; None (read as a stream) for a
    small input or a file that cannot be cut (see ``itbench.cluster.manifests.file_ranges``)."""
    from itbench.cluster.manifests import file_ranges as cut_file
    from itbench.cluster.manifests import manifest_files

    files = [path for source in resources for path in manifest_files(source)]
    if sum(path.stat().st_size for path in files) < SPLIT_BYTES:
        return None
    ranges: list[Range] = []
    for path in files:
        cut = cut_file(path, BATCH)
        if cut is None:
            return None
        ranges += [(path, *piece) for piece in cut]
    # the streamed batches run across files: only full ranges keep them aligned
    return ranges if all(task[3] == BATCH for task in ranges[:-1]) else None


def _evaluated_ranges(
    job: BulkApply, ranges: list[Range], tally: Tally, progress: StderrProgress
) -> Iterator[Rendered]:
    """As :func:`evaluated`, each worker reading its own ranges of the input. Every range is a
    batch of BATCH resources (the last one of a file may hold fewer), so the results come in the
    streamed reading's order; from a range that is not (a List, a null document), the rest is
    read here as a stream, in batches that are again aligned."""
    from ciso.engines.kyverno.scope import as_the_cli_reads_it
    from itbench.cluster.manifests import iter_file

    reporters: dict[Path, Callable[[int, int, int], None]] = {}
    documents: collections.Counter[Path] = collections.Counter()
    rest: list[Range] = []
    workers = worker_count()
    with _Workers(job, workers) as pool:
        ahead: collections.deque[Range] = collections.deque()
        pending = iter(ranges)
        while True:
            for task in itertools.islice(pending, workers * AHEAD_PER_WORKER - len(ahead)):
                pool.send(("range", task))
                ahead.append(task)
            if not ahead:
                break
            task = ahead.popleft()
            path = task[0]
            try:
                done = pool.receive()
            except InputError:
                _reread(path)
                raise
            if done is None:
                rest = [task, *ahead, *pending]
                break
            tally.count += done.resources
            documents[path] += done.resources
            if path not in reporters:
                reporters[path] = progress.for_file(path)
            reporters[path](task[2], path.stat().st_size, documents[path])
            yield done
    if not rest:
        return
    # the streamed reading from the first range that could not be read apart, in batches
    path, start = rest[0][0], rest[0][1]
    files = [path, *dict.fromkeys(t[0] for t in rest if t[0] != path)]

    def stream() -> Iterator[dict[str, Any]]:
        for number, file in enumerate(files):
            try:
                yield from iter_file(file, progress, start if number == 0 else 0)
            except InputError:
                _reread(file)
                raise

    yield from evaluated(job, batches(tally(as_the_cli_reads_it(obj) for obj in stream()), BATCH))


def _reread(path: Path) -> None:
    """Read ``path`` as a whole, for the error message naming the document and the line within
    the file (a range's or a partial reading's would count from where it started)."""
    from itbench.cluster.manifests import iter_file

    for _ in iter_file(path):
        pass
