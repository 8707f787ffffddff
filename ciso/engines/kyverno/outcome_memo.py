"""Remembering a validate rule's outcome by the part of the resource the rule can read.

A validate rule reads the resource only through (a) its patterns, which walk the resource from the
top-level keys they name, and (b) its variables and foreach lists, JMESPath expressions over the
rule context, whose ``request.object…`` field chains name what they read. :func:`read_set` finds
those field chains statically; when every read is bounded by them (no whole-object reads, no
context entries, no impure functions such as ``time_now``, no ``$(…)`` references), two resources
that agree on every chain (compared by ``repr``, which tells ``1``, ``True``, ``"1"`` and ``1.0``
apart and keeps key order) get the same outcome, message included: the message is built from the
rule and from values read through the same chains. So the outcome is computed once per distinct
view and reused. Rules outside that shape return None and are always evaluated.

The run-wide inputs (the request's user, the operation) are the same for every resource of one
``apply``; the memo is keyed by the rule, the request facts and the operation, and only used when
no PolicyException or test value can vary the outcome per resource and the request is neither an
UPDATE nor a DELETE (whose old object and allowExistingViolations check read more; see
``engine.apply``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ciso.engines.kyverno.jmespath.interpreter import compiled
from ciso.engines.kyverno.model import RuleOutcome
from ciso.engines.kyverno.pattern import anchors
from ciso.engines.kyverno.variables import _VARIABLE

#: A field chain from the resource's top (at most two keys: deeper reads are covered by the value
#: at the second key).
Chain = tuple[str, ...]

_RULE_KEYS = frozenset({"name", "match", "exclude", "preconditions", "validate"})
_VALIDATE_KEYS = frozenset(
    {
        "message",
        "pattern",
        "anyPattern",
        "deny",
        "foreach",
        "failureAction",
        "failureActionOverrides",
        "allowExistingViolations",
    }
)
_FOREACH_KEYS = frozenset({"list", "preconditions", "deny", "pattern", "anyPattern", "foreach"})
#: request fields that do not depend on the resource (the run's user and operation)
_REQUEST_CONSTANT = frozenset({"operation", "userInfo", "roles", "clusterRoles"})
_CONSTANT_ROOTS = frozenset({"serviceAccountName", "serviceAccountNamespace"})
#: JMESPath node types whose first child is evaluated where the node is and whose other children
#: are evaluated on what the first yields
_LEFT_THEN_ELEMENTS = frozenset(
    {"subexpression", "index_expression", "pipe", "projection", "value_projection"}
)
_FILTER = "filter_projection"
_SAME_PLACE = frozenset(
    {
        "flatten",
        "multi_select_list",
        "multi_select_dict",
        "key_val_pair",
        "comparator",
        "or_expression",
        "and_expression",
        "not_expression",
        "function_expression",
    }
)
_LEAVES = frozenset({"literal", "index", "slice", "field", "current", "identity", "raw_string"})


class _Unbounded(Exception):
    """The rule may read more of the resource than field chains say."""


def _spine(node: Mapping[str, Any]) -> list[str] | None:
    """The field names of a pure field chain (``a.b.c``), else None."""
    if node["type"] == "field":
        return [node["value"]]
    if node["type"] == "subexpression":
        names: list[str] = []
        for child in node["children"]:
            part = _spine(child)
            if part is None:
                return None
            names += part
        return names
    return None


def _root_chain(names: list[str]) -> Chain | None:
    """The resource chain a field chain from the rule context's root reads (None: reads no part
    of the resource); raises _Unbounded when it reads the whole resource or something unknown."""
    root = names[0]
    if root == "request" and len(names) > 1:
        second = names[1]
        if second == "object" and len(names) > 2:
            return tuple(names[2:4])
        if second in _REQUEST_CONSTANT:
            return None
        if second == "name":
            return ("metadata", "name")
        if second == "namespace":
            return ("metadata", "namespace")
        raise _Unbounded
    if root in _CONSTANT_ROOTS:
        return None
    if root.startswith("element"):
        tail = root.removeprefix("elementIndex").removeprefix("element")
        if not tail or tail.isdigit():
            return None  # a foreach element: bounded by the foreach list's own chains
    raise _Unbounded  # a context variable, test value, images, … : not tracked


def _reads(node: Mapping[str, Any], at_root: bool, out: set[Chain]) -> None:
    """Add to ``out`` the resource chains ``node`` reads when evaluated at the context's root
    (``at_root``) or on some value derived from it."""
    kind = node.get("type")
    children = node.get("children") or []
    if at_root:
        names = _spine(node)
        if names is not None:
            chain = _root_chain(names)
            if chain is not None:
                out.add(chain)
            return
        if kind in ("current", "identity"):
            raise _Unbounded  # the whole context
    if kind == "function_expression":
        name = str(node.get("value", ""))
        if name.startswith("time_") or name == "random":
            raise _Unbounded  # not a function of its arguments alone
    if kind == "subexpression" and at_root and children and _spine(children[0]) is not None:
        # a.b.c[...]…: the leading field chain is read from the root, the rest from its value
        lead = 1
        while lead < len(children) and _spine(children[lead]) is not None:
            lead += 1
        _reads({"type": "subexpression", "children": children[:lead]}, True, out)
        for child in children[lead:]:
            _reads(child, False, out)
    elif kind in _LEFT_THEN_ELEMENTS or kind == _FILTER:
        if children:
            _reads(children[0], at_root, out)
        for child in children[1:]:
            _reads(child, False, out)
    elif kind == "expref":
        for child in children:
            _reads(child, False, out)
    elif kind in _SAME_PLACE:
        for child in children:
            _reads(child, at_root, out)
    elif kind not in _LEAVES:
        raise _Unbounded  # a node type not analysed here


def _expression_reads(expression: str, out: set[Chain]) -> None:
    expression = expression.strip()
    if expression == "@" or "{{" in expression:
        raise _Unbounded
    try:
        parsed = compiled(expression).parsed
    except Exception:  # an invalid expression: evaluated (and reported) per resource
        raise _Unbounded from None
    _reads(parsed, True, out)


def _strings(value: Any) -> list[str]:
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _variable_reads(value: Any, out: set[Chain]) -> None:
    """The chains every ``{{ … }}`` variable in ``value`` reads."""
    for text in _strings(value):
        if "{{" not in text:
            continue
        if "\\{{" in text:
            raise _Unbounded  # escaped braces: left to the evaluator
        matches = list(_VARIABLE.finditer(text))
        if len(matches) != text.count("{{"):
            raise _Unbounded  # nested variables: the outer expression is only known per resource
        for match in matches:
            _expression_reads(match.group(1), out)


def _pattern_reads(pattern: Any, out: set[Chain]) -> None:
    """A pattern applied to the resource reads it from the top-level keys it names."""
    if not isinstance(pattern, dict):
        raise _Unbounded
    for key in pattern:
        anchor = anchors.parse(key) if isinstance(key, str) else None
        name = anchor.key if anchor is not None else key
        if not isinstance(name, str) or "*" in name or "?" in name or "{{" in name:
            raise _Unbounded
        out.add((name,))


def _foreach_reads(entries: Any, out: set[Chain]) -> None:
    if not isinstance(entries, list):
        raise _Unbounded
    for entry in entries:
        if not isinstance(entry, dict) or entry.keys() - _FOREACH_KEYS:
            raise _Unbounded  # context entries, elementScope, …: not tracked
        if not isinstance(entry.get("list"), str):
            raise _Unbounded
        _expression_reads(entry["list"].strip().removeprefix("{{").removesuffix("}}"), out)
        if "foreach" in entry:
            _foreach_reads(entry["foreach"], out)


def read_set(rule: dict[str, Any]) -> tuple[Chain, ...] | None:
    """The resource field chains a validate rule's outcome depends on (sorted), or None when it
    may depend on more (see the module's docstring)."""
    spec = rule.get("validate")
    if not isinstance(spec, dict) or rule.keys() - _RULE_KEYS or spec.keys() - _VALIDATE_KEYS:
        return None
    try:
        if "$(" in json.dumps(rule, default=str):
            return None  # a pattern reference to another field of the resource
        chains: set[Chain] = set()
        if "pattern" in spec:
            _pattern_reads(spec["pattern"], chains)
        if "anyPattern" in spec:
            if not isinstance(spec["anyPattern"], list):
                return None
            for pattern in spec["anyPattern"]:
                _pattern_reads(pattern, chains)
        if "foreach" in spec:
            _foreach_reads(spec["foreach"], chains)
        _variable_reads(rule.get("preconditions"), chains)
        _variable_reads(spec, chains)
    except (_Unbounded, TypeError, ValueError, RecursionError):
        return None
    return tuple(sorted(chains))


_MISSING = object()


def view(resource: dict[str, Any], chain: Chain) -> str:
    """What a reader of ``chain`` can see of ``resource``, as a string two resources share only
    when they look the same along it: the value at the end of the chain, or how far the chain
    reached and what stood there (an absent key, or a value that is not a mapping)."""
    value: Any = resource
    for depth, key in enumerate(chain):
        if not isinstance(value, dict):
            return f"{depth}!{value!r}"
        value = value.get(key, _MISSING)
        if value is _MISSING:
            return f"{depth}-"
    return repr(value)


_UNKNOWN: Any = object()  # an outcome not remembered yet (None is a remembered "no response")
#: Most outcomes remembered per rule; past it the table starts over (memory stays bounded).
MAX_ENTRIES = 4096
#: After this many lookups a rule whose outcomes are mostly new stops being remembered.
TRIAL = 2000


@dataclass(eq=False)
class Memo:
    """One rule's remembered outcomes within one context and operation."""

    chains: tuple[Chain, ...]
    table: dict[tuple[str, ...], RuleOutcome | None] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0
    active: bool = True

    def outcome(
        self,
        resource: dict[str, Any],
        views: dict[Chain, str],
        evaluate: Callable[..., RuleOutcome | None],
        *request: Any,
    ) -> RuleOutcome | None:
        """``evaluate(*request)`` (the rule's handler on ``resource``), remembered by how
        ``resource`` looks along the rule's chains; ``views`` caches those looks per resource
        for every rule that reads the same chain."""
        chains = self.chains
        if len(chains) == 1:
            key: Any = views.get(chains[0])
            if key is None:
                key = views[chains[0]] = view(resource, chains[0])
        else:
            key = tuple(
                views[chain] if chain in views else views.setdefault(chain, view(resource, chain))
                for chain in chains
            )
        outcome = self.table.get(key, _UNKNOWN)
        if outcome is _UNKNOWN:
            outcome = evaluate(*request)
            self.note_miss()
            if self.active:
                self.table[key] = outcome
        else:
            self.hits += 1
        return outcome

    def note_miss(self) -> None:
        self.misses += 1
        if self.misses >= TRIAL and self.hits < self.misses:
            self.active = False  # the resources hardly repeat: remembering only costs
            self.table.clear()
        elif len(self.table) >= MAX_ENTRIES:
            self.table.clear()


_MEMOS: dict[int, tuple[dict[str, Any], Any, str, Memo | None]] = {}


def memo_for(rule: dict[str, Any], facts: Any, operation: str) -> Memo | None:
    """The memo of ``rule`` for the request ``facts`` (the user a rule may read; Facts is frozen)
    and ``operation``, or None when the rule is not memoisable; kept across ``apply`` calls (a
    worker evaluates a large input one batch at a time)."""
    key = id(rule)
    cached = _MEMOS.get(key)
    if cached is None or cached[0] is not rule or cached[1] is not facts or cached[2] != operation:
        if len(_MEMOS) > 1000:
            _MEMOS.clear()
        chains = read_set(rule)
        cached = _MEMOS[key] = (rule, facts, operation, None if chains is None else Memo(chains))
    return cached[3]
