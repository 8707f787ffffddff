"""Where in a YAML file a value sits: (document index, path) -> line number, for findings."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import yaml


@functools.lru_cache(maxsize=32)  # several findings in one file share one composition
def _compose(text: str) -> tuple | None:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return tuple(yaml.compose_all(text, Loader=loader))
    except yaml.YAMLError:
        return None


def line_of(text: str, document: int, path: Sequence[str | int]) -> int | None:
    nodes = _compose(text)
    if nodes is None:
        return None
    if document >= len(nodes) or nodes[document] is None:
        return None
    node = nodes[document]
    line = node.start_mark.line + 1
    for step in path:
        if isinstance(node, yaml.MappingNode) and isinstance(step, str):
            match = next(((k, v) for k, v in node.value if getattr(k, "value", None) == step), None)
            if match is None:
                return line
            line = match[0].start_mark.line + 1
            node = match[1]
        elif (
            isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value)
        ):
            node = node.value[step]
            line = node.start_mark.line + 1
        else:
            return line
    return line
