"""Kyverno's time library: ``time.now()`` (UTC), ``time.truncate(t, d)``, ``time.toCron(t)``."""

from __future__ import annotations

import datetime

from ciso.engines.kyverno.cel.syntax import namespaced


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def truncate(t: datetime.datetime, d: datetime.timedelta) -> datetime.datetime:
    step = d.total_seconds()
    if step <= 0:
        return t
    epoch = datetime.datetime(1970, 1, 1, tzinfo=t.tzinfo or datetime.UTC)
    seconds = (t - epoch).total_seconds()
    return epoch + datetime.timedelta(seconds=seconds - seconds % step)


def to_cron(t: datetime.datetime) -> str:
    return f"{t.minute} {t.hour} {t.day} {t.month} {(t.weekday() + 1) % 7}"


FUNCTIONS = {
    namespaced("time", "now"): now,
    namespaced("time", "truncate"): truncate,
    namespaced("time", "toCron"): to_cron,
}
