"""A cluster that reacts: a simulated clock and the hook a domain's reconciler plugs into.

Core's controllers (``controllers.py``) derive what a healthy cluster shows. A domain that models
what its application *does* (pods crash-looping, endpoints vanishing, alerts firing) hands
``start_cluster`` a :class:`Reconciler`: after every accepted write the state calls it with the
declared objects and the clock's time, and reads then show what it returned. Time is simulated
(:class:`SimClock`): every write advances it by a fixed step, so the same requests in the same
order give the same states, whatever the machine's speed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Key = tuple[str, str, str, str]  # (group, plural, namespace, name), as ClusterState keys objects

__all__ = ["Key", "Reconciled", "Reconciler", "SimClock", "Write"]


class SimClock:
    """Seconds since the epoch, moved only by :meth:`advance` and by writes (``write_step_s``
    each), never by the wall clock."""

    def __init__(self, start: float, write_step_s: float = 5.0) -> None:
        self._now = float(start)
        self.write_step_s = float(write_step_s)

    @property
    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("the clock does not go back")
        self._now += seconds
        return self._now

    def iso(self, at: float | None = None) -> str:
        """RFC 3339 in UTC, as the API server writes timestamps."""
        moment = dt.datetime.fromtimestamp(self._now if at is None else at, dt.UTC)
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Write:
    """One accepted write: ``verb`` is create, replace or delete (patches arrive as replace);
    ``before`` None on create, ``after`` None on delete. ``derived`` marks a delete of an object
    the reconciler made (a Pod, an Event), which only the reconciler can act on."""

    verb: str
    key: Key
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    at: float
    derived: bool = False


@dataclass(frozen=True)
class Reconciled:
    """What reads show besides the declared objects: ``objects`` made by the reconciler (they
    replace core's derived ones), and ``observed``, declared objects as their controllers report
    them (status, controller-set annotations), replacing the stored version on reads."""

    objects: Mapping[Key, dict[str, Any]] = field(default_factory=dict)
    observed: Mapping[Key, dict[str, Any]] = field(default_factory=dict)


@runtime_checkable
class Reconciler(Protocol):
    def reconcile(
        self, declared: Mapping[Key, dict[str, Any]], write: Write | None, now: float
    ) -> Reconciled:
        """The cluster after ``write`` (None: the initial state) at time ``now``. Called with
        the state's lock held, after every accepted write and once at start."""
        ...

    def owns(self, key: Key) -> bool:
        """Whether a delete of this non-declared object is the reconciler's to handle."""
        ...
