"""Run an in-process engine call with a time limit: a policy that never finishes must fail its
trial, not hang the worker. The call runs in a forked child, killed when the limit passes."""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class DeadlineExceeded(Exception):
    pass


class ChildFailed(Exception):
    pass


def _child(conn: Any, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        payload = ("ok", fn(*args))
    except Exception as exc:  # the parent reports it as the step's failure
        payload = ("error", f"{type(exc).__name__}: {exc}")
    try:
        conn.send_bytes(pickle.dumps(payload))
    finally:
        conn.close()


def call_with_deadline(fn: Callable[..., T], *args: Any, timeout_s: float) -> T:
    """``fn(*args)`` in a forked child; DeadlineExceeded after ``timeout_s``, ChildFailed with the
    child's exception text when it raised."""
    ctx = multiprocessing.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(sender, fn, args), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(timeout_s):
            raise DeadlineExceeded(f"did not finish within {timeout_s:g} s")
        try:
            status, value = pickle.loads(receiver.recv_bytes())
        except EOFError:
            raise ChildFailed(f"the evaluation process died (exit code {child.exitcode})") from None
    finally:
        receiver.close()
        if child.is_alive():
            child.kill()
        child.join(timeout=5)
    if status == "error":
        raise ChildFailed(value)
    return value
