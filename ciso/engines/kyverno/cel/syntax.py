"""CEL source as the evaluator reads it, and what the source alone says about its cost.

The Rust CEL evaluator has optional *values* (``optional.of``, ``orValue``, ``hasValue``) but its
parser rejects the optional *syntax* Kubernetes enables: ``x.?field`` and ``x[?key]``. Both are
rewritten here, token by token (string literals are never touched), into receiver-style calls of
the optional library's functions — ``x.?f`` becomes ``x._opt_select("f")`` and ``x[?k]``
becomes ``x._opt_index(k)`` — which CEL parses as ``_opt_select(x, "f")``: the receiver's extent
needs no parsing at all. ``.orValue(`` becomes ``._or_value(``: cel-go's dynamic dispatch gives a
plain (non-optional) receiver back unchanged, which Kyverno's policies rely on
(``container.volumeMounts.orValue([])``), where the Rust evaluator's own ``orValue`` fails.

A call through a library namespace, ``resource.Get(...)``, becomes the plain function
``_resource_Get(...)``: the evaluator would otherwise read ``resource`` as a variable.

Kubernetes' CEL type-checks object construction against the resource's schema:
``Object{spec: Object.spec{...}}`` (a MutatingPolicy's apply configuration) and
``JSONPatch{op: "add", ...}``. The Rust evaluator has no such types, so a construction is
rewritten into the map literal it denotes (``{"spec": {...}}``): the type name goes, and each
field name at the construction's own level is quoted (``rewrite_struct_construction``).

``comprehension_depth`` finds how deeply the macros that iterate (``all``, ``exists``,
``exists_one``, ``map``, ``filter``) nest, and ``cost_shape`` what else bounds the collections
they range over (literals, list concatenations, strings split into lists): ``limits`` turns that
and the actual input into the expression's cost bound.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

OPT_SELECT = "_opt_select"
OPT_INDEX = "_opt_index"
OR_VALUE = "_or_value"
#: what ``rewrite_sort_by`` turns cel-go's ``sortBy`` macro into (libraries/lists.py)
SORT_BY_KEY = "_sort_by_key"
ITERATING_MACROS = frozenset(("all", "exists", "exists_one", "map", "filter", "sortBy"))
#: the libraries whose functions are called through a namespace (``resource.Get(...)``); such a
#: call becomes the plain function ``_resource_Get(...)`` (see ``namespaced``)
NAMESPACED_CALLS = frozenset(
    (
        "resource.Get",
        "resource.List",
        "resource.get",  # Kyverno 1.18 adds camelCase names beside the PascalCase ones
        "resource.list",
        "image.GetMetadata",
        "http.Get",
        "http.Post",
        "globalContext.Get",
        "generator.Apply",
        "generator.apply",  # Kyverno 1.16+ spells it in lower case
        # cel-go's regex extension, which Kyverno's compiler adds (cel/libraries/regex.py)
        "regex.replace",
        "regex.extract",
        "regex.extractAll",
        "time.now",
        "time.truncate",
        "time.toCron",
        "sets.contains",
        "sets.equivalent",
        "sets.intersects",
        "ip.isCanonical",
        "format.named",
        # format.<name>() of Kubernetes' format library (cel/libraries/format.py)
        "format.dns1123Label",
        "format.dns1123Subdomain",
        "format.dns1035Label",
        "format.qualifiedName",
        "format.dns1123LabelPrefix",
        "format.dns1123SubdomainPrefix",
        "format.dns1035LabelPrefix",
        "format.labelValue",
        "format.uri",
        "format.uuid",
        "format.byte",
        "format.date",
        "format.datetime",
        # cel-go's extensions in Kyverno's environment: math, encoders, strings v2, lists v3
        *(
            f"math.{name}"
            for name in (
                "greatest",
                "least",
                "ceil",
                "floor",
                "round",
                "trunc",
                "abs",
                "sign",
                "sqrt",
                "isInf",
                "isNaN",
                "isFinite",
                "bitAnd",
                "bitOr",
                "bitXor",
                "bitNot",
                "bitShiftLeft",
                "bitShiftRight",
            )
        ),
        "base64.encode",
        "base64.decode",
        "strings.quote",
        "lists.range",
    )
)
NAMESPACES = frozenset(call.partition(".")[0] for call in NAMESPACED_CALLS)


def namespaced(namespace: str, function: str) -> str:
    """The plain function name a namespaced library call is rewritten to."""
    return f"_{namespace}_{function}"


# a string literal in any of CEL's forms (raw, bytes, triple-quoted); then everything else
_STRING = re.compile(
    r"""(?:[rR][bB]?|[bB][rR]?)?(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")""",
    re.DOTALL,
)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class CelSyntaxError(ValueError):
    """The source cannot even be tokenised (an unterminated string, unbalanced brackets)."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    offset: int
    string: bool = False


def tokens(source: str) -> list[Token]:
    """String literals whole, identifiers whole, every other non-space character alone."""
    out: list[Token] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "'\"" or (ch in "rRbB" and i + 1 < n and source[i + 1] in "'\"rRbB"):
            m = _STRING.match(source, i)
            if m and m.group(0)[-1] in "'\"":
                out.append(Token(m.group(0), i, string=True))
                i = m.end()
                continue
            if ch in "'\"":
                raise CelSyntaxError("unterminated string literal", i)
        if ch.isalpha() or ch == "_":
            m = _IDENT.match(source, i)
            assert m is not None
            out.append(Token(m.group(0), i))
            i = m.end()
            continue
        out.append(Token(ch, i))
        i += 1
    return out


#: identifiers that may stand before a '{' without naming a type (``x in {...}``)
_NOT_TYPE_NAMES = frozenset(("in", "true", "false", "null"))


def _type_name_start(toks: list[Token], brace: int) -> int | None:
    """The index of the first token of the (qualified) type name before ``toks[brace]``, a
    '{'; None when the brace opens a map literal."""
    j = brace - 1
    if j < 0 or toks[j].string or not _IDENT.fullmatch(toks[j].text):
        return None
    if toks[j].text in _NOT_TYPE_NAMES:
        return None
    while (
        j >= 2
        and toks[j - 1].text == "."
        and not toks[j - 1].string
        and not toks[j - 2].string
        and _IDENT.fullmatch(toks[j - 2].text)
    ):
        j -= 2
    return j


def rewrite_struct_construction(source: str) -> str:
    """The source with every ``Type.name{field: value}`` as the map ``{"field": value}``
    (unchanged when it constructs nothing)."""
    if "{" not in source:
        return source
    toks = tokens(source)
    parts: list[str] = []
    last = 0
    opened: list[str] = []  # per open bracket: "s" for a construction, else the bracket
    for i, tok in enumerate(toks):
        if tok.string:
            continue
        text = tok.text
        if text == "{":
            start = _type_name_start(toks, i)
            opened.append("s" if start is not None else "{")
            if start is not None:
                parts.append(source[last : toks[start].offset])
                last = toks[start].offset
                parts.append("{")
                last = tok.offset + 1
        elif text in ("(", "["):
            opened.append(text)
        elif text in ("}", ")", "]"):
            if opened:
                opened.pop()
        elif (
            opened
            and opened[-1] == "s"
            and _IDENT.fullmatch(text)
            and toks[i - 1].text in ("{", ",")
            and not toks[i - 1].string
            and i + 1 < len(toks)
            and toks[i + 1].text == ":"
        ):
            parts.append(source[last : tok.offset])
            parts.append(f'"{text}"')
            last = tok.offset + len(text)
    parts.append(source[last:])
    return "".join(parts)


def _bind_call(toks: list[Token]) -> tuple[int, int, int, int] | None:
    """(index of ``cel``, of its first comma, of its second, of the closing paren) of the first
    ``cel.bind(var, init, body)`` in ``toks``; None when there is none."""
    for i in range(len(toks) - 3):
        if not (
            toks[i].text == "cel"
            and not toks[i].string
            and (i == 0 or toks[i - 1].text != ".")
            and toks[i + 1].text == "."
            and toks[i + 2].text == "bind"
            and toks[i + 3].text == "("
        ):
            continue
        commas, close = _arguments(toks, i + 3, "cel.bind")
        if len(commas) != 2:
            raise CelSyntaxError("cel.bind takes a name, a value and a body", close)
        return i, commas[0], commas[1], close
    return None


def _arguments(toks: list[Token], opening: int, what: str) -> tuple[list[int], int]:
    """(the top-level commas, the closing paren) of the call whose ``(`` is ``toks[opening]``."""
    depth, commas = 0, list[int]()
    for j in range(opening, len(toks)):
        text = "" if toks[j].string else toks[j].text
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return commas, j
        elif text == "," and depth == 1:
            commas.append(j)
    raise CelSyntaxError(f"unbalanced brackets in {what}", toks[opening].offset)


def rewrite_bind(source: str) -> str:
    """The source with every ``cel.bind(v, init, body)`` as ``[init].map(v, body)[0]``: the
    evaluator has no bind macro, and a one-element map binds ``v`` to ``init``, evaluated once,
    exactly as bind does (unchanged when the source binds nothing)."""
    if "bind" not in source:
        return source
    for _ in range(source.count("bind")):
        toks = tokens(source)
        found = _bind_call(toks)
        if found is None:
            break
        start, first, second, close = found
        name = source[toks[start + 3].offset + 1 : toks[first].offset].strip()
        init = source[toks[first].offset + 1 : toks[second].offset]
        body = source[toks[second].offset + 1 : toks[close].offset]
        source = (
            f"{source[: toks[start].offset]}[{init}].map({name},{body})[0]"
            f"{source[toks[close].offset + 1 :]}"
        )
    return source


def _sort_by_call(toks: list[Token]) -> tuple[int, int, int] | None:
    """(index of the '.' before ``sortBy``, of the first comma, of the closing paren) of the
    first ``.sortBy(var, key)`` in ``toks``; None when there is none."""
    for i in range(len(toks) - 2):
        if not (
            toks[i].text == "."
            and not toks[i].string
            and toks[i + 1].text == "sortBy"
            and not toks[i + 1].string
            and toks[i + 2].text == "("
        ):
            continue
        commas, close = _arguments(toks, i + 2, "sortBy")
        if len(commas) != 1:
            raise CelSyntaxError("sortBy takes a variable name and a key", close)
        return i, commas[0], close
    return None


def rewrite_sort_by(source: str) -> str:
    """The source with every ``l.sortBy(v, key)`` (cel-go's lists macro) as
    ``l.map(v, [v, key])._sort_by_key()``: the evaluator has no such macro, and mapping each
    element to its (element, key) pair leaves the receiver where it is, unparsed; the library
    function then orders the elements by their keys (unchanged when nothing is sorted by)."""
    if "sortBy" not in source:
        return source
    for _ in range(source.count("sortBy")):
        toks = tokens(source)
        found = _sort_by_call(toks)
        if found is None:
            break
        dot, comma, close = found
        name = source[toks[dot + 2].offset + 1 : toks[comma].offset].strip()
        if not _IDENT.fullmatch(name):
            raise CelSyntaxError(
                "sortBy's first argument must be a variable name", toks[dot].offset
            )
        key = source[toks[comma].offset + 1 : toks[close].offset]
        source = (
            f"{source[: toks[dot].offset]}.map({name}, [{name},{key}]).{SORT_BY_KEY}()"
            f"{source[toks[close].offset + 1 :]}"
        )
    return source


def rewrite_optional_syntax(source: str) -> str:
    """The source with ``.?f`` and ``[?k]`` as calls the evaluator parses (unchanged when the
    source has neither)."""
    if (
        ".?" not in source
        and "[?" not in source
        and "orValue" not in source
        and not any(f"{ns}." in source for ns in NAMESPACES)
    ):
        return source
    parts: list[str] = []
    last = 0
    closers: list[bool] = []  # per open '[': whether it was an optional index
    toks = tokens(source)
    for i, tok in enumerate(toks):
        if tok.string:
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if tok.text == "." and nxt is not None and nxt.text == "?" and not nxt.string:
            field = toks[i + 2] if i + 2 < len(toks) else None
            if field is None or field.string or not _IDENT.fullmatch(field.text):
                raise CelSyntaxError("'.?' must be followed by a field name", tok.offset)
            parts.append(source[last : tok.offset])
            parts.append(f'.{OPT_SELECT}("{field.text}")')
            last = field.offset + len(field.text)
        elif (
            tok.text in NAMESPACES
            and (i == 0 or toks[i - 1].text != ".")
            and nxt is not None
            and nxt.text == "."
            and i + 3 < len(toks)
            and _IDENT.fullmatch(toks[i + 2].text)
            and not toks[i + 2].string
            and toks[i + 3].text == "("
            and f"{tok.text}.{toks[i + 2].text}" in NAMESPACED_CALLS
        ):
            function = toks[i + 2]
            parts.append(source[last : tok.offset])
            parts.append(namespaced(tok.text, function.text))
            last = function.offset + len(function.text)
        elif (
            tok.text == "orValue"
            and i > 0
            and toks[i - 1].text == "."
            and nxt is not None
            and nxt.text == "("
        ):
            parts.append(source[last : tok.offset])
            parts.append(OR_VALUE)
            last = tok.offset + len(tok.text)
        elif tok.text == "[":
            optional = nxt is not None and nxt.text == "?" and not nxt.string
            closers.append(optional)
            if optional:
                parts.append(source[last : tok.offset])
                parts.append(f".{OPT_INDEX}(")
                last = nxt.offset + 1  # type: ignore[union-attr]  # optional is true only when nxt is a "?" token (set above)
        elif tok.text == "]":
            if not closers:
                raise CelSyntaxError("unbalanced ']'", tok.offset)
            if closers.pop():
                parts.append(source[last : tok.offset])
                parts.append(")")
                last = tok.offset + 1
    parts.append(source[last:])
    return "".join(parts)


def comprehension_depth(source: str) -> int:
    """How deeply iterating macros nest (``a.all(x, x.b.exists(y, ...))`` is 2)."""
    try:
        toks = tokens(source)
    except CelSyntaxError:
        return 0
    stack: list[bool] = []  # per open '(': whether it is an iterating macro's
    depth = best = 0
    for i, tok in enumerate(toks):
        if tok.string:
            continue
        if tok.text == "(":
            macro = (
                i >= 2
                and toks[i - 1].text in ITERATING_MACROS
                and toks[i - 2].text == "."
                and not toks[i - 1].string
            )
            stack.append(macro)
            if macro:
                depth += 1
                best = max(best, depth)
        elif tok.text == ")" and stack and stack.pop():
            depth -= 1
    return best


#: calls that turn a string into a list as long as the string: their input's strings count as
#: collections in the cost bound
STRING_TO_LIST_CALLS = frozenset(("split", "findAll"))


@dataclass(frozen=True, slots=True)
class CostShape:
    """What the source says about the largest collection one comprehension can range over."""

    #: how deeply iterating macros nest
    depth: int
    #: elements of every list and map literal together: a concatenation of literals is no longer
    literal_elements: int
    #: '+' that may join two lists (not those beside a string literal or a ``string(...)``)
    concatenations: int
    #: whether the source splits strings into lists
    reads_strings_as_lists: bool


def _literal_elements(toks: list[Token]) -> int:
    """Elements of all '[...]' and '{...}' together (an index ``a[0]`` counts as one: an
    overestimate is safe)."""
    total = 0
    # per open bracket: [is a literal, elements so far, anything since the last comma]
    stack: list[list[Any]] = []
    for tok in toks:
        if tok.string:
            if stack:
                stack[-1][2] = True
            continue
        if tok.text in "([{":
            if stack:
                stack[-1][2] = True
            stack.append([tok.text != "(", 0, False])
        elif tok.text in ")]}" and stack:
            literal, elements, pending = stack.pop()
            if literal:
                total += elements + (1 if pending else 0)
        elif tok.text == "," and stack:
            stack[-1][1] += 1
            stack[-1][2] = False
        elif stack:
            stack[-1][2] = True
    return total


def _concatenations(toks: list[Token]) -> int:
    count = 0
    for i, tok in enumerate(toks):
        if tok.string or tok.text != "+":
            continue
        before = toks[i - 1] if i else None
        after = toks[i + 1] if i + 1 < len(toks) else None
        stringy = any(t is not None and t.string for t in (before, after)) or (
            after is not None and after.text == "string"
        )
        numeric = any(t is not None and t.text[:1].isdigit() for t in (before, after))
        if not stringy and not numeric:
            count += 1
    return count


def cost_shape(source: str) -> CostShape:
    try:
        toks = tokens(source)
    except CelSyntaxError:
        return CostShape(0, 0, 0, False)
    calls = {tok.text for tok in toks if not tok.string}
    return CostShape(
        depth=comprehension_depth(source),
        literal_elements=_literal_elements(toks),
        concatenations=_concatenations(toks),
        reads_strings_as_lists=bool(calls & STRING_TO_LIST_CALLS),
    )
