"""Type checking of CEL expressions for lint (KYV007): the ``cel`` package parses and runs CEL
but does not type-check it, so this package does what CEL's checker would, over the names each
Kyverno policy kind binds.

- ``types``: the type lattice (``dyn`` accepts everything);
- ``parser``: CEL's grammar into a tree with offsets;
- ``declarations``: the variables per policy kind and the result type each field expects;
- ``functions``: the standard library and the engine's registered libraries, with arities;
- ``checker``: the walk that infers types and names problems.
"""

from __future__ import annotations

from dataclasses import dataclass

from ciso.lint.cel_types.checker import Checked, Problem, check
from ciso.lint.cel_types.declarations import Declarations, expected_type, identifiers_for
from ciso.lint.cel_types.parser import CelParseError, parse
from ciso.lint.cel_types.types import CelType


@dataclass(frozen=True, slots=True)
class TypeProblem:
    line: int  # within the expression, from 1
    column: int  # from 1
    message: str


def position(source: str, offset: int) -> tuple[int, int]:
    line = source.count("\n", 0, offset) + 1
    return line, offset - (source.rfind("\n", 0, offset) + 1) + 1


def check_expression(
    source: str, declarations: Declarations, expected: CelType | None = None
) -> tuple[CelType, list[TypeProblem]] | None:
    """The expression's type and its problems; None when this parser cannot read what the
    evaluator compiled (then nothing is claimed about it)."""
    try:
        tree = parse(source)
    except CelParseError:
        return None
    checked = check(tree, declarations)
    problems = [TypeProblem(*position(source, p.offset), p.message) for p in checked.problems]
    found = checked.type
    if expected is not None and not problems and not found.is_dyn and found != expected:
        what = "a message" if expected.kind == "string" else "a condition"
        problems.append(TypeProblem(1, 1, f"{what} must evaluate to {expected}, not {found}"))
    return found, problems


__all__ = [
    "Checked",
    "Declarations",
    "Problem",
    "TypeProblem",
    "check_expression",
    "expected_type",
    "identifiers_for",
]
