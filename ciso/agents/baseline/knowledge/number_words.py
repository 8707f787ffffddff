"""Numbers a Kubernetes requirement writes in words, rewritten as digits for the bound reader
(``k8s_bounds``): "three replicas", "twenty-five seconds", "half a minute", "a quarter of an
hour", "within a day". The bound reader then needs one grammar (digits and a unit) for both.
"""

from __future__ import annotations

import re

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SMALL = rf"(?:(?:{'|'.join(_TENS)})(?:[\s-]+(?:{'|'.join(_ONES[1:10])}))?|(?:{'|'.join(_ONES)}))"
#: "seven", "forty-two", "three hundred and sixty-five" (a pattern other readers embed)
WORD_NUMBER = rf"{_SMALL}(?:\s+hundred(?:\s+(?:and\s+)?{_SMALL})?)?|hundred"
_WORD_NUMBER = re.compile(rf"\b(?:{WORD_NUMBER})\b", re.I)
#: time units with the smaller unit a fraction of them is said in
_SMALLER = {"minute": ("second", 60), "hour": ("minute", 60), "day": ("hour", 24),
            "week": ("day", 7)}  # fmt: skip
#: "half a minute", "half an hour", "a quarter of an hour", "three quarters of an hour"
_FRACTION = re.compile(
    r"\b(half|(?:a|one|three)\s+quarters?)\s+(?:of\s+)?an?\s+(minute|hour|day|week)\b", re.I
)
#: "a day", "an hour": one unit ("within a day"); "a minute and a half" is left alone
_ONE_UNIT = re.compile(r"\ban?\s+(?=(?:second|minute|hour|day|week)\b(?!\s+and\s+a\s+half))", re.I)


def word_value(words: str) -> int:
    """The value of a number written in words ("three hundred and sixty-five" -> 365)."""
    total = 0
    for word in re.split(r"[\s-]+", words.lower()):
        if word in _ONES:
            total += _ONES.index(word)
        elif word in _TENS:
            total += 20 + 10 * _TENS.index(word)
        elif word == "hundred":
            total = max(total, 1) * 100
    return total


def _fraction(match: re.Match[str]) -> str:
    smaller, per = _SMALLER[match.group(2).lower()]
    share = match.group(1).lower()
    parts = 2 if share == "half" else 4
    count = 3 if share.startswith("three") else 1
    amount = per * count / parts
    return f"{int(amount)} {smaller}s" if amount == int(amount) else match.group(0)


def as_digits(text: str) -> str:
    """``text`` with its numbers written in words as digits ("half a minute" -> "30 seconds")."""
    text = _FRACTION.sub(_fraction, text)
    text = _ONE_UNIT.sub("1 ", text)
    return _WORD_NUMBER.sub(lambda m: str(word_value(m.group(0))), text)
