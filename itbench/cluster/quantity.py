"""Kubernetes resource quantities (``250m``, ``1.5``, ``512Mi``, ``1G``, ``2e3``) as numbers."""

from __future__ import annotations

import re

__all__ = ["parse_quantity"]

_FORM = re.compile(r"^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$")
_SUFFIX = {
    "": 1.0,
    "n": 1e-9,
    "u": 1e-6,
    "m": 1e-3,
    "k": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "P": 1e15,
    "E": 1e18,
    "Ki": 2.0**10,
    "Mi": 2.0**20,
    "Gi": 2.0**30,
    "Ti": 2.0**40,
    "Pi": 2.0**50,
    "Ei": 2.0**60,
}


def parse_quantity(value: object) -> float | None:
    """The quantity in base units (cores, bytes); None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        return None
    m = _FORM.match(value.strip())
    if m is None:
        return None
    number, suffix = m.groups()
    try:
        base = float(number)
    except ValueError:
        return None
    if suffix in _SUFFIX:
        return base * _SUFFIX[suffix]
    if suffix[:1] in "eE":
        try:
            return base * 10.0 ** int(suffix[1:])
        except ValueError:
            return None
    return None
