"""JSON from files a user or an agent wrote, with a bound on nesting.

Python's ``json`` recurses once per level: ``[[[[…`` 100,000 deep raises RecursionError, which
is no parse error and escaped the callers that catch ``JSONDecodeError`` (one bad agent output
ended a whole evaluation). And a document just under the interpreter's limit still overflows
the first recursive walk over it. So a text nested deeper than ``MAX_DEPTH`` is refused before
parsing, with an error naming the file and the depth: ``TooDeep`` is an ``InputError`` (the CLI
prints it and exits 3) and a ``ValueError`` (the readers that already turn a ValueError into
"this file is malformed" do so for it too).

The bound is 512 levels (no benchmark document comes near 30, and a document of 512 levels
can still be walked recursively within Python's default limit of 1,000 frames); the environment
variable ``ITBENCH_MAX_NESTING`` changes it, for YAML (``yamlsafe``) as for JSON.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from itbench.errors import InputError

MAX_DEPTH = int(os.environ.get("ITBENCH_MAX_NESTING", "512"))

_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
_TOKENS_BYTES = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


class TooDeep(InputError, ValueError):
    """A document nested deeper than the bound; the message names its source and depth."""

    def __init__(self, source: str, depth: int, limit: int) -> None:
        super().__init__(
            f"{source}: JSON nested {depth} levels deep, deeper than the limit of {limit} "
            f"(ITBENCH_MAX_NESTING); not read"
        )
        self.source = source
        self.depth = depth
        self.limit = limit


def depth_over(text: str | bytes, limit: int) -> int:
    """0 when ``text`` nests at most ``limit`` deep, else how deep it nests (brackets inside
    strings do not count)."""
    if isinstance(text, bytes):
        opened = text.count(b"[") + text.count(b"{")
        # one loop below walks either kind of match: both are compared only for equality
        tokens: Iterator[re.Match[Any]] = _TOKENS_BYTES.finditer(text)
        openers: tuple[Any, ...] = (b"[", b"{")
        closers: tuple[Any, ...] = (b"]", b"}")
    else:
        opened = text.count("[") + text.count("{")
        tokens = _TOKENS.finditer(text)
        openers, closers = ("[", "{"), ("]", "}")
    if opened <= limit:
        return 0  # cheap: not enough brackets to go deeper
    depth = deepest = 0
    for token in tokens:
        found = token.group(0)
        if found in openers:
            depth += 1
            deepest = max(deepest, depth)
        elif found in closers:
            depth = max(0, depth - 1)
    return deepest if deepest > limit else 0


def check(text: str | bytes, source: str, limit: int | None = None) -> None:
    """TooDeep when ``text`` nests deeper than ``limit`` (default MAX_DEPTH)."""
    bound = MAX_DEPTH if limit is None else limit
    found = depth_over(text, bound)
    if found:
        raise TooDeep(source, found, bound)


def loads(text: str | bytes, source: str, limit: int | None = None) -> Any:
    """``json.loads(text)`` after the depth check; JSONDecodeError as json raises it."""
    check(text, source, limit)
    return json.loads(text)


def load_file(path: Path, limit: int | None = None) -> Any:
    """The JSON document in ``path`` (read as UTF-8) after the depth check."""
    return loads(path.read_text(encoding="utf-8"), str(path), limit)


_SURROGATE = re.compile("[\ud800-\udfff]")


def writable_text(text: str) -> str:
    """``text`` with every lone surrogate as U+FFFD, the character a UTF-8 reader puts for what
    it cannot read. JSON's ``"\\ud800"`` escape reads as such a code point, which has no UTF-8
    form: one string an agent wrote must not keep a results file or a transcript from being
    written."""
    return _SURROGATE.sub("\ufffd", text)
