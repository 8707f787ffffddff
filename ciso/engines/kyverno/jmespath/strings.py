"""String functions: compare, equal_fold, replace, replace_all, to_upper, to_lower, trim,
trim_prefix, split, truncate, regex_match, regex_replace_all, regex_replace_all_literal,
pattern_match, to_boolean, path_canonicalize."""

from __future__ import annotations

import posixpath
import re
from typing import Any

from jmespath import functions
from jmespath.exceptions import JMESPathError

from ciso.engines.kyverno import wildcard

_STRING_OR_NUMBER = {"types": ["string", "number"]}


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


def _go_replacement(template: str) -> str:
    """Go's regexp ``$1`` / ``${1}`` / ``${name}`` / ``$$`` expansion as a Python template."""
    out, i = [], 0
    while i < len(template):
        char = template[i]
        if char == "\\":
            out.append("\\\\")
        elif char == "$" and i + 1 < len(template):
            if template[i + 1] == "$":
                out.append("$")
                i += 2
                continue
            match = re.match(r"\{(\w+)\}|(\w+)", template[i + 1 :])
            if match:
                name = match.group(1) or match.group(2)
                out.append(f"\\g<{name}>")
                i += 1 + match.end()
                continue
            out.append("$")
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _compile(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise FunctionError(f"invalid regular expression {pattern!r}: {exc}") from None


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
        return s.replace(old, new, int(n) if n >= 0 else -1)

    @functions.signature({"types": ["string"]}, {"types": ["string"]}, {"types": ["string"]})
    def _func_replace_all(self, s: str, old: str, new: str) -> str:
        return s.replace(old, new)

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
        return _compile(pattern).search(go_text(value)) is not None

    @functions.signature({"types": ["string"]}, _STRING_OR_NUMBER, _STRING_OR_NUMBER)
    def _func_regex_replace_all(self, pattern: str, value: Any, replacement: Any) -> str:
        regex = _compile(pattern)
        try:
            return regex.sub(_go_replacement(go_text(replacement)), go_text(value))
        except (re.error, IndexError):
            # Go expands an unknown group to nothing instead of failing
            return regex.sub(lambda _m: "", go_text(value))

    @functions.signature({"types": ["string"]}, _STRING_OR_NUMBER, _STRING_OR_NUMBER)
    def _func_regex_replace_all_literal(self, pattern: str, value: Any, replacement: Any) -> str:
        literal = go_text(replacement)
        return _compile(pattern).sub(lambda _m: literal, go_text(value))

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
