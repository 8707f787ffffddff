"""``string()`` for the values the evaluator's own string() cannot convert. Registering a
function named ``string`` routes exactly those here (the evaluator keeps its own conversion of
ints, doubles, bytes, durations, timestamps): CEL's ``string(bool)``, which the evaluator lacks,
and Kubernetes' ``string(ip)`` / ``string(cidr)`` of the opaque values in ip.py and cidr.py."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel.libraries.ip import CIDR_KEY
from ciso.engines.kyverno.cel.libraries.ip import KEY as IP_KEY


def _string(arg: Any) -> str:
    if isinstance(arg, bool):
        return "true" if arg else "false"
    if isinstance(arg, dict) and IP_KEY in arg:
        return arg[IP_KEY]
    if isinstance(arg, dict) and CIDR_KEY in arg:
        return arg[CIDR_KEY]
    raise ValueError(f"no such overload: string({type(arg).__name__})")


FUNCTIONS = {"string": _string}
