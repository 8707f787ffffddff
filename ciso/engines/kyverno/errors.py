"""Errors raised while evaluating a rule, each knowing where in the rule it happened.

A rule error must name the policy file, policy, rule and the JSON path inside the rule. The path is
collected on the way out: each layer that catches a ``RuleError`` prepends its own segment (a key
or a list index) and re-raises, so the success path pays nothing for it.
"""

from __future__ import annotations


class RuleError(Exception):
    def __init__(self, message: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path: list[str | int] = list(path)

    def at(self, *segments: str | int) -> RuleError:
        """Prepend path segments (outermost first) and return self, for ``raise exc.at(...)``."""
        self.path[:0] = segments
        return self

    def where(self) -> str:
        """The path as a JMESPath-like string: ``validate.deny.conditions.any[0].key``."""
        text = ""
        for segment in self.path:
            if isinstance(segment, int):
                text += f"[{segment}]"
            elif segment.isidentifier():
                text += f".{segment}" if text else segment
            else:
                text += f'."{segment}"' if text else f'"{segment}"'
        return text

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message
