"""String functions: compare, equal_fold, replace, replace_all, to_upper, to_lower, trim,
trim_prefix, split, truncate, regex_match, regex_replace_all, regex_replace_all_literal,
pattern_match, to_boolean, path_canonicalize."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Any

from jmespath import functions
from jmespath.exceptions import JMESPathError

from ciso.engines.kyverno import growth, wildcard
from itbench import goregexp

if TYPE_CHECKING:  # the stubs name the shape of a signature argument
    from jmespath.functions import _Signature

_STRING_OR_NUMBER: _Signature = {"types": ["string", "number"]}


class FunctionError(JMESPathError):
    """A Kyverno function refused its arguments (Kyverno reports these as rule errors)."""


def go_text(value: Any) -> str:
    """A string or number argument as Kyverno's ifaceToString spells it (``8080``, ``1.5``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        number = float(value)
        if number.is_integer():
            return str(int(number))
        text = f"{number:.7g}"  # Go prints the shortest float32 form, never an exponent
        return f"{float(text):f}".rstrip("0").rstrip(".") if "e" in text else text
    raise FunctionError(f"expected a string or a number, got {value!r}")


def _compile(pattern: str) -> goregexp.Regexp:
    """A policy's pattern, compiled as Go's regexp (RE2: linear time, no backreferences)."""
    try:
        return goregexp.compile(pattern)
    except goregexp.RegexError as exc:
        raise FunctionError(str(exc)) from None


def _bounded_replace(function: str, s: str, old: str, new: str, n: int = -1) -> str:
    try:
        growth.check(function, growth.replaced_length(s, old, new, n))
    except growth.GrowthLimitExceeded as exc:
        raise FunctionError(str(exc)) from None
    return s.replace(old, new, n)


def _regex_replace(function: str, replace: Any) -> str:
    try:
        return replace(max_length=growth.MAX_LENGTH)
    except goregexp.GrowthError as exc:
        raise FunctionError(str(growth.GrowthLimitExceeded(function, exc.length))) from None


class StringFunctions:
    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_compare(self, a: str, b: str) -> int:
        return (a > b) - (a < b)

    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_equal_fold(self, a: str, b: str) -> bool:
        return a.casefold() == b.casefold()

    @functions.signature(
        {"types": ["string"]}, {"types": ["string"]}, {"types": ["string"]}, {"types": ["number"]}
    )
    def _func_replace(self, s: str, old: str, new: str, n: float) -> str:
        return _bounded_replace("replace", s, old, new, int(n) if n >= 0 else -1)

    @functions.signature({"types": ["string"]}, {"types": ["string"]}, {"types": ["string"]})
    def _func_replace_all(self, s: str, old: str, new: str) -> str:
        return _bounded_replace("replace_all", s, old, new)

    @functions.signature({"types": ["string"]})
    def _func_to_upper(self, s: str) -> str:
        return s.upper()

    @functions.signature({"types": ["string"]})
    def _func_to_lower(self, s: str) -> str:
        return s.lower()

    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_trim(self, s: str, cutset: str) -> str:
        return s.strip(cutset) if cutset else s

    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_trim_prefix(self, s: str, prefix: str) -> str:
        return s.removeprefix(prefix)

    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_split(self, s: str, sep: str) -> list[str]:
        return list(s) if sep == "" else s.split(sep)  # Go splits "" into characters

    @functions.signature({"types": ["string"]}, {"types": ["number"]})
    def _func_truncate(self, s: str, length: float) -> str:
        return s[: max(0, int(length))]

    @functions.signature({"types": ["string"]}, _STRING_OR_NUMBER)
    def _func_regex_match(self, pattern: str, value: Any) -> bool:
        return _compile(pattern).matches(go_text(value))

    @functions.signature({"types": ["string"]}, _STRING_OR_NUMBER, _STRING_OR_NUMBER)
    def _func_regex_replace_all(self, pattern: str, value: Any, replacement: Any) -> str:
        regex, text, template = _compile(pattern), go_text(value), go_text(replacement)
        return _regex_replace(
            "regex_replace_all", lambda **bound: regex.replace_all(text, template, **bound)
        )

    @functions.signature({"types": ["string"]}, _STRING_OR_NUMBER, _STRING_OR_NUMBER)
    def _func_regex_replace_all_literal(self, pattern: str, value: Any, replacement: Any) -> str:
        regex, text, literal = _compile(pattern), go_text(value), go_text(replacement)
        return _regex_replace(
            "regex_replace_all_literal",
            lambda **bound: regex.replace_all_literal(text, literal, **bound),
        )

    @functions.signature({"types": ["string"]}, _STRING_OR_NUMBER)
    def _func_pattern_match(self, pattern: str, value: Any) -> bool:
        return wildcard.match(pattern, go_text(value))

    @functions.signature({"types": ["string"]})
    def _func_to_boolean(self, s: str) -> bool:
        lowered = s.lower()
        if lowered not in ("true", "false"):
            raise FunctionError(
                f"to_boolean: lowercase argument must be 'true' or 'false' (provided: '{s}')"
            )
        return lowered == "true"

    @functions.signature({"types": ["string"]})
    def _func_path_canonicalize(self, s: str) -> str:
        if s == "":
            return ""
        cleaned = posixpath.normpath(s)
        return "/" + cleaned.lstrip("/") if cleaned.startswith("//") else cleaned
