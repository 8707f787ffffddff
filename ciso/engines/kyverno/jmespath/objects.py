"""Object and list functions: lookup, items, object_from_lists, label_match, random."""

from __future__ import annotations

import random as _random
import re
import string
from typing import Any

from jmespath import functions

from ciso.engines.kyverno import growth
from ciso.engines.kyverno.jmespath.strings import FunctionError, go_text


def random_string(pattern: str, rng: _random.Random | None = None) -> str:
    """A string matching a simple regular expression, as Kyverno's random() generates one.
    Covers what generator patterns use: literals, escapes (\\d \\w \\s), classes ``[a-z0-9]``,
    ``.``, and the quantifiers ``{n}`` ``{n,m}`` ``?`` ``*`` ``+`` (unbounded ones capped at 10)."""
    if not pattern:
        raise FunctionError("random: no pattern provided")
    rng = rng or _random.Random()
    classes = {"d": string.digits, "w": string.ascii_letters + string.digits + "_", "s": " "}
    out: list[str] = []
    i = 0
    body = pattern.removeprefix("^").removesuffix("$")
    while i < len(body):
        char = body[i]
        if char == "\\" and i + 1 < len(body):
            choices = classes.get(body[i + 1], body[i + 1])
            i += 2
        elif char == "[":
            end = body.find("]", i + 1)
            if end < 0:
                raise FunctionError(f"random: unterminated class in {pattern!r}")
            spec, choices = body[i + 1 : end], ""
            for m in re.finditer(r"(.)-(.)|(.)", spec):
                if m.group(3) is not None:
                    choices += m.group(3)
                else:
                    choices += "".join(chr(c) for c in range(ord(m.group(1)), ord(m.group(2)) + 1))
            i = end + 1
        elif char == ".":
            choices = string.ascii_letters + string.digits
            i += 1
        elif char in "()|":
            raise FunctionError(
                f"unsupported: random() pattern with groups or alternation: {pattern!r}"
            )
        else:
            choices = char
            i += 1
        low = high = 1
        quantifier = re.match(r"\{(\d+)(?:,(\d*))?\}|[?*+]", body[i:])
        if quantifier:
            text = quantifier.group(0)
            if text == "?":
                low, high = 0, 1
            elif text == "*":
                low, high = 0, 10
            elif text == "+":
                low, high = 1, 10
            else:
                low = int(quantifier.group(1))
                high = low if quantifier.group(2) is None else int(quantifier.group(2) or low + 10)
            i += quantifier.end()
        try:
            growth.check("random", len(out) + high)
        except growth.GrowthLimitExceeded as exc:
            raise FunctionError(str(exc)) from None
        out.extend(rng.choice(choices) for _ in range(rng.randint(low, high)))
    return "".join(out)


class ObjectFunctions:
    @functions.signature({"types": ["object", "array"]}, {"types": ["string", "number"]})
    def _func_lookup(self, collection: Any, key: Any) -> Any:
        if isinstance(collection, dict):
            if not isinstance(key, str):
                raise FunctionError("lookup: argument #2 must be a string for an object")
            return collection.get(key)
        if isinstance(key, str) or float(key) != int(key):
            raise FunctionError("lookup: argument #2 must be an integer for an array")
        index = int(key)
        return collection[index] if 0 <= index < len(collection) else None

    @functions.signature(
        {"types": ["object", "array"]}, {"types": ["string"]}, {"types": ["string"]}
    )
    def _func_items(self, value: Any, key_name: str, value_name: str) -> list:
        if isinstance(value, dict):
            return [{key_name: k, value_name: v} for k, v in sorted(value.items())]
        return [{key_name: i, value_name: v} for i, v in enumerate(value)]

    @functions.signature({"types": ["array"]}, {"types": ["array"]})
    def _func_object_from_lists(self, keys: list, values: list) -> dict:
        return {go_text(k): (values[i] if i < len(values) else None) for i, k in enumerate(keys)}

    @functions.signature({"types": ["object"]}, {"types": ["object"]})
    def _func_label_match(self, selector: dict, labels: dict) -> bool:
        return all(k in labels and labels[k] == v for k, v in selector.items())

    @functions.signature({"types": ["string"]})
    def _func_random(self, pattern: str) -> str:
        return random_string(pattern)
