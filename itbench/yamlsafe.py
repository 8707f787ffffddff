"""YAML from untrusted files without alias bombs: aliases are refused, and the fast libyaml loader
is used whenever the text cannot contain an alias (no anchor token)."""

from __future__ import annotations

import re
from typing import Any

import yaml

_ALIAS = re.compile(r"(?:^|[\s\[{,:-])\*[^\s\],}]+", re.MULTILINE)
#: An alias needs an anchor: texts without one cannot hold an alias bomb whatever "*" they contain.
_ANCHOR = re.compile(r"(?:^|[\s\[{,:-])&[^\s\],}]+", re.MULTILINE)


class NoAliasLoader(yaml.SafeLoader):
    """Safe YAML that refuses aliases, so a small file cannot expand into gigabytes."""

    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "YAML aliases are not accepted", event.start_mark
            )
        return super().compose_node(parent, index)


#: Beyond this bound on nesting, a text is refused before parsing: libyaml recurses per level
#: and a deep enough flow (``[[[[…``) overflows the C stack, which no exception can catch.
MAX_NESTING = 1000
_LEADING = re.compile(r"^[ \t-]*", re.MULTILINE)
_QUOTED = re.compile(r"'(?:[^'\n]|'')*'|\"(?:[^\"\\\n]|\\.)*\"")


def nesting_bound(text: str) -> int:
    """An upper bound on how deep ``text`` nests: the deepest block indentation (spaces and
    ``- `` markers) plus the deepest bracket nesting outside quoted scalars."""
    block = max((len(m) for m in _LEADING.findall(text)), default=0)
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return block + text.count("[") + text.count("{")  # cheap: cannot exceed the bound
    depth = deepest = 0
    for char in _QUOTED.sub("", text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
    return block + deepest


def load_all(text: str) -> list[Any]:
    """Every document of ``text``; raises yaml.YAMLError (aliases and excessive nesting
    included)."""
    if nesting_bound(text) > MAX_NESTING:
        raise yaml.YAMLError(f"nested more than {MAX_NESTING} levels deep: not parsed")
    fast = getattr(yaml, "CSafeLoader", None)
    may_alias = bool(_ALIAS.search(text) and _ANCHOR.search(text))
    loader = NoAliasLoader if fast is None or may_alias else fast
    try:
        return list(yaml.load_all(text, Loader=loader))
    except RecursionError:
        # the constructor recurses per nesting level: a hostile file must not crash the reader
        raise yaml.YAMLError("nested too deeply to read") from None
