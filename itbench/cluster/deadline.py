"""Extension code (admission controllers, report producers) run with a deadline, so a hostile
input to it (a policy the agent applied) cannot freeze the API server and the run around it.

A real API server calls an admission webhook with ``timeoutSeconds`` (10 by default, at most 30)
and, for a webhook that fails closed, answers the write with an internal error when it expires.
Here the extension runs in a worker thread; the server waits for it at most that long, then
answers, and asks the worker to stop: an exception (``Cancelled``, a BaseException, so the
``except Exception`` a rule engine uses to turn a rule's failure into an ``error`` result does not
swallow it) is raised in the worker at its next Python instruction. Work in C that never returns
to Python cannot be interrupted that way; the engines bound theirs (RE2 regexes, CEL's cost and
time limits), and such a worker is left behind as a daemon thread, its result ignored.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: Kubernetes' default webhook timeoutSeconds
ADMISSION_SECONDS = 10.0
#: A background scan runs every policy over every object: longer than a webhook, but bounded
REPORT_SECONDS = 30.0


class Cancelled(BaseException):  # noqa: N818 - raised inside the worker, never caught there
    """Raised in a worker whose deadline passed."""


class DeadlineExceeded(Exception):  # noqa: N818 - the name says what happened
    """The worker did not finish within ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"context deadline exceeded (no answer within {seconds:g}s)")
        self.seconds = seconds


def _cancel(thread: threading.Thread) -> None:
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(thread.ident), ctypes.py_object(Cancelled)
        )


def call(fn: Callable[..., T], *args: Any, seconds: float, name: str) -> T:
    """``fn(*args)`` in a worker thread: its result or exception, or DeadlineExceeded once
    ``seconds`` have passed (the worker is then cancelled)."""
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = fn(*args)
        except Cancelled:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, who re-raises it
            outcome["error"] = exc

    worker = threading.Thread(target=work, name=name, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        _cancel(worker)
        worker.join(0.5)  # a worker in Python stops at once; one in C is left behind
        raise DeadlineExceeded(seconds)
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value
