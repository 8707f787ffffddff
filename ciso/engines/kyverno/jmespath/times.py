"""Time functions: time_since, time_now, time_now_utc, time_to_cron, time_add, time_parse,
time_utc, time_diff, time_before, time_after, time_between, time_truncate. Times are RFC 3339
strings and durations Go duration strings, as Kyverno reads and prints them."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from jmespath import functions

from ciso.engines.kyverno.jmespath.gotypes import (
    format_rfc3339,
    parse_duration,
    parse_layout,
    parse_rfc3339,
)
from ciso.engines.kyverno.jmespath.strings import FunctionError
from itbench.gotime import format_duration

if TYPE_CHECKING:  # the stubs name the shape of a signature argument
    from jmespath.functions import _Signature

_STRING: _Signature = {"types": ["string"]}


def _time(text: str, function: str) -> dt.datetime:
    try:
        return parse_rfc3339(text)
    except ValueError as exc:
        raise FunctionError(f"{function}: {exc}") from None


def _duration(text: str, function: str) -> int:
    try:
        return parse_duration(text)
    except ValueError as exc:
        raise FunctionError(f"{function}: {exc}") from None


def _between_ns(start: dt.datetime, end: dt.datetime) -> int:
    delta = end - start
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000


class TimeFunctions:
    @functions.signature(_STRING, _STRING, _STRING)
    def _func_time_since(self, layout: str, start: str, end: str) -> str:
        def read(text: str) -> dt.datetime:
            try:
                return parse_layout(layout, text) if layout else parse_rfc3339(text)
            except ValueError as exc:
                raise FunctionError(f"time_since: {exc}") from None

        first = read(start)
        last = read(end) if end else dt.datetime.now(dt.UTC)
        return format_duration(_between_ns(first, last))

    @functions.signature()
    def _func_time_now(self) -> str:
        return format_rfc3339(dt.datetime.now().astimezone())

    @functions.signature()
    def _func_time_now_utc(self) -> str:
        return format_rfc3339(dt.datetime.now(dt.UTC))

    @functions.signature(_STRING)
    def _func_time_to_cron(self, text: str) -> str:
        moment = _time(text, "time_to_cron")
        weekday = (moment.weekday() + 1) % 7  # Go counts Sunday as 0
        return f"{moment.minute} {moment.hour} {moment.day} {moment.month} {weekday}"

    @functions.signature(_STRING, _STRING)
    def _func_time_add(self, text: str, duration: str) -> str:
        moment = _time(text, "time_add")
        nanos = _duration(duration, "time_add")
        return format_rfc3339(moment + dt.timedelta(microseconds=nanos // 1_000))

    @functions.signature(_STRING, _STRING)
    def _func_time_parse(self, layout: str, text: str) -> str:
        if layout.lstrip("-").isdigit():  # a numeric layout means epoch seconds
            try:
                seconds = int(text)
            except ValueError:
                raise FunctionError(f"time_parse: {text!r} is not epoch seconds") from None
            return format_rfc3339(dt.datetime.fromtimestamp(seconds, dt.UTC))
        try:
            return format_rfc3339(parse_layout(layout, text))
        except ValueError as exc:
            raise FunctionError(f"time_parse: {exc}") from None

    @functions.signature(_STRING)
    def _func_time_utc(self, text: str) -> str:
        return format_rfc3339(_time(text, "time_utc").astimezone(dt.UTC))

    @functions.signature(_STRING, _STRING)
    def _func_time_diff(self, start: str, end: str) -> str:
        return format_duration(_between_ns(_time(start, "time_diff"), _time(end, "time_diff")))

    @functions.signature(_STRING, _STRING)
    def _func_time_before(self, a: str, b: str) -> bool:
        return _time(a, "time_before") < _time(b, "time_before")

    @functions.signature(_STRING, _STRING)
    def _func_time_after(self, a: str, b: str) -> bool:
        return _time(a, "time_after") > _time(b, "time_after")

    @functions.signature(_STRING, _STRING, _STRING)
    def _func_time_between(self, text: str, start: str, end: str) -> bool:
        moment = _time(text, "time_between")
        return _time(start, "time_between") < moment < _time(end, "time_between")

    @functions.signature(_STRING, _STRING)
    def _func_time_truncate(self, text: str, duration: str) -> str:
        moment = _time(text, "time_truncate")
        step = _duration(duration, "time_truncate")
        if step <= 0:
            return format_rfc3339(moment)
        # Go truncates the absolute time since its zero time; whole days and hours line up
        # with the Unix epoch for the steps policies use
        epoch = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
        nanos = _between_ns(epoch, moment)
        truncated = epoch + dt.timedelta(microseconds=(nanos - nanos % step) // 1_000)
        return format_rfc3339(truncated.astimezone(moment.tzinfo))
