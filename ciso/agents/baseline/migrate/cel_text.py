"""CEL text the translators write: literals and field selections, quoted one way for all of them.

- A string literal is double-quoted; a backslash, a double quote and every control character
  are escaped (CEL's quoted strings may not hold a raw line break), and a character outside the
  Basic Multilingual Plane is written ``\\U`` with eight digits (CEL rejects the surrogate pairs
  JSON would write).
- A field is selected with a dot only when its name is a CEL identifier and not one of CEL's
  reserved words (``object.in`` or ``object.namespace`` are not CEL); any other name is an
  index, ``object["in"]``, and its presence test ``"in" in object``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: CEL's keywords and reserved words: none may follow a dot as a field name
RESERVED = frozenset(
    (
        "in", "as", "break", "const", "continue", "else", "for", "function", "if", "import",
        "let", "loop", "package", "namespace", "return", "var", "void", "while", "true",
        "false", "null",
    )
)  # fmt: skip
#: CEL's integers are 64-bit: a larger constant does not parse
_INT64 = range(-(2**63), 2**63)
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


class NotTranslatable(ValueError):
    """A construct of the source policy the baseline cannot translate faithfully."""


def _char(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    code = ord(ch)
    if code < 0x20 or 0x7F <= code < 0xA0:
        return f"\\u{code:04x}"
    if 0xD800 <= code < 0xE000:
        raise NotTranslatable(f"the string with a lone surrogate \\u{code:04x}")
    if code > 0xFFFF:
        return f"\\U{code:08x}"
    return ch


def string(text: str) -> str:
    """``text`` as a CEL string literal."""
    return '"' + "".join(_char(ch) for ch in text) + '"'


def literal(value: object) -> str:
    """A JSON/YAML value (tuples and sets read as lists) as a CEL literal."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value not in _INT64:
            raise NotTranslatable(f"the integer {value}, past CEL's 64 bits")
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotTranslatable(f"the number {value}")
        return repr(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise NotTranslatable(f"the constant {value!r}")


def selectable(name: str) -> bool:
    """``name`` may follow a dot: an identifier that is not a reserved word."""
    return _IDENTIFIER.fullmatch(name) is not None and name not in RESERVED


def field(base: str, name: str) -> str:
    """The field ``name`` of the CEL value ``base`` (``base`` a primary: parenthesised by the
    caller when it is more)."""
    return f"{base}.{name}" if selectable(name) else f"{base}[{string(name)}]"


def has(base: str, name: str) -> str:
    """CEL true when ``base`` has the field ``name`` (parenthesised: ``!`` binds tighter than
    ``in``, and ``!"a" in m`` is not the negation of ``"a" in m``)."""
    return f"has({base}.{name})" if selectable(name) else f"({string(name)} in {base})"


def optional_field(base: str, name: str) -> str:
    """The field ``name`` of ``base`` as an optional (empty when absent)."""
    return f"{base}.?{name}" if selectable(name) else f"{base}[?{string(name)}]"
