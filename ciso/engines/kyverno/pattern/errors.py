"""What a pattern check raises: the resource does not hold (:class:`Mismatch`, with the path where
and the kind of failure), or the pattern itself is malformed (:class:`PatternSyntaxError`)."""

from __future__ import annotations

from dataclasses import dataclass

from ciso.engines.kyverno.errors import RuleError

#: levels of nesting a pattern may have; deeper is a malformed pattern (and no real resource)
MAX_DEPTH = 200


@dataclass
class Mismatch(Exception):
    """Why and where the pattern did not hold; ``kind`` is fail, condition, global or negation."""

    path: str
    message: str
    kind: str = "fail"
    #: raised by a conditional or global anchor of the map being checked (not passed up from a
    #: deeper map): such a failure makes Kyverno ignore its siblings' failures
    direct: bool = False

    @property
    def skip(self) -> bool:
        return self.kind in ("condition", "global")


class PatternSyntaxError(RuleError):
    """The pattern itself is malformed (e.g. an existence anchor on a non-list)."""


def too_deep(path: str) -> PatternSyntaxError:
    return PatternSyntaxError(f"pattern nested deeper than {MAX_DEPTH} levels at {path}")


def not_a_map(path: str) -> Mismatch:
    return Mismatch(
        path, f"pattern and resource have different structures at {path}: expected a map"
    )


def not_a_list(path: str) -> Mismatch:
    return Mismatch(path, f"validation rule failed at path {path}: expected a list")
