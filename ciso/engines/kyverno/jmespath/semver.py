"""semver_compare(version, range): ranges as the blang/semver package Kyverno uses reads them:
comparators (``>=1.2.3``, ``<2.0.0``, ``!=1.5.0``, ``1.2.3``) joined by spaces (all must hold)
and ``||`` (any group may hold), with ``x`` wildcards (``1.2.x``)."""

from __future__ import annotations

import re

from jmespath import functions

from ciso.engines.kyverno.jmespath.strings import FunctionError

_VERSION = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$")
_COMPARATOR = re.compile(r"^(>=|<=|!=|==|=|>|<)?\s*(\S+)$")


def _key(version: str) -> tuple:
    match = _VERSION.match(version.strip())
    if not match:
        return (0, 0, 0, 1, ())  # blang: an unparsable version is 0.0.0
    major, minor, patch, pre = match.groups()
    # a pre-release sorts before its release; numeric identifiers compare as numbers
    identifiers = tuple(
        (0, int(p), "") if p.isdigit() else (1, 0, p) for p in (pre.split(".") if pre else ())
    )
    return (int(major), int(minor), int(patch), 0 if pre else 1, identifiers)


def _comparator(text: str) -> list[tuple[str, tuple]]:
    match = _COMPARATOR.match(text)
    if not match:
        raise FunctionError(f"semver_compare: invalid range {text!r}")
    op, version = match.group(1) or "=", match.group(2)
    parts = version.lstrip("v").split(".")
    if any(p in ("x", "X", "*") for p in parts):  # 1.2.x == >=1.2.0 <1.3.0
        fixed = [int(p) for p in parts if p.isdigit()]
        low = (fixed + [0, 0, 0])[:3]
        if not fixed:
            return []
        high = fixed[:-1] + [fixed[-1] + 1] + [0] * (3 - len(fixed))
        return [(">=", _key(".".join(map(str, low)))), ("<", _key(".".join(map(str, high))))]
    if not _VERSION.match(version):
        raise FunctionError(f"semver_compare: invalid version {version!r} in range")
    return [("=" if op == "==" else op, _key(version))]


def satisfies(version: str, spec: str) -> bool:
    current = _key(version)
    checks = {
        "=": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
    }
    for group in spec.split("||"):
        tokens = re.findall(r"(?:>=|<=|!=|==|=|>|<)?\s*[^\s<>=!]+", group.strip())
        if not tokens:
            raise FunctionError(f"semver_compare: invalid range {spec!r}")
        comparators = [c for token in tokens for c in _comparator(token.strip())]
        if all(checks[op](current, target) for op, target in comparators):
            return True
    return False


class SemverFunctions:
    @functions.signature({"types": ["string"]}, {"types": ["string"]})
    def _func_semver_compare(self, version: str, spec: str) -> bool:
        return satisfies(version, spec)


_STRICT = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")


def satisfies_order(left: object, right: object) -> tuple[tuple, tuple] | None:
    """Both sides as comparable semantic versions (strict ``x.y.z``, as blang/semver parses
    them), or None when either is not one."""
    if not (isinstance(left, str) and isinstance(right, str)):
        return None
    if not (_STRICT.match(left) and _STRICT.match(right)):
        return None
    return _key(left), _key(right)
