"""How large a string or list one Kyverno function (JMESPath or CEL) may build.

Kubernetes bounds CEL by a cost budget in which a string function costs in proportion to the
length it produces, and no object it admits can be larger than the API server's request limit
(3 MiB). A policy can still make a result grow geometrically from a small input
(``replace_all`` of one character by ten, ten times over), which in Python ends in a MemoryError
or the OS killing the process. So a function whose result would be longer than
``MAX_LENGTH`` (characters of a string, elements of a list) fails instead, before building it,
with an error naming the function: the rule errors, as a rule over Kubernetes' cost limit does.
"""

from __future__ import annotations

from typing import Any

#: 3 MiB: the API server's request-size limit, so no real resource holds a longer string
MAX_LENGTH = 3 * 1024 * 1024


class GrowthLimitExceeded(ValueError):
    """A function's result would be longer than MAX_LENGTH."""

    def __init__(self, function: str, length: int) -> None:
        super().__init__(
            f"{function}: result of {length} characters or elements exceeds the limit of "
            f"{MAX_LENGTH} (3 MiB)"
        )
        self.function = function
        self.length = length


def check(function: str, length: int) -> None:
    if length > MAX_LENGTH:
        raise GrowthLimitExceeded(function, length)


def replaced_length(text: str, old: str, new: str, count: int = -1) -> int:
    """The length of ``text.replace(old, new, count)`` without building it."""
    found = len(text) + 1 if old == "" else text.count(old)
    if count >= 0:
        found = min(found, count)
    return len(text) + found * (len(new) - len(old))


def bounded(function: str, value: Any) -> Any:
    """``value`` when it is within the limit (strings and lists), else GrowthLimitExceeded."""
    if isinstance(value, (str, list, tuple, bytes)):
        check(function, len(value))
    return value
