"""Kubernetes' semver library (``library.SemverLib``, version 1, as Kyverno enables it):
``semver(string[, normalize])``, ``isSemver(string[, normalize])``, ``.major()``, ``.minor()``,
``.patch()``, ``.compareTo()``, ``.isLessThan()``, ``.isGreaterThan()``.

Parsing follows github.com/blang/semver/v4's ``Parse`` (which Kubernetes calls), its error
messages included; ``normalize`` is Kubernetes' ``normalizeAndParse`` (drop a leading "v", fill
in a missing minor or patch, drop leading zeros).

A version crosses the evaluator as ``{"@semver": "<major.minor.patch[-pre]>"}``: the build
metadata is left out, so CEL's ``==`` agrees with ``compareTo`` (semver ignores the build when
comparing, as Kubernetes' ``Semver.Equal`` does).

The evaluator dispatches on a function's name only, and ``compareTo``, ``isLessThan`` and
``isGreaterThan`` are also the quantity library's: a receiver that is not a version goes on to
that library."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ciso.engines.kyverno.cel.libraries import quantity

KEY = "@semver"

_NUMBERS = re.compile(r"[0-9]*")
_ALPHANUM = re.compile(r"[0-9A-Za-z-]*")
_UINT64_MAX = 2**64 - 1


@dataclass(frozen=True, slots=True)
class Version:
    major: int
    minor: int
    patch: int
    #: the pre-release identifiers: ints for numeric ones, else strings
    pre: tuple[int | str, ...]

    def text(self) -> str:
        core = f"{self.major}.{self.minor}.{self.patch}"
        return core + ("-" + ".".join(str(p) for p in self.pre) if self.pre else "")


def _number(text: str, part: str) -> int:
    if not _NUMBERS.fullmatch(text):
        raise ValueError(f"Invalid character(s) found in {part} number {_go_quote(text)}")
    if len(text) > 1 and text[0] == "0":
        raise ValueError(
            f"{part.capitalize()} number must not contain leading zeroes {_go_quote(text)}"
        )
    return _parse_uint(text)


def _parse_uint(text: str) -> int:
    """Go's strconv.ParseUint(text, 10, 64), its error words kept."""
    if not text:
        raise ValueError('strconv.ParseUint: parsing "": invalid syntax')
    value = int(text)
    if value > _UINT64_MAX:
        raise ValueError(f"strconv.ParseUint: parsing {_go_quote(text)}: value out of range")
    return value


def _go_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _prerelease(text: str) -> int | str:
    if not text:
        raise ValueError("Prerelease is empty")
    if _NUMBERS.fullmatch(text):
        if len(text) > 1 and text[0] == "0":
            raise ValueError(
                f"Numeric PreRelease version must not contain leading zeroes {_go_quote(text)}"
            )
        return _parse_uint(text)
    if _ALPHANUM.fullmatch(text):
        return text
    raise ValueError(f"Invalid character(s) found in prerelease {_go_quote(text)}")


def parse(text: str) -> Version:
    """blang/semver's Parse: ``major.minor.patch[-pre][+build]``, nothing around it."""
    if not text:
        raise ValueError("Version string empty")
    parts = text.split(".", 2)
    if len(parts) != 3:
        raise ValueError("No Major.Minor.Patch elements found")
    major = _number(parts[0], "major")
    minor = _number(parts[1], "minor")
    patch, build, pre = parts[2], [], []
    if "+" in patch:
        patch, _, meta = patch.partition("+")
        build = meta.split(".")
    if "-" in patch:
        patch, _, release = patch.partition("-")
        pre = release.split(".")
    number = _number(patch, "patch")
    identifiers = tuple(_prerelease(p) for p in pre)
    for meta in build:
        if not meta:
            raise ValueError("Build meta data is empty")
        if not _ALPHANUM.fullmatch(meta):
            raise ValueError(f"Invalid character(s) found in build meta data {_go_quote(meta)}")
    return Version(major, minor, number, identifiers)


def _normalized(text: str) -> Version:
    """Kubernetes' normalizeAndParse."""
    text = text.removeprefix("v")
    parts = text.split(".", 2)
    for i, part in enumerate(parts):
        if len(part) > 1:
            part = part.lstrip("0")
            if not part or part[0] not in "0123456789":
                part = "0" + part
            parts[i] = part
    if len(parts) < 3:
        if any(c in parts[-1] for c in "+-"):
            raise ValueError("short version cannot contain PreRelease/Build meta data")
        parts += ["0"] * (3 - len(parts))
    return parse(".".join(parts))


def _checked(text: Any, normalize: Any, function: str) -> Version:
    if not isinstance(text, str) or not isinstance(normalize, bool):
        raise ValueError(f"no such overload: {function}({type(text).__name__})")
    return _normalized(text) if normalize else parse(text)


def _semver(text: str, normalize: bool = False) -> Any:
    return {KEY: _checked(text, normalize, "semver").text()}


def _is_semver(text: str, normalize: bool = False) -> bool:
    try:
        _checked(text, normalize, "isSemver")
    except ValueError as exc:
        if str(exc).startswith("no such overload"):
            raise
        return False
    return True


def is_version(value: Any) -> bool:
    return isinstance(value, dict) and len(value) == 1 and KEY in value


def _version(value: Any, function: str) -> Version:
    if not is_version(value):
        raise ValueError(
            f"no such overload: {function} expects a semver, got {type(value).__name__}"
        )
    return parse(value[KEY])


def _pre_key(identifier: int | str) -> tuple[int, int | str]:
    # numeric identifiers sort below alphanumeric ones
    return (0, identifier) if isinstance(identifier, int) else (1, identifier)


def compare(a: Version, b: Version) -> int:
    """semver's precedence: the numbers, then a release above its pre-releases, then the
    pre-release identifiers one by one (a longer list wins a tie)."""
    left, right = (a.major, a.minor, a.patch), (b.major, b.minor, b.patch)
    if left != right:
        return -1 if left < right else 1
    if not a.pre or not b.pre:
        return (not a.pre) - (not b.pre)
    for x, y in zip(a.pre, b.pre, strict=False):
        kx, ky = _pre_key(x), _pre_key(y)
        if kx != ky:
            return -1 if kx < ky else 1
    return (len(a.pre) > len(b.pre)) - (len(a.pre) < len(b.pre))


def _compare_to(receiver: Any, other: Any) -> int:
    if not is_version(receiver):
        return quantity.FUNCTIONS["compareTo"](receiver, other)
    return compare(_version(receiver, "compareTo"), _version(other, "compareTo"))


def _is_less_than(receiver: Any, other: Any) -> bool:
    if not is_version(receiver):
        return quantity.FUNCTIONS["isLessThan"](receiver, other)
    return compare(_version(receiver, "isLessThan"), _version(other, "isLessThan")) < 0


def _is_greater_than(receiver: Any, other: Any) -> bool:
    if not is_version(receiver):
        return quantity.FUNCTIONS["isGreaterThan"](receiver, other)
    return compare(_version(receiver, "isGreaterThan"), _version(other, "isGreaterThan")) > 0


def _component(value: int) -> int:
    # Kubernetes returns int64(v.Major): a component past int64 would wrap; say so instead
    if value > 2**63 - 1:
        raise ValueError(f"semver component {value} overflows int")
    return value


def _major(v: Any) -> int:
    return _component(_version(v, "major").major)


def _minor(v: Any) -> int:
    return _component(_version(v, "minor").minor)


def _patch(v: Any) -> int:
    return _component(_version(v, "patch").patch)


FUNCTIONS = {
    "semver": _semver,
    "isSemver": _is_semver,
    "major": _major,
    "minor": _minor,
    "patch": _patch,
    "compareTo": _compare_to,
    "isLessThan": _is_less_than,
    "isGreaterThan": _is_greater_than,
}
