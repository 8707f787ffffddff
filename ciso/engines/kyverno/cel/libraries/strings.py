"""Kubernetes' strings library (cel-go ext.Strings, version 2): what CEL's standard library
lacks for text."""

from __future__ import annotations

from typing import Any


def _split(text: str, sep: str, limit: int = -1) -> list[str]:
    if limit == 0:
        return []
    if sep == "":
        chars = list(text)
        return (
            chars if limit < 0 or limit >= len(chars) else [*chars[: limit - 1], text[limit - 1 :]]
        )
    return text.split(sep) if limit < 0 else text.split(sep, limit - 1)


def _join(items: list[Any], sep: str = "") -> str:
    return sep.join(items)


def _index_of(text: str, sub: str, start: int = 0) -> int:
    if start < 0 or start > len(text):
        raise ValueError(f"index out of range: {start}")
    return text.find(sub, start)


def _last_index_of(text: str, sub: str, end: int | None = None) -> int:
    return text.rfind(sub) if end is None else text.rfind(sub, 0, end + len(sub))


def _substring(text: str, start: int, end: int | None = None) -> str:
    end = len(text) if end is None else end
    if not 0 <= start <= end <= len(text):
        raise ValueError(f"substring out of range: [{start}:{end}] of {len(text)}")
    return text[start:end]


def _replace(text: str, old: str, new: str, limit: int = -1) -> str:
    return text.replace(old, new, limit)


def _char_at(text: str, i: int) -> str:
    if not 0 <= i <= len(text):
        raise ValueError(f"index out of range: {i}")
    return text[i] if i < len(text) else ""


FUNCTIONS = {
    "split": _split,
    "join": _join,
    "indexOf": _index_of,
    "lastIndexOf": _last_index_of,
    "substring": _substring,
    "replace": _replace,
    "charAt": _char_at,
    "lowerAscii": lambda s: "".join(c.lower() if c.isascii() else c for c in s),
    "upperAscii": lambda s: "".join(c.upper() if c.isascii() else c for c in s),
    "trim": lambda s: s.strip(" \t\n\r\v\f\u0085\u00a0"),
}
