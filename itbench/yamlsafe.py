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


def load_all(text: str) -> list[Any]:
    """Every document of ``text``; raises yaml.YAMLError (aliases included)."""
    fast = getattr(yaml, "CSafeLoader", None)
    may_alias = bool(_ALIAS.search(text) and _ANCHOR.search(text))
    loader = NoAliasLoader if fast is None or may_alias else fast
    return list(yaml.load_all(text, Loader=loader))
