"""Reading a numeric bound out of a Kubernetes requirement text: "no later than 5 minutes",
"at least 2 replicas", "between 10 and 120 seconds", "within 24 hours (86400 seconds)".

One reader for every Kubernetes table that bounds a field (``k8s_workloads``: grace windows, Job
deadlines and retries, replica minimums; ``k8s_field_families``: CronJob cut-offs, finished-Job
lifetimes, rollout history, autoscaler ranges, container ports; sizes in bytes for claim caps and
any quantity field the schema reader finds), so a phrasing learnt for one is read for all. RHEL settings have their own reader (``rhel_config.bounds``): it returns a
comparison and reads numbers spelled as words and ages in days.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from ciso.agents.baseline.knowledge.number_words import as_digits

#: what a bound is counted in: seconds (every time unit converted), a plain count, or a
#: percentage ("above 80%": no count of replicas or seconds, and only a percentage is one)
Unit = Literal["seconds", "count", "percent"]

_UNIT = (
    r"(seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|d|weeks?|replicas?|revisions?|copies|"
    r"pods?|instances?|times?)?"
)
_NUMBER = r"(\d[\d,]*)\s*" + _UNIT + r"\b"
_SECONDS = {"s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3600, "hr": 3600,
            "hour": 3600, "d": 86400, "day": 86400, "week": 604800}  # fmt: skip
#: words before a number that make it the largest value allowed ("more than 10 minutes" in a
#: sentence that forbids it, "no later than 24 hours", "above 20")
UPPER = (
    r"at\s+most|no\s+more\s+than|not\s+more\s+than|no\s+later\s+than|not\s+later\s+than|"
    r"no\s+longer\s+than|up\s+to|maximum\s+of|a\s+max(?:imum)?\s+of|within|<=|more\s+than|"
    r"later\s+than|longer\s+than|above|over|exceed\w*|beyond|greater\s+than"
)
#: words that make it the smallest ("below 2", "at least 2", "fewer than 2")
LOWER = (
    r"at\s+least|no\s+less\s+than|not\s+less\s+than|no\s+fewer\s+than|not\s+fewer\s+than|"
    r"minimum\s+of|a\s+min(?:imum)?\s+of|>=|fewer\s+than|less\s+than|below|under|"
    r"shorter\s+than"
)
_UPPER_BOUND = re.compile(r"\b(?:" + UPPER + r")\s+" + _NUMBER, re.I)
_LOWER_BOUND = re.compile(r"\b(?:" + LOWER + r")\s+" + _NUMBER, re.I)
#: the words that make a clause a requirement: a bound after its number is one only in such a
#: clause ("must keep 3 replicas or more"), where "pods with 2 or more containers" is a condition
REQUIRES = r"\b(?:must|shall|should|has\s+to|have\s+to|needs?\s+to)\b"
#: a requirement earlier in the same clause, close enough to govern the number that ends ``text``
_REQUIRED_HERE = re.compile(REQUIRES + r"[^.;,]{0,40}$", re.I)
#: what follows a number to make it the smallest value allowed: "2 or more", "3 at the least"
LOWER_AFTER = (
    r"(?:or\s+(?:more|greater|higher|above|over)|and\s+(?:more|above|up)|"
    r"at\s+(?:the\s+)?(?:least|minimum)|minimum)\b"
)
#: the bound said after the number: "2 or more", "3 replicas at the least", "60 seconds or less"
_LOWER_TRAILING = re.compile(r"\b" + _NUMBER + r"\s*" + LOWER_AFTER, re.I)
_UPPER_TRAILING = re.compile(
    r"\b" + _NUMBER + r"\s*(?:or\s+(?:less|fewer|lower|below|under|shorter|sooner)|"
    r"and\s+(?:less|below|under)|at\s+(?:the\s+)?(?:most|maximum)|maximum)\b",
    re.I,
)
#: "between 10 and 120 seconds": the unit after the second number is the first's too
_BETWEEN = re.compile(r"\bbetween\s+" + _NUMBER + r"\s+and\s+" + _NUMBER, re.I)
#: "from 10000 to 65535", "the range 1 to 9", "10000 to 65535 inclusive": both ends of a range
_RANGE = re.compile(
    r"\b(?:from\s+|range\s+(?:of\s+)?)" + _NUMBER + r"\s+(?:to|through)\s+" + _NUMBER
    + r"|\b" + _NUMBER + r"\s+(?:to|through)\s+" + _NUMBER + r"\s+inclusive\b",
    re.I,
)  # fmt: skip
#: "(600 seconds" after "10 minutes": the text's own conversion wins
_SECONDS_ASIDE = re.compile(r"^\s*\(\s*(\d[\d,]*)\s*s(?:ec(?:ond)?s?)?\b", re.I)


def _value(number: str, spelled: str | None, text: str, end: int, unit: Unit) -> int:
    value = int(number.replace(",", ""))
    if unit != "seconds":
        return value
    aside = _SECONDS_ASIDE.match(text[end:])
    if aside:
        return int(aside.group(1).replace(",", ""))
    word = (spelled or "s").lower()
    word = word if word in _SECONDS else word.rstrip("s")
    return value * _SECONDS.get(word, 1)


_PERCENT = re.compile(r"\s*(?:%|per\s*cent\b)", re.I)


def _in_unit(unit: Unit, text: str) -> Callable[[re.Match[str]], bool]:
    """Whether a bound found in ``text`` is counted in ``unit``: a number followed by % is a
    percentage and nothing else is."""
    return lambda m: (unit == "percent") == bool(_PERCENT.match(text, m.end()))


def _first(pattern: re.Pattern[str], text: str, unit: Unit) -> re.Match[str] | None:
    return next(filter(_in_unit(unit, text), pattern.finditer(text)), None)


def _first_required(pattern: re.Pattern[str], text: str, unit: Unit) -> re.Match[str] | None:
    """The first bound after its number in a clause that requires it: "2 or more" in "pods with
    2 or more containers must ..." describes the pods the rule covers and bounds nothing."""
    in_unit = _in_unit(unit, text)
    return next(
        (
            m
            for m in pattern.finditer(text)
            if in_unit(m) and _REQUIRED_HERE.search(text, 0, m.start())
        ),
        None,
    )


def bounds(text: str, unit: Unit) -> tuple[int | None, int | None]:
    """The (minimum, maximum) the text gives in ``unit``: both ends of "between A and B", else
    the first lower and the first upper bound; numbers may be written in words ("half a
    minute", "three replicas")."""
    text = as_digits(text)
    between = _first(_BETWEEN, text, unit) or _first(_RANGE, text, unit)
    if between and between.re is _RANGE and between.group(1) is None:
        # the "A to B inclusive" spelling: its groups come after the "from A to B" ones
        groups = between.groups()[4:]
        low = _value(groups[0], groups[1] or groups[3], text, between.start(), unit)
        high = _value(groups[2], groups[3], text, between.end(), unit)
        return low, high
    if between:
        low_end = between.end(2) if between.group(2) else between.end(1)
        low = _value(between.group(1), between.group(2) or between.group(4), text, low_end, unit)
        high = _value(between.group(3), between.group(4), text, between.end(), unit)
        return low, high
    low_match = _first(_LOWER_BOUND, text, unit) or _first_required(_LOWER_TRAILING, text, unit)
    high_match = _first(_UPPER_BOUND, text, unit) or _first(_UPPER_TRAILING, text, unit)
    return (
        _value(low_match.group(1), low_match.group(2), text, low_match.end(), unit)
        if low_match
        else None,
        _value(high_match.group(1), high_match.group(2), text, high_match.end(), unit)
        if high_match
        else None,
    )


def job_paths(field: str) -> tuple[tuple[str, ...], ...]:
    """A Job's own field, and where a CronJob keeps it for the Jobs it creates."""
    return (("spec", field), ("spec", "jobTemplate", "spec", field))


# ---- sizes: "at most 10Gi", "no larger than 2 gibibytes", "512Mi or less" ----------------------

_BYTES = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12, "p": 10**15,
          "ki": 2**10, "mi": 2**20, "gi": 2**30, "ti": 2**40, "pi": 2**50}  # fmt: skip
_BYTE_WORDS = {"kilo": "k", "mega": "m", "giga": "g", "tera": "t", "peta": "p",
               "kibi": "ki", "mebi": "mi", "gibi": "gi", "tebi": "ti", "pebi": "pi"}  # fmt: skip
#: a size with its unit (a suffix, a spelled unit or "bytes"); a bare number is bytes only where
#: the field is known to be a quantity
_SIZE = (
    r"(\d[\d,]*(?:\.\d+)?)\s*(?:(Ki|Mi|Gi|Ti|Pi|K|M|G|T|P)i?B?\b|"
    r"(kilo|mega|giga|tera|peta|kibi|mebi|gibi|tebi|pebi)bytes?\b|(bytes?)\b{bare})"
)
_SIZE_UPPER = r"\b(?:" + UPPER + r"|larger\s+than|bigger\s+than)\s+(?:a\s+)?"
_SIZE_LOWER = r"\b(?:" + LOWER + r"|smaller\s+than)\s+(?:a\s+)?"
_SIZE_TRAILING = r"\s+or\s+(?:less|smaller|below)\b"


def _size_patterns(bare: bool) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    size = _SIZE.format(bare=r"|\b" if bare else "")
    return (
        re.compile(_SIZE_LOWER + size, re.I),
        re.compile(_SIZE_UPPER + size, re.I),
        re.compile(size + _SIZE_TRAILING, re.I),
    )


_SIZES = {bare: _size_patterns(bare) for bare in (False, True)}


def _bytes(match: re.Match[str]) -> int:
    unit = (match.group(2) or "").lower()
    if match.group(3):
        unit = _BYTE_WORDS[match.group(3).lower()]
    return int(float(match.group(1).replace(",", "")) * _BYTES[unit])


def byte_bounds(text: str, *, quantity: bool = False) -> tuple[int | None, int | None]:
    """The (minimum, maximum) size in bytes the text gives: the first lower and the first upper
    bound. ``quantity``: the clause is known to be about a quantity field (the schema reader found
    one), so a number with no unit is bytes and "512Mi or less" is an upper bound too; read
    without that knowledge, a trailing size is too often another thing's ("a scratch directory of
    1Gi or less" is not a claim's cap)."""
    lower, upper, trailing = _SIZES[quantity]
    low = lower.search(text)
    high = upper.search(text) or (trailing.search(text) if quantity else None)
    return (_bytes(low) if low else None, _bytes(high) if high else None)
