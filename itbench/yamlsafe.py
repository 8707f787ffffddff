"""YAML from untrusted files without alias bombs or stack overflows: aliases are refused, nesting is
bounded before the parser sees the text, and the fast libyaml loader is used whenever the text
cannot contain an alias (no anchor token).

Files are read as a stream (:func:`iter_file`): one cheap pass over the bytes in line-aligned
chunks checks nesting and looks for anchors, then libyaml parses one document at a time, so a
50 MB manifest never exists as one string or one list of documents.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import yaml

from itbench.jsonsafe import MAX_DEPTH

_ALIAS = re.compile(r"(?:^|[\s\[{,:-])\*[^\s\],}]+", re.MULTILINE)
#: An alias needs an anchor: texts without one cannot hold an alias bomb whatever "*" they contain.
_ANCHOR = re.compile(r"(?:^|[\s\[{,:-])&[^\s\],}]+", re.MULTILINE)
_ANCHOR_BYTES = re.compile(rb"(?:^|[\s\[{,:-])&[^\s\],}]+", re.MULTILINE)


class NoAliasLoader(yaml.SafeLoader):
    """Safe YAML that refuses aliases, so a small file cannot expand into gigabytes."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]  # unannotated in types-PyYAML
            raise yaml.composer.ComposerError(
                None, None, "YAML aliases are not accepted", event.start_mark
            )
        return super().compose_node(parent, index)


#: Beyond this bound on nesting, a text is refused before parsing: libyaml recurses per level
#: and a deep enough flow (``[[[[…``) overflows the C stack, which no exception can catch; and a
#: document read just under 1,000 levels still overflowed the first recursive walk over it (the
#: JSON encoder of a command printing it). The bound is JSON's (``jsonsafe.MAX_DEPTH``, 512 unless
#: ``ITBENCH_MAX_NESTING`` says otherwise); it applies to an upper bound on nesting (block
#: indentation in characters plus bracket depth), so real manifests (indented < 100) stay far
#: from it.
MAX_NESTING = MAX_DEPTH
_LEADING = re.compile(r"^[ \t-]*", re.MULTILINE)
_QUOTED = re.compile(r"'(?:[^'\n]|'')*'|\"(?:[^\"\\\n]|\\.)*\"")
_LEADING_BYTES = re.compile(rb"^[ \t-]*", re.MULTILINE)
_QUOTED_BYTES = re.compile(rb"'(?:[^'\n]|'')*'|\"(?:[^\"\\\n]|\\.)*\"")
_BRACKETS_BYTES = re.compile(rb"[\[\]{}]")
#: Lines indented less than this are the rule; only chunks with a deeper line are measured.
_SHALLOW = 64
_DEEP_LINE_BYTES = re.compile(rb"^[ \t-]{%d,}" % _SHALLOW, re.MULTILINE)
CHUNK = 1 << 20

#: (bytes read so far, total bytes, documents yielded so far)
Progress = Callable[[int, int, int], None]


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


class _Scan:
    """:func:`nesting_bound` and the anchor search over a stream of line-aligned byte chunks,
    in bounded memory."""

    def __init__(self) -> None:
        self.block = 0
        self.depth = 0
        self.deepest = 0
        self.anchor = False

    def feed(self, chunk: bytes) -> None:
        if _DEEP_LINE_BYTES.search(chunk):
            self.block = max(self.block, max(map(len, _LEADING_BYTES.findall(chunk))))
        else:
            self.block = max(self.block, _SHALLOW - 1)  # an upper bound is all that is needed
        if not self.anchor and b"&" in chunk:
            self.anchor = _ANCHOR_BYTES.search(chunk) is not None
        if b"[" in chunk or b"{" in chunk or (self.depth and (b"]" in chunk or b"}" in chunk)):
            depth, deepest = self.depth, self.deepest
            for match in _BRACKETS_BYTES.finditer(_QUOTED_BYTES.sub(b"", chunk)):
                if match.group() in (b"[", b"{"):
                    depth += 1
                    if depth > deepest:
                        deepest = depth
                elif depth:
                    depth -= 1
            self.depth, self.deepest = depth, deepest

    @property
    def bound(self) -> int:
        return self.block + self.deepest


def _chunks(stream: IO[bytes]) -> Iterator[bytes]:
    while chunk := stream.read(CHUNK):
        yield chunk + stream.readline()  # whole lines: indentation and quotes stay intact


def _loader(may_alias: bool) -> type:
    fast = getattr(yaml, "CSafeLoader", None)
    return NoAliasLoader if fast is None or may_alias else fast


def load_all(text: str) -> list[Any]:
    """Every document of ``text``; raises yaml.YAMLError (aliases and excessive nesting
    included)."""
    if nesting_bound(text) > MAX_NESTING:
        raise yaml.YAMLError(
            f"nested more than {MAX_NESTING} levels deep (ITBENCH_MAX_NESTING): not parsed"
        )
    may_alias = bool(_ALIAS.search(text) and _ANCHOR.search(text))
    try:
        return list(yaml.load_all(text, Loader=_loader(may_alias)))
    except RecursionError:
        # the constructor recurses per nesting level: a hostile file must not crash the reader
        raise yaml.YAMLError("nested too deeply to read") from None


def load_one(text: str) -> Any:
    """The single document of ``text`` (None when empty), as ``yaml.safe_load`` but with
    :func:`load_all`'s protections; yaml.YAMLError when there is more than one."""
    documents = load_all(text)
    if len(documents) > 1:
        raise yaml.YAMLError(f"expected a single document, found {len(documents)}")
    return documents[0] if documents else None


def iter_file(path: Path, progress: Progress | None = None, start: int = 0) -> Iterator[Any]:
    """The documents of the YAML file ``path``, one at a time, with :func:`load_all`'s
    protections; raises yaml.YAMLError (aliases, excessive nesting, invalid UTF-8 included) and
    OSError. ``progress`` is called every few hundred documents. ``start``: read from this byte
    on (a range start of :func:`document_ranges`; marks then count lines from there)."""
    total = path.stat().st_size
    scan = _Scan()
    with path.open("rb") as stream:
        for chunk in _chunks(stream):
            scan.feed(chunk)
            if scan.bound > MAX_NESTING:
                raise yaml.YAMLError(
                    f"nested more than {MAX_NESTING} levels deep (ITBENCH_MAX_NESTING): not parsed"
                )
    with path.open("rb") as stream:
        stream.seek(start)
        # the fast loader has no alias check of its own: it only reads texts without anchors
        loader = _loader(scan.anchor)(stream)
        try:
            count = 0
            while loader.check_data():
                yield loader.get_data()
                count += 1
                if progress is not None and count % 500 == 0:
                    progress(stream.tell(), total, count)
            if progress is not None:
                progress(total, total, count)
        except RecursionError:
            raise yaml.YAMLError("nested too deeply to read") from None
        finally:
            loader.dispose()


_SEPARATOR_BYTES = re.compile(rb"^---(?=[ \t\r\n#]|$)", re.MULTILINE)
_DIRECTIVE_BYTES = re.compile(rb"^%", re.MULTILINE)
#: a line with content: not blank, not a comment
_CONTENT_BYTES = re.compile(rb"^[ \t]*[^ \t\r\n#]", re.MULTILINE)


def document_ranges(path: Path, per_range: int) -> list[tuple[int, int, int]] | None:
    """Byte ranges of the YAML file ``path`` holding ``per_range`` documents each (the last
    fewer), each but the first starting at a ``---`` line, as (start, end, documents), such
    that parsing the ranges one by one (:func:`load_range`) gives the file's documents: the file
    nests within bounds, has no anchor (so no alias reaches across ranges and the fast loader
    applies) and no directive (which would belong to the next range's document), and is not
    UTF-16. None when it is not so, or nests too deeply: :func:`iter_file` then reads it (and
    words any error) as a whole.

    A ``---`` at the start of a line always starts a document: block scalars end at a line
    indented less than their content, and a quoted or flow scalar may not hold one. The
    document count assumes that content before the first ``---`` is a document of its own; the
    reader checks the count (``load_range``'s caller) and falls back when it is wrong."""
    scan = _Scan()
    ranges: list[tuple[int, int, int]] = []
    start = offset = count = 0
    first = True
    with path.open("rb") as stream:
        head = stream.read(2)
        if head in (b"\xff\xfe", b"\xfe\xff") or b"\0" in head:
            return None
        stream.seek(0)
        for chunk in _chunks(stream):
            scan.feed(chunk)
            if scan.anchor or scan.bound > MAX_NESTING or _DIRECTIVE_BYTES.search(chunk):
                return None
            for match in _SEPARATOR_BYTES.finditer(chunk):
                if first:  # an implicit first document: content before the first separator
                    first = False
                    count = 1 if _CONTENT_BYTES.search(chunk, 0, match.start()) else 0
                if count == per_range:
                    ranges.append((start, offset + match.start(), count))
                    start, count = offset + match.start(), 0
                count += 1
            if first and _CONTENT_BYTES.search(chunk):
                first = False
                count = 1  # content and, so far, no separator: one implicit document
            offset += len(chunk)
    ranges.append((start, offset, count))
    return ranges


_TAG = "tag:yaml.org,2002:"
_STR, _MAP, _SEQ = _TAG + "str", _TAG + "map", _TAG + "seq"
_BOOL, _NULL, _INT = _TAG + "bool", _TAG + "null", _TAG + "int"
_PLAIN_KEY_TAGS = frozenset({_STR, _BOOL, _NULL, _INT})
_DECIMAL = re.compile(r"(?:0|[1-9][0-9]*)\Z")


def _fast_loader() -> type | None:
    """libyaml's safe loader with the common nodes built directly: the safe constructor's
    per-node dispatch is most of the cost of reading a large manifest. Every node it does not
    build itself (floats, timestamps, octal or signed ints, merge keys, tags) goes to the safe
    constructor, so the documents are the same, types included (tested against ``CSafeLoader``
    over the shared corpora). Only for texts without anchors: no node is shared."""
    base = getattr(yaml, "CSafeLoader", None)
    if base is None:
        return None

    resolved: dict[tuple[str, tuple[bool, bool]], str] = {}

    class FastSafeLoader(base):  # type: ignore[misc, valid-type]  # the base is libyaml's CSafeLoader, looked up at run time
        def resolve(self, kind: type, value: Any, implicit: Any) -> str:
            # a scalar's tag is a function of its text and style alone (the safe loader has no
            # path resolvers), and manifests repeat the same keys and values over and over
            if kind is not yaml.ScalarNode or self.yaml_path_resolvers:
                general: str = super().resolve(kind, value, implicit)
                return general
            key = (value, implicit)
            tag = resolved.get(key)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(resolved) < 65536:
                    resolved[key] = tag
            return tag

        def construct_document(self, node: yaml.Node) -> Any:
            data = self._build(node)
            self.constructed_objects: dict[Any, Any] = {}
            self.recursive_objects: dict[Any, Any] = {}
            return data

        def _build(self, node: yaml.Node) -> Any:
            tag = node.tag
            if node.__class__ is yaml.ScalarNode:
                if tag == _STR:
                    return node.value
                if tag == _NULL:
                    return None
                if tag == _BOOL:
                    return self.bool_values[node.value.lower()]
                if tag == _INT and _DECIMAL.match(node.value):
                    return int(node.value)
            elif node.__class__ is yaml.MappingNode and tag == _MAP:
                # keys the safe constructor would rewrite (merge "<<", value "=") or refuse
                # (unhashable): the whole mapping is left to it
                if all(
                    k.__class__ is yaml.ScalarNode and k.tag in _PLAIN_KEY_TAGS
                    for k, _ in node.value
                ):
                    build = self._build
                    return {build(k): build(v) for k, v in node.value}
            elif node.__class__ is yaml.SequenceNode and tag == _SEQ:
                build = self._build
                return [build(child) for child in node.value]
            return self.construct_object(node, deep=True)

    return FastSafeLoader


_FAST_LOADER = _fast_loader()


def load_range(path: Path, start: int, end: int) -> list[Any]:
    """The documents in bytes ``start``-``end`` of a file :func:`document_ranges` split (parsed
    with the fast loader: the split made sure there is no anchor)."""
    with path.open("rb") as stream:
        stream.seek(start)
        data = stream.read(end - start)
    try:
        return list(yaml.load_all(data, Loader=_FAST_LOADER or _loader(False)))
    except RecursionError:
        raise yaml.YAMLError("nested too deeply to read") from None
