"""Kyverno's custom JMESPath functions, on top of the jmespath package's standard ones."""

from __future__ import annotations

import base64
import datetime as dt
import json
import re
from typing import Any

import jmespath
import yaml
from jmespath import functions


def _number(value: Any) -> float:
    from ciso.engines.kyverno.pattern.values import as_number

    number = as_number(value)
    if number is None:
        raise ValueError(f"{value!r} is not a number, quantity or duration")
    return number


def _timestamp(text: str) -> dt.datetime:
    value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def _go_duration(seconds: float) -> str:
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = (
        (f"{int(hours)}h" if hours else "")
        + (f"{int(minutes)}m" if hours or minutes else "")
        + f"{secs:g}s"
    )
    return sign + text


def _semver(version: str) -> tuple:
    core = version.lstrip("v").split("-")[0].split("+")[0]
    parts = [int(p) if p.isdigit() else 0 for p in core.split(".")]
    return tuple((parts + [0, 0, 0])[:3])


class KyvernoFunctions(functions.Functions):
    @functions.signature({"types": ["string"]})
    def _func_to_upper(self, s: str) -> str:
        return s.upper()

    @functions.signature({"types": ["string"]})
    def _func_to_lower(self, s: str) -> str:
        return s.lower()

    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_split(self, s: str, sep: str) -> list[str]:
        return s.split(sep)

    @functions.signature({"types": ["string"]}, {"types": ["string", "number"]})
    def _func_regex_match(self, pattern: str, value: Any) -> bool:
        return re.search(pattern, str(value)) is not None

    @functions.signature(
        {"types": ["string"]}, {"types": ["string", "number"]}, {"types": ["string", "number"]}
    )
    def _func_regex_replace_all(self, pattern: str, value: Any, replacement: Any) -> str:
        repl = re.sub(r"\$\{?(\d+)\}?", r"\\\1", str(replacement))
        return re.sub(pattern, repl, str(value))

    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_equal_fold(self, a: str, b: str) -> bool:
        return a.casefold() == b.casefold()

    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_compare(self, a: str, b: str) -> int:
        return (a > b) - (a < b)

    @functions.signature({"types": ["object"]}, {"types": ["object"]})
    def _func_label_match(self, selector: dict, labels: dict) -> bool:
        return all(labels.get(k) == v for k, v in selector.items())

    @functions.signature({"types": ["string"]}, {"types": ["number"]})
    def _func_truncate(self, s: str, length: float) -> str:
        return s[: max(0, int(length))]

    @functions.signature({"types": ["string"]})
    def _func_base64_decode(self, s: str) -> str:
        return base64.b64decode(s).decode("utf-8", errors="replace")

    @functions.signature({"types": ["string"]})
    def _func_base64_encode(self, s: str) -> str:
        return base64.b64encode(s.encode()).decode()

    @functions.signature({"types": ["string"]})
    def _func_parse_json(self, s: str) -> Any:
        return json.loads(s)

    @functions.signature({"types": ["string"]})
    def _func_parse_yaml(self, s: str) -> Any:
        return yaml.safe_load(s)

    @functions.signature(
        {"types": ["object", "array"]}, {"types": ["string"]}, {"types": ["string"]}
    )
    def _func_items(self, value: Any, key_name: str, value_name: str) -> list:
        if isinstance(value, dict):
            return [{key_name: k, value_name: v} for k, v in sorted(value.items())]
        return [{key_name: i, value_name: v} for i, v in enumerate(value)]

    @functions.signature({"types": ["array"]}, {"types": ["array"]})
    def _func_object_from_lists(self, keys: list, values: list) -> dict:
        return {str(k): (values[i] if i < len(values) else None) for i, k in enumerate(keys)}

    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_semver_compare(self, version: str, constraint: str) -> bool:
        match = re.match(r"^\s*(>=|<=|>|<|=|!=)?\s*(\S+)\s*$", constraint)
        if not match:
            return False
        op, target = match.group(1) or "=", _semver(match.group(2))
        current = _semver(version)
        return {
            "=": current == target,
            "!=": current != target,
            ">": current > target,
            "<": current < target,
            ">=": current >= target,
            "<=": current <= target,
        }[op]

    @functions.signature({"types": ["number", "string"]}, {"types": ["number", "string"]})
    def _func_divide(self, a: Any, b: Any) -> float:
        # quantities and durations divide too ("1Gi" / "512Mi" == 2)
        return _number(a) / _number(b)

    @functions.signature({"types": ["number", "string"]}, {"types": ["number", "string"]})
    def _func_multiply(self, a: Any, b: Any) -> float:
        return float(a) * float(b)

    @functions.signature({"types": ["number", "string"]}, {"types": ["number", "string"]})
    def _func_add(self, a: Any, b: Any) -> float:
        return float(a) + float(b)

    @functions.signature({"types": ["number", "string"]}, {"types": ["number", "string"]})
    def _func_subtract(self, a: Any, b: Any) -> float:
        return float(a) - float(b)

    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_trim(self, s: str, cutset: str) -> str:
        return s.strip(cutset)

    @functions.signature(
        {"types": ["string"]}, {"types": ["string"]}, {"types": ["string"]}, {"types": ["number"]}
    )
    def _func_replace(self, s: str, old: str, new: str, n: float) -> str:
        return s.replace(old, new, int(n) if n >= 0 else -1)

    @functions.signature({"types": ["string"]}, {"types": ["string"]}, {"types": ["string"]})
    def _func_replace_all(self, s: str, old: str, new: str) -> str:
        return s.replace(old, new)

    @functions.signature({"types": ["string"]}, {"types": ["string"]}, {"types": ["string"]})
    def _func_time_since(self, layout: str, start: str, end: str) -> str:
        """Duration from ``start`` to ``end`` (now when empty), as Go prints durations."""
        first = _timestamp(start)
        last = _timestamp(end) if end else dt.datetime.now(dt.UTC)
        return _go_duration((last - first).total_seconds())

    @functions.signature()
    def _func_time_now_utc(self) -> str:
        return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    @functions.signature({"types": ["object", "array"]}, {"types": ["string", "number"]})
    def _func_lookup(self, collection: Any, key: Any) -> Any:
        if isinstance(collection, dict):
            return collection.get(key)
        index = int(key)
        return collection[index] if 0 <= index < len(collection) else None


_OPTIONS = jmespath.Options(custom_functions=KyvernoFunctions())


def search(expression: str, data: Any) -> Any:
    return jmespath.search(expression, data, options=_OPTIONS)


def compile_check(expression: str) -> None:
    """Raise jmespath's error for an invalid expression (used by lint and by policy loading)."""
    jmespath.compile(expression)
