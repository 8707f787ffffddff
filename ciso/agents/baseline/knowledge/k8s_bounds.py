"""Reading a numeric bound out of a Kubernetes requirement text: "no later than 5 minutes",
"at least 2 replicas", "between 10 and 120 seconds", "within 24 hours (86400 seconds)".

One reader for every Kubernetes table that bounds a field (``k8s_workloads``: grace windows, Job
deadlines and retries, replica minimums; ``k8s_field_families``: CronJob cut-offs, finished-Job
lifetimes, rollout history, autoscaler ranges, container ports), so a phrasing learnt for one is
read for all. RHEL settings have their own reader (``rhel_config.bounds``): it returns a
comparison and reads numbers spelled as words and ages in days.
"""

from __future__ import annotations

import re
from typing import Literal

#: what a bound is counted in: seconds (every time unit converted) or a plain count
Unit = Literal["seconds", "count"]

_UNIT = (
    r"(seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|d|replicas?|revisions?|copies|"
    r"pods?|instances?|times?)?"
)
_NUMBER = r"(\d[\d,]*)\s*" + _UNIT + r"\b"
_SECONDS = {"s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3600, "hr": 3600,
            "hour": 3600, "d": 86400, "day": 86400}  # fmt: skip
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
#: "between 10 and 120 seconds": the unit after the second number is the first's too
_BETWEEN = re.compile(r"\bbetween\s+" + _NUMBER + r"\s+and\s+" + _NUMBER, re.I)
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


def bounds(text: str, unit: Unit) -> tuple[int | None, int | None]:
    """The (minimum, maximum) the text gives in ``unit``: both ends of "between A and B", else
    the first lower and the first upper bound."""
    between = _BETWEEN.search(text)
    if between:
        low_end = between.end(2) if between.group(2) else between.end(1)
        low = _value(between.group(1), between.group(2) or between.group(4), text, low_end, unit)
        high = _value(between.group(3), between.group(4), text, between.end(), unit)
        return low, high
    low_match = _LOWER_BOUND.search(text)
    high_match = _UPPER_BOUND.search(text)
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
