"""A time budget for one policy on one resource.

Kyverno's own engine runs a policy under the admission webhook's timeout and nothing else; a
background scan or ``kyverno apply`` of a hostile policy (``foreach`` nested four deep over a
long list, ``anyPattern`` nested in ``anyPattern``, thousands of ``preconditions``, JMESPath
projections over large lists) may run for hours. Here each policy gets ``SECONDS`` of work per
resource: the engine's loops (JMESPath nodes, foreach elements, conditions, pattern nodes) tick
the budget, and past it the rule being evaluated ends in an ``error`` result naming the policy,
the rule and the resource, and the policy's other rules on that resource error at once. A policy
that used up its budget on one resource gets none on the next ones of the same call (their rules
error at once too): a hostile policy costs one budget per call, not one per resource. Every
other policy's results are kept.

``BudgetExceeded`` is a BaseException: the engine turns a rule's failures into results (a
foreach skips an element whose preconditions fail, ``anyPattern`` tries the next pattern), and
none of that may swallow the budget's end. The deadline is per thread (the API server evaluates
admissions in worker threads).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

#: Seconds of evaluation one policy may spend on one resource (all its rules together).
SECONDS = 5.0
#: Ticks between two looks at the clock: a tick is far cheaper than reading it.
_CHECK_EVERY = 256

_local = threading.local()
_ticks = [0]  # shared by all threads: a race only moves the next look at the clock


class BudgetExceeded(BaseException):  # noqa: N818 - the name says what happened
    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"evaluation exceeded its budget of {seconds:g} s for this policy on this resource "
            "(nested foreach, anyPattern, preconditions or JMESPath over large lists)"
        )
        self.seconds = seconds


def start(seconds: float | None = None) -> None:
    """Begin one policy's evaluation of one resource in this thread."""
    if getattr(_local, "exempt", False):
        _local.deadline = None
        return
    limit = SECONDS if seconds is None else seconds
    _local.seconds = limit
    _local.deadline = time.monotonic() + limit


@contextmanager
def exempt() -> Iterator[None]:
    """No budget in this thread meanwhile: the API server bounds an admission by the webhook's
    timeout (``itbench.cluster.deadline``) and answers as Kubernetes does when it expires
    ("failed calling webhook ... context deadline exceeded")."""
    before = getattr(_local, "exempt", False)
    _local.exempt = True
    try:
        yield
    finally:
        _local.exempt = before


@contextmanager
def limited(seconds: float) -> Iterator[None]:
    """``SECONDS`` is ``seconds`` meanwhile, and what it was afterwards: a scan or a CLI call run
    in a long-lived process (tests, the API server) must not leave its budget to the next one."""
    global SECONDS
    before = SECONDS
    SECONDS = seconds
    try:
        yield
    finally:
        SECONDS = before


def spent() -> bool:
    """Whether the current policy-on-resource evaluation used up its budget."""
    deadline = getattr(_local, "deadline", None)
    return deadline is not None and time.monotonic() > deadline


def stop() -> None:
    _local.deadline = None


def enter() -> None:
    """A rule's evaluation begins: ticks may end it from now on (and only inside a rule, where
    the engine turns BudgetExceeded into the rule's error result)."""
    _local.depth = getattr(_local, "depth", 0) + 1


def leave() -> None:
    _local.depth -= 1


def tick() -> None:
    """Called from the engine's loops; raises BudgetExceeded once the deadline has passed."""
    _ticks[0] += 1
    if _ticks[0] % _CHECK_EVERY:
        return
    check()


def check() -> None:
    deadline = getattr(_local, "deadline", None)
    if deadline is None or not getattr(_local, "depth", 0):
        return
    if time.monotonic() > deadline:
        raise BudgetExceeded(_local.seconds)
