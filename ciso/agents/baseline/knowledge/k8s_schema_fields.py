"""Any field of the Kubernetes API a requirement names, read from the API schema itself instead
of a table: the last fallback of the Kubernetes reading, after every concept and the generic
reading, so that a control nobody wrote a concept for is still read when it names its field.

The schema's fields and their places come from :mod:`ciso.agents.baseline.k8s_schema`. A text
names a field by its camelCase name (``progressDeadlineSeconds``), by a dotted path
(``spec.strategy.type``) or by the field's words ("progress deadline seconds"); the field resolves to every place it occurs under
the kinds the text names, or, for a field of the pod spec or of a container, under every pod
that any workload carries. What the text says of it becomes one of the existing check kinds:
a bound on a number (:class:`FieldBoundCheck`, :class:`ContainerNumberBoundCheck`), on a
quantity (:class:`QuantityBoundCheck`), a value it must (not) hold or a presence
(:class:`FieldValueCheck`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ciso.agents.baseline.bound_checks import FieldBoundCheck, InheritedBoundCheck
from ciso.agents.baseline.family_checks import (
    ContainerNumberBoundCheck,
    ListLengthCheck,
    QuantityBoundCheck,
)
from ciso.agents.baseline.intent import FieldLevel, FieldValueCheck
from ciso.agents.baseline.k8s_schema import (
    CONTAINER_LISTS,
    FIELD_ENUMS,
    INT_OR_STRING,
    INTEGERS,
    ITEM_ENUMS,
    LIST_DEFAULTS,
    POD_SPEC_PATHS,
    QUANTITY,
    Place,
    children,
    children_at,
    schema_index,
)
from ciso.agents.baseline.knowledge import forbidden_after, negated, rule_clause
from ciso.agents.baseline.knowledge.k8s_bounds import LOWER, UPPER, Unit, bounds, byte_bounds
from ciso.agents.baseline.knowledge.k8s_workloads import namespace_labels
from ciso.agents.baseline.knowledge.number_words import as_digits
from itbench.cluster.resources import plural_of

# ---- which fields the text names ----------------------------------------------------------------


def _words_of(name: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)]


@cache
def _word_pattern(name: str) -> re.Pattern[str] | None:
    """The field's name in words ("progress deadline seconds", "termination-message policy"),
    for names of two words or more; a trailing "seconds" may be left out."""
    parts = _words_of(name)
    if len(parts) < 2:
        return None
    spelled = r"[\s-]+".join(re.escape(p) for p in parts)
    # a unit or a kind of setting the text may leave out: "progress deadline (seconds)",
    # "pod management (policy)"
    if parts[-1] in ("seconds", "policy") and len(parts) > 2:
        spelled = r"[\s-]+".join(re.escape(p) for p in parts[:-1]) + rf"(?:[\s-]+{parts[-1]})?"
    return re.compile(rf"\b{spelled}\b", re.I)


@dataclass(frozen=True)
class Mention:
    """A field the text names, where, and the dotted parents it spells before it."""

    name: str
    start: int
    end: int
    parents: tuple[str, ...] = ()
    #: a key of the map field ``name`` spelled after it ("resources.limits.ephemeral-storage")
    key: str = ""
    #: the value the text writes with that key ("a nodeSelector of node-pool: batch")
    value: str = ""


_CAMEL = re.compile(r"\b[a-z]+(?:[A-Z][a-z0-9]*)+\b")
#: a dotted path; a list field may carry its items' brackets ("env[].valueFrom",
#: "envFrom[*].configMapRef", "containers[0].image"), which name no field
_DOTTED = re.compile(r"\b[a-z][A-Za-z0-9]*(?:\[[\w*]*\])?(?:\.[a-z][A-Za-z0-9]*(?:\[[\w*]*\])?)*"
                     r"\.[a-z][A-Za-z0-9]*\b")  # fmt: skip
_BRACKETS = re.compile(r"\[[\w*]*\]")


def _steps(dotted: str) -> list[str]:
    """The field names of a dotted path, its list brackets left out."""
    return _BRACKETS.sub("", dotted).split(".")


_QUOTED = re.compile(r"`([a-z][A-Za-z0-9]*)`")
#: a dotted path ending in a key of a map ("resources.limits.ephemeral-storage"): keys are not
#: schema fields and may hold hyphens
_KEYED = re.compile(r"\b[a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)+\.[a-z0-9][a-z0-9-]*[a-z0-9]\b")


#: an entry written right after a map field, its key and value ("a nodeSelector of node-pool:
#: batch", "nodeSelector with disktype=ssd"): the entry the text asks of the map
_PAIR = re.compile(
    r"\s+(?:(?:of|with|containing|carrying|holding|set\s+to)\s+)?(?:an?\s+|the\s+)?"
    r"(?:entry\s+|key\s+)?[`'\"]?([A-Za-z0-9][\w./-]*)[`'\"]?(?::\s*|=)[`'\"]?([\w./-]*\w)[`'\"]?"
)


def mentions(text: str) -> tuple[Mention, ...]:
    """The schema fields the text names, first spelling first; the same field once."""
    index = schema_index().places
    found: list[Mention] = []
    for m in _DOTTED.finditer(text):
        steps = _steps(m.group(0))
        if steps[-1] in index:
            found.append(Mention(steps[-1], m.start(), m.end(), tuple(steps[:-1])))
    for m in _KEYED.finditer(text):
        *parents, field, key = m.group(0).split(".")
        if key not in index and any(p.values for p in index.get(field, ())):
            found.append(Mention(field, m.start(), m.end(), tuple(parents), key))
    for m in (*_CAMEL.finditer(text), *_QUOTED.finditer(text)):
        name = m.group(1) if m.re is _QUOTED else m.group(0)
        if name not in index:
            continue
        pair = _PAIR.match(text, m.end()) if any(p.values for p in index[name]) else None
        if pair and pair.group(1) not in index:
            found.append(Mention(name, m.start(), pair.end(), key=pair.group(1),
                                 value=pair.group(2)))  # fmt: skip
        else:
            found.append(Mention(name, m.start(), m.end()))
    for name in index:
        pattern = _word_pattern(name)
        if pattern is None:
            continue
        for m in pattern.finditer(text):
            found.append(Mention(name, m.start(), m.end()))
    # a longer name covering a shorter one ("progress deadline seconds" over "deadline seconds")
    kept: list[Mention] = []
    for mention in sorted(found, key=lambda f: (f.start, -(f.end - f.start))):
        if any(k.start <= mention.start and mention.end <= k.end for k in kept):
            continue
        kept.append(mention)
    by_name: dict[str, Mention] = {}
    for mention in kept:
        by_name.setdefault(mention.name, mention)
    return tuple(by_name.values())


def spelled(text: str) -> tuple[str, ...]:
    """The schema fields the text spells as the API does (camelCase, dotted or quoted), not
    only in words."""
    index = schema_index().places
    # a dotted path names its field whatever the leaf's name, when the schema has that path
    names = [
        steps[-1]
        for m in _DOTTED.finditer(text)
        for steps in [tuple(_steps(m.group(0)))]
        if any(_ends_with(p.path, steps) for p in index.get(steps[-1], ()))
    ]
    # a one-word name alone ("add", "namespace") is as often an English word as the field
    names += [m.group(0) for m in _CAMEL.finditer(text)]
    return tuple(dict.fromkeys(n for n in names if n in index))


def settings_spelled(text: str) -> tuple[str, ...]:
    """The fields the text sets the API's way (``optional: true``) right below a path it spells
    dotted (``envFrom[].configMapRef``): the most specific thing a text can say of a field."""
    found = []
    for mention in mentions(text):
        if not mention.parents or mention.key:
            continue
        clause = _sentence(text, mention.start)
        at = max(clause.find(text[mention.start : mention.end]), 0)
        _, child, offset = _narrowed(
            resolve(mention, text), clause[at:], mention.end - mention.start
        )
        if child and offset:
            found.append(child)
    return tuple(dict.fromkeys(found))


def kinds_named(text: str) -> tuple[str, ...]:
    """The kinds of the schema the text names ("StatefulSets", "stateful sets", "cron job")."""
    named = []
    for kind in schema_index().kinds:
        words = r"[\s-]*".join(re.escape(w) for w in _words_of(kind))
        if re.search(rf"\b{words}(?:s|es)?\b", text, re.I):
            named.append(kind)
    return tuple(named)


def _parent_named(place: Place, mention: Mention, text: str) -> int:
    """How much of the fields on the way to ``place`` the text names, in words: "the update
    strategy's maxUnavailable" is a DaemonSet's ``updateStrategy`` (two words named) before a
    Deployment's ``strategy`` (one), and either before a PodDisruptionBudget's (none)."""
    steps = [s for s in place.path[:-1] if s not in ("*", "spec", "template")]
    score = sum(len(_words_of(p)) for p in mention.parents if p in steps)
    for step in steps:
        pattern = _word_pattern(step)
        if re.search(rf"\b{re.escape(step)}\b", text) or (pattern and pattern.search(text)):
            score += len(_words_of(step))
    return score


def resolve(mention: Mention, text: str) -> tuple[Place, ...]:
    """The places a mentioned field is about: under the kinds the text names, the pod and
    container places when the text names a pod-carrying kind or none; among several parents,
    those the text names most of."""
    places = schema_index().places[mention.name]
    kinds = kinds_named(text)
    if "Job" in kinds:
        kinds = (*kinds, "CronJob")  # a CronJob's job template is the Jobs it creates
    if kinds and re.search(r"\bcontainers?\b", text, re.I):
        kinds = (*kinds, "Pod")  # containers live in pods ("a container on a Node's disk")
    if (
        kinds
        and not any(p.kind in kinds for p in places if p.level == "object")
        and not any(k in POD_SPEC_PATHS for k in kinds)
    ):
        # no kind the text names carries the field ("stay on the node" names a Node, not the
        # tolerations' owner): the kinds are context, the field is read wherever it occurs
        kinds = ()
    objects = [p for p in places if p.level == "object" and (not kinds or p.kind in kinds)]
    in_pods = [p for p in places if p.level != "object"]
    carriers = not kinds or any(k in POD_SPEC_PATHS for k in kinds)
    chosen = objects + (in_pods if carriers else [])
    if in_pods and carriers and not any(p.kind in kinds for p in objects):
        chosen = in_pods
    if mention.parents:
        # a dotted path names one place: one that does not end so is another field's leaf
        chosen = [p for p in chosen if _ends_with(p.path, mention.parents + (mention.name,))]
    if not chosen:
        return ()
    whole = [
        p
        for p in chosen
        if tuple(s for s in p.path if s != "*") == mention.parents + (mention.name,)
    ]
    if mention.key and whole:
        # a map's path spelled whole from its level ("resources.limits" of a container) names
        # that place, not a deeper one ending alike (a volume claim template's): the key's
        # words ("ephemeral-storage") are no evidence for the parents
        return tuple(whole)
    best = max(_parent_named(p, mention, text) for p in chosen)
    kept = [p for p in chosen if _parent_named(p, mention, text) == best]
    # each kind the text names keeps its own place ("no PersistentVolumeClaim - including
    # StatefulSet volume claim templates - may ..." judges the claims and the templates)
    for kind in kinds:
        own = [p for p in chosen if p.level == "object" and p.kind == kind]
        if own and not any(p.kind == kind for p in kept):
            most = max(_parent_named(p, mention, text) for p in own)
            kept += [p for p in own if _parent_named(p, mention, text) == most]
    return tuple(kept)


def _ends_with(path: tuple[str, ...], steps: tuple[str, ...]) -> bool:
    """A dotted path the text spells ends at ``path``: spelled from a parent on
    ("rollingUpdate.maxSurge"), or from the object down to a pod or container place
    ("spec.template.spec.hostUsers")."""
    plain = tuple(s for s in path if s != "*")
    return plain[-len(steps) :] == steps or steps[-len(plain) :] == plain


# ---- what the text says of the field ------------------------------------------------------------


def _sentence(text: str, at: int) -> str:
    start = max((m.end() for m in re.finditer(r"[.;!?]\s+", text[:at])), default=0)
    end = re.search(r"[.;!?](\s|$)", text[at:])
    return text[start : at + end.start() if end else len(text)]


_UNSET_WORDS = (
    r"(?:unset|not\s+set|missing|absent|left\s+out|omitted|leaves?\s+it\s+(?:out|unset)|"
    r"neither\s+(?:one\s+)?sets?\s+(?:one|it))"
)
#: the value the text gives an unset field: "an unset X counts as 5", "defaults to 30"
_DEFAULT = re.compile(
    rf"\b(?:{_UNSET_WORDS}\b[^.;]{{0,50}}?\b(?:counts?\s+as|means|is\s+treated\s+as|"
    r"behaves\s+as|equals?)|defaults?\s+(?:to|is)|default\s+(?:value\s+)?of)\s+"
    r"[`'\"]?(-?\d+|true|false|[A-Z][A-Za-z]+)\b",
    re.I,
)
_UNSET_FAILS = re.compile(
    rf"\b{_UNSET_WORDS}\b[^.;]{{0,80}}\b(?:fails?|violat\w*|is\s+a\s+finding|"
    r"does\s+not\s+(?:pass|comply)|non-?compliant)|\bmust\s+(?:always\s+)?be\s+(?:explicitly\s+)?"
    r"(?:set|declared|specified|stated)\b|\b(?:must|has\s+to|have\s+to|needs?\s+to)\s+"
    r"(?:explicitly\s+)?(?:set|declare|specify|state|carry|have|include)\b|"
    r"\bset\s+explicitly\b",
    re.I,
)
_UNSET_PASSES = re.compile(
    rf"\b{_UNSET_WORDS}\b[^.;]{{0,40}}\b(?:pass(?:es)?|compl(?:y|ies)|is\s+(?:fine|compliant|ok))\b",
    re.I,
)
_MUST_NOT_SET = re.compile(
    r"\b(?:must|may|should|shall|can)\s*(?:not|never|n't)\s+(?:be\s+)?(?:set|declared?|"
    r"specif\w+|used?|defined?|contain|carry|have|include|add)\b|\bno\s+\w+\s+may\s+"
    r"(?:set|declare|specify|use|define|have|carry)\b",
    re.I,
)
_VALUE = r"[`'\"]?(/?[A-Za-z0-9](?:[\w./-]*\w)?)[`'\"]?"
_MODALS = ("must", "may", "should", "shall", "can", "has", "have", "needs", "need")
_NOT_VALUES = {"be", "set", "to", "a", "an", "the", "not", "explicitly", "only", "it", "at",
               "no", "more", "less", "any", "one", "of", "either", "unset", "declared",
               "specified", "present", "greater", "fewer", "lower", "higher", "above", "below",
               "exceed", "under", "over", "between", "equal",
               # an unset field said in words ("zero or left out")
               "left", "omitted", "missing", "absent"}  # fmt: skip
_BE_NOT = re.compile(
    rf"\b(?:must|may|should|shall|can)\s*(?:not|never|n't)\s+(?:be\s+)?(?:set\s+)?(?:to\s+)?"
    rf"(?:equal\s+(?:to\s+)?)?{_VALUE}",
    re.I,
)
_BE = re.compile(
    rf"\b(?:must|should|shall|has\s+to|needs?\s+to)\s+(?:always\s+)?(?:be\s+)?"
    rf"(?:(?:explicitly\s+)?set\s+)?(?:to\s+)?(?:equal\s+(?:to\s+)?)?{_VALUE}|"
    rf"^[\w.]+[`'\"]?\s*(?:[:=]|\s(?:(?:set\s+)?to|is|equals?)\b)\s*{_VALUE}|"
    # the value written right after the field ("may request volumeMode Block"): only an
    # enumeration's capitalised spelling, the sentence going on is lowercase
    r"^[\w.]+[`'\"]?\s+(?-i:([A-Z][a-z]+(?:[A-Z][a-z]*)*))\b",
    re.I,
)
#: "policyTypes must include Egress", "must also contain `a` and `b`": items a list must hold
_INCLUDES = re.compile(
    r"^[\w.`'\"]*\s+(?:must|has\s+to|have\s+to|needs?\s+to|shall)\s+(?:always\s+)?(?:also\s+)?"
    r"(?:include|contain|list)\s+[`'\"]?([A-Z][\w.-]*(?:[`'\"]?(?:\s*,\s*|\s+and\s+)[`'\"]?"
    r"[A-Z][\w.-]*)*)",
)
_ONE_OF = re.compile(r"\bone\s+of\s*[:\[(]?\s*([^.;\])]+)", re.I)
#: the spellings that follow a required value: "UTC (written as Etc/UTC or UTC)", "Always or
#: IfNotPresent", "A, B or C"; each is allowed too
_ALTERNATIVES = re.compile(
    r"\s*\((?:written|spelled|given|expressed)\s+as\s+([^()]*)\)|"
    r"((?:\s*,\s*|\s+or\s+)[`'\"]?[A-Za-z0-9/][\w./-]*(?:(?:\s*,\s*|,?\s+or\s+)"
    r"[`'\"]?[A-Za-z0-9/][\w./-]*)*)",
    re.I,
)


#: a prohibition whose subject is set apart by dashes or a list ("no PersistentVolumeClaim -
#: including claim templates - may request ...", "neither A nor B may set ...")
_NO_ONE_MAY = re.compile(
    # (a full stop inside a path, "env[].valueFrom", does not end the clause)
    r"\bno\s+(?:[^.;:]|\.(?=\S)){0,120}?\b(?:may|can|shall|should)\b|"
    r"\bneither\b(?:[^.;]|\.(?=\S))*\bnor\b",
    re.I,
)


def _prohibited(head: str) -> bool:
    """The words before a field forbid what follows them."""
    head = rule_clause(head)
    return negated(head) or bool(_NO_ONE_MAY.search(head))


def _plausible(value: str) -> bool:
    """A word that can be a field's value: the API spells its enumerations capitalised
    (``OnDelete``, ``FallbackToLogsOnError``); numbers, percentages and booleans too. A plain
    lowercase word ("that", "absent") is the sentence going on."""
    if value.lower() in _NOT_VALUES:
        return False
    if value.lower() in ("true", "false"):
        return True
    # a capitalised enum, a number or percentage, an absolute path (a file the field names)
    # or a capitalised name of segments ("Europe/London", an IANA zone)
    return bool(re.fullmatch(r"[A-Z]\w*(?:/[A-Z][\w+-]*)*|-?\d+%?|/[\w./-]+", value))


def _quoted(match: re.Match[str]) -> bool:
    """The value ``match`` read was written in quotes or backticks (`internal-nginx`): the text
    marks it as a literal, whatever its case."""
    group = next(i for i, g in enumerate(match.groups(), 1) if g is not None)
    before, after = match.start(group) - 1, match.end(group)
    text = match.string
    return (
        before >= 0 and after < len(text) and text[before] in "`'\"" and text[after] == text[before]
    )


def _typed(value: str, typ: str) -> Any:
    if typ == "bool" and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if typ in INTEGERS and re.fullmatch(r"-?\d+", value):
        return int(value)
    if typ == INT_OR_STRING and value.isdigit():
        return int(value)
    return value


def _values(clause: str, typ: str) -> tuple[Any, ...]:
    """The values a clause lists ("one of Always, IfNotPresent"), typed as the field is."""
    found = re.findall(r"[`'\"]?([A-Za-z0-9][\w./%-]*\w|\d+%?)[`'\"]?", clause)
    return tuple(_typed(v, typ) for v in found if _plausible(v))


def _alternatives(rest: str, typ: str) -> tuple[Any, ...]:
    """The other spellings listed right after a required value (see ``_ALTERNATIVES``)."""
    m = _ALTERNATIVES.match(rest)
    if not m:
        return ()
    listed = re.split(r"\s*,\s*|\s+or\s+", next(g for g in m.groups() if g is not None))
    # (a full stop after the last one ends the sentence)
    tokens = (t.strip("`'\" ").rstrip(".") for t in listed)
    # a spelling is one token ("Etc/UTC", "IfNotPresent"), not the sentence going on
    return tuple(_typed(t, typ) for t in tokens if t and " " not in t and t not in _NOT_VALUES)


def _zero_percent(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """An IntOrString's 0 is also spelled "0%" (no other number equals a percentage)."""
    return tuple(dict.fromkeys(x for v in values for x in ((0, "0%") if v == 0 else (v,))))


def _default(text: str, typ: str) -> Any:
    m = _DEFAULT.search(text)
    return _typed(m.group(1), typ) if m else None


# ---- rendering through the existing check kinds -------------------------------------------------


def _concept(name: str) -> str:
    return "-".join(_words_of(name)) or name.lower()


#: per level, the paths of a field's places and the kinds they belong to
_Groups = dict[FieldLevel, tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]]
_LEVELS: tuple[FieldLevel, ...] = ("object", "pod", "container")


def _grouped(
    places: tuple[Place, ...],
) -> _Groups:
    """Per level, the paths and the kinds of its places."""
    out: _Groups = {}
    for level in _LEVELS:
        here = [p for p in places if p.level == level]
        if here:
            paths = tuple(dict.fromkeys(p.path for p in here))
            kinds = tuple(dict.fromkeys(p.kind for p in here if p.kind))
            out[level] = (paths, kinds)
    return out


def _full_paths(place: Place) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The (kind, path from the object) pairs of a place, a pod or container place once per
    pod-carrying kind and container list."""
    if place.level == "object":
        return ((place.kind, place.path),)
    out = []
    for kind, spec in POD_SPEC_PATHS.items():
        if place.level == "pod":
            out.append((kind, (*spec, *place.path)))
        else:
            out.extend((kind, (*spec, lst, "*", *place.path)) for lst in CONTAINER_LISTS)
    return tuple(out)


def _collects(kinds: tuple[str, ...], labels: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    plural = (
        tuple(plural_of(k) for k in kinds) if kinds else tuple(plural_of(k) for k in POD_SPEC_PATHS)
    )
    return (*plural, *(("namespaces",) if labels else ()))


def field_checks(mention: Mention, text: str, context: str = "") -> tuple[Any, ...]:
    """The checks a text asks of one field it names; ``context`` (the text with its asides,
    where a default is often stated) is read for what an unset field means."""
    context = context or text
    places = resolve(mention, text)
    if mention.key:
        # a text about containers names the container's map
        if re.search(r"\bcontainers?\b", text, re.I) and any(
            p.level == "container" for p in places
        ):
            places = tuple(p for p in places if p.level == "container")
        # the key's place below each map, holding the map's values
        places = tuple(
            Place(p.level, p.kind, (*p.path, mention.key), p.values) for p in places if p.values
        )
    if not places:
        return ()
    clause = _sentence(text, mention.start)
    at = max(clause.find(text[mention.start : mention.end]), 0)
    after = clause[at:]
    child = ""
    if not mention.key:
        places = (*places, *_siblings_named(places, after[mention.end - mention.start :]))
        directory = _UNDER.search(clause)
        below = _path_below(places)
        if directory and below and re.search(r"\bonly\b", clause, re.I):
            # "may only point at directories under /mnt/disks/": the path each of them holds
            prefix = directory.group(1).rstrip("/") + "/"
            groups = _grouped(below)
            concept = "-".join(_concept(s) for s in (*mention.parents, mention.name, "path"))
            return tuple(
                FieldValueCheck(
                    concept=concept, level=level, paths=paths,
                    kinds=kinds if level == "object" else (),
                    allowed_prefixes=(prefix,), namespace_labels=namespace_labels(text),
                )
                for level, (paths, kinds) in groups.items()
            )  # fmt: skip
        roots = _roots_listed(clause)
        if roots and all(p.type == "string" for p in places):
            # "must use /app or /srv, or a directory below one of them": the field holds a
            # path itself; each root is allowed as written and as a directory to be under (its
            # separator kept, so /application is not below /app)
            concept = "-".join(_concept(s) for s in (*mention.parents, mention.name))
            return tuple(
                FieldValueCheck(
                    concept=concept, level=level, paths=paths,
                    kinds=kinds if level == "object" else (),
                    allowed=roots, allowed_prefixes=tuple(f"{r}/" for r in roots),
                    namespace_labels=namespace_labels(text),
                )
                for level, (paths, kinds) in _grouped(places).items()
            )  # fmt: skip
        places, child, offset = _narrowed(places, after, mention.end - mention.start)
        after = after[offset:]
    typ = places[0].type
    labels = namespace_labels(text)
    # a dotted path's parents tell its leaf apart ("strategy.type" is not any "type")
    concept = "-".join(
        _concept(step)
        for step in (*mention.parents, mention.name, mention.key, child)
        if step and step not in ("spec",)
    )
    groups = _grouped(places)
    if mention.value:
        # the entry the text writes under a map must hold that value, or must not
        forbid = _prohibited(clause[:at])
        return tuple(
            FieldValueCheck(
                concept=concept, level=level, paths=paths,
                kinds=kinds if level == "object" else (),
                forbidden=(mention.value,) if forbid else (),
                allowed=() if forbid else (mention.value,),
                must_be_set=not forbid, namespace_labels=labels,
            )
            for level, (paths, kinds) in groups.items()
        )  # fmt: skip
    if typ == QUANTITY:
        low, high = byte_bounds(clause, quantity=True)
        if low is None and high is None:
            return _presence(concept, groups, clause, at, labels)
        fields = tuple(f for p in places for f in _full_paths(p))
        return (QuantityBoundCheck(concept, fields, minimum=low, maximum=high),)
    if typ in INTEGERS:
        unit: Unit = "seconds" if mention.name.endswith("Seconds") else "count"
        low, high = bounds(after, unit)
        inherited = _inherited_path(places)
        if inherited and low is None and high is None and len(mentions(text)) == 1:
            # the one field the text names: its range may be stated before it is named
            low, high = bounds(text, unit)
        if inherited and (low is not None or high is not None):
            unset_fails = bool(_UNSET_FAILS.search(context)) and not _UNSET_PASSES.search(context)
            return (InheritedBoundCheck(concept, inherited, low, high, unset_fails),)
        if low is not None or high is not None:
            checks = _bound_checks(concept, groups, context, low, high, labels)
            when = _item_condition(places[0], text)
            return tuple(
                replace(c, item_when=when) if when and isinstance(c, FieldBoundCheck) else c
                for c in checks
            )
    if typ in ("bool", "string", *INTEGERS, INT_OR_STRING):
        field = child or mention.name
        if typ != "string" and typ != "bool" and not _ONE_OF.search(after):
            # a number's value in words ("has to be zero or unset")
            after = as_digits(after)
        checks = _value_checks(concept, field, groups, after, clause, context, typ, labels)
        if checks:
            return checks
    return _presence(concept, groups, clause, at, labels)


#: a directory the text puts a path under ("under /mnt/disks/", "below `/srv`")
_UNDER = re.compile(r"\b(?:under|below|beneath|within|inside)\s+[`'\"]?(/[\w./-]*\w/?)", re.I)


#: a list of absolute paths closed by "or a directory below one of them": the paths are roots
_BELOW_ONE_OF = re.compile(
    r"\b(?:directory|directories|path|paths|folder|folders|subdirector(?:y|ies))\s+"
    r"(?:below|under|beneath|inside|within)\s+(?:one\s+of\s+|any\s+of\s+|either\s+of\s+)?"
    r"(?:them|these|those|the\s+two|either)\b",
    re.I,
)
_ABSOLUTE = re.compile(r"(?<![\w./-])[`'\"]?(/[\w.-]+(?:/[\w.-]+)*)/?[`'\"]?(?![\w/])")


def _roots_listed(clause: str) -> tuple[str, ...]:
    """The absolute paths a clause lists before "or a directory below one of them" (without
    a trailing slash), else none: a field whose value may be each root or anything below it."""
    below = _BELOW_ONE_OF.search(clause)
    if not below:
        return ()
    return tuple(dict.fromkeys(m.group(1) for m in _ABSOLUTE.finditer(clause[: below.start()])))


def _siblings_named(places: tuple[Place, ...], rest: str) -> tuple[Place, ...]:
    """The fields beside the named one that the text adds right after it, as the API spells
    them ("hostPath or local volume sources": a PersistentVolume's ``local`` too)."""
    named = re.match(r"\s*(?:,|or|and|nor)\s+(?:an?\s+|the\s+)?[`'\"]?([a-z][A-Za-z0-9]*)\b", rest)
    if not named:
        return ()
    return tuple(
        sibling
        for p in places
        for sibling in children_at(p.level, p.kind, p.path[:-1])
        if sibling.name == named.group(1) and sibling not in places
    )


def _path_below(places: tuple[Place, ...]) -> tuple[Place, ...]:
    """The ``path`` string each place holds right below it (a hostPath's, a local volume's),
    or none when one of them holds none."""
    below = [c for p in places for c in children(p) if c.path[-1] == "path" and c.type == "string"]
    return tuple(below) if places and len(below) == len(places) else ()


#: a relative clause right after a field, saying which kind of it the text means: "postStart
#: hooks that execute a command" (the handler's ``exec``), "volumes that use a hostPath"
_RELATIVE = re.compile(r"^(?:\s+[\w-]+){0,3}?\s+(?:that|which|whose|using)\s+([^,;:()]*)", re.I)


def _narrowed(
    places: tuple[Place, ...], after: str, length: int
) -> tuple[tuple[Place, ...], str, int]:
    """The field right below the mentioned one that the words after it name, its places and
    where ``after`` names it: as a setting spelled the API's way ("may set optional: true",
    "with optional=true") or, for a field of four letters or more, by a word of the relative
    clause that follows the field ("hooks that execute a command": ``exec``). Else the places
    unchanged, no name and offset 0 (the text is about the field itself)."""
    rest = after[length:]
    relative = _RELATIVE.match(rest)
    words = re.findall(r"[a-z]+", relative.group(1).lower()) if relative else []
    # the field's own child named right after it ("its rolling-update partition")
    next_word = re.match(r"[\s-]+([a-z]+)\b", rest)
    for child in dict.fromkeys(c.name for p in places for c in children(p)):
        below = tuple(c for p in places for c in children(p) if c.name == child)
        setting = re.search(rf"\b{re.escape(child)}\s*[:=]", rest)
        if setting:
            return below, child, length + setting.start()
        if next_word and len(child) >= 4 and next_word.group(1) == child:
            return below, child, length + next_word.start(1)
        spelled = _words_of(child)
        said = (
            len(spelled) == 1 and len(child) >= 4 and any(w.startswith(child) for w in words)
        ) or (len(spelled) > 1 and " ".join(spelled) in " ".join(words))
        if said:
            return below, child, 0
    return places, "", 0


def _inherited_path(places: tuple[Place, ...]) -> tuple[str, ...] | None:
    """The path of a setting both the pod and each container carry at the same place (a
    ``securityContext`` field: the container's own value overrides the pod's), else None."""
    pod = {p.path for p in places if p.level == "pod"}
    container = [p.path for p in places if p.level == "container" and p.path in pod]
    return container[0] if container and len(places) == 2 else None


def _item_condition(place: Place, text: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """For a field of list items: the enumerated sibling field and the values of it the text
    names ("a NoExecute taint" judges the tolerations whose effect is NoExecute), else None."""
    if "*" not in place.path:
        return None
    last = len(place.path) - 1 - place.path[::-1].index("*")
    items = place.path[: last + 1]
    holders = [
        p
        for p in schema_index().places.get(items[-2], ())
        if len(items) >= 2
        if p.path == items and p.level == place.level and p.kind == place.kind
    ]
    for holder in holders:
        for field, values in ITEM_ENUMS.get(holder.type, {}).items():
            named = tuple(v for v in values if re.search(rf"\b{v}\b", text))
            if named and field != place.path[-1]:
                return (field,), named
    return None


def _bound_checks(
    concept: str, groups: _Groups, text: str,
    low: int | None, high: int | None, labels: tuple[tuple[str, str], ...],
) -> tuple[Any, ...]:  # fmt: skip
    """A number within bounds: unset takes the default the text states, violates when the text
    says so, and otherwise passes (the field is not judged when it is absent)."""
    default = _default(text, "int32")
    if default is None and not _UNSET_FAILS.search(text):
        default = high if high is not None else low
    checks: list[Any] = []
    for level, (paths, kinds) in groups.items():
        if level == "container":
            checks.append(ContainerNumberBoundCheck(concept, paths[0], minimum=low, maximum=high))
            continue
        checks.append(
            FieldBoundCheck(
                concept, level, paths, kinds=kinds if level == "object" else (),
                minimum=low, maximum=high, default=default, namespace_labels=labels,
                collects=_collects(kinds if level == "object" else (), labels),
            )
        )  # fmt: skip
    return tuple(checks)


def _enum_named(field: str, clause: str, head: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The values of an enumerated field named in words right before it (``head`` ends where
    the field is named) in a clause that forbids them ("parallel pod management is not
    allowed": ``Parallel``); none when the clause does not forbid them. A value word elsewhere
    in the sentence ("their own file for the termination message") is the sentence going on."""
    named = []
    for value in FIELD_ENUMS.get(field, ()):
        spelled = r"[\s-]*".join(re.escape(w) for w in _words_of(value))
        if re.search(rf"\b{spelled}[\s-]+$", head, re.I):
            named.append(value)
    # a value named in words is read only where the clause forbids it: "X is fine" or "X is
    # another matter" asks nothing of the field
    return (tuple(named), ()) if named and _prohibited(clause) else ((), ())


def _value_checks(
    concept: str, field: str, groups: _Groups,
    after: str, clause: str, text: str, typ: str, labels: tuple[tuple[str, str], ...],
) -> tuple[FieldValueCheck, ...]:  # fmt: skip
    """A value the field must not hold, or the ones it must: "must not be Recreate", "must be
    one of A, B", "set to false" (in a prohibition: the forbidden value)."""
    forbidden: tuple[Any, ...] = ()
    allowed: tuple[Any, ...] = ()
    includes = _INCLUDES.match(after)
    lists = [p for paths, _ in groups.values() for p in paths if p[-1] == "*"]
    if includes and lists and not negated(clause[: clause.find(after)] + includes.group(0)):
        # "its policyTypes must include Egress": the list lacks the item (absent: the API's
        # default list, which may lack it too)
        wanted = tuple(_typed(v.strip("`'\""), typ)
                       for v in re.split(r"\s*,\s*|\s+and\s+", includes.group(1)))  # fmt: skip
        return tuple(
            FieldValueCheck(
                concept=concept, level=level, paths=paths,
                kinds=kinds if level == "object" else (), namespace_labels=labels,
                required_items=wanted, default_items=LIST_DEFAULTS.get(field, ()),
            )
            for level, (paths, kinds) in groups.items()
        )  # fmt: skip
    one_of = _ONE_OF.search(after)
    negative = _BE_NOT.search(after)
    positive = _BE.search(after)
    if one_of:
        values = _values(one_of.group(1), typ)
        before = after[: one_of.start()]
        if re.search(r"\b(?:not|never|n't)\b", before):
            forbidden = values
        else:
            allowed = values
    elif negative and (_plausible(negative.group(1)) or _quoted(negative)):
        forbidden = (_typed(negative.group(1), typ),)
    elif positive:
        value = next(g for g in positive.groups() if g is not None)
        # "spec.os.name: windows" is written as the manifest does: a literal, whatever its case
        written = positive.group(2) is not None and value.lower() not in (*_NOT_VALUES, *_MODALS)
        if not (_plausible(value) or _quoted(positive) or written):
            return ()
        head = clause[: clause.find(after)] if after and after in clause else ""
        # the spellings may sit in an aside the reading left out: read them in the full text
        said = text.find(positive.group(0))
        rest = text[said + len(positive.group(0)) :] if said >= 0 else after[positive.end() :]
        spellings = (_typed(value, typ), *_alternatives(rest, typ))
        (forbidden, allowed) = (
            ((_typed(value, typ),), ())
            if _prohibited(head) or forbidden_after(after[positive.end() :])
            else ((), tuple(dict.fromkeys(spellings)))
        )
    else:
        head = clause[: clause.find(after)] if after and after in clause else ""
        forbidden, allowed = _enum_named(field, clause, head)
        if not (forbidden or allowed):
            return ()
    if typ == INT_OR_STRING:
        # an IntOrString spells a number or a percentage: 0 and "0%" are one value
        forbidden, allowed = _zero_percent(forbidden), _zero_percent(allowed)
    default = _default(text, typ)
    unset_fails = bool(_UNSET_FAILS.search(text)) and not _UNSET_PASSES.search(text)
    must_be_set = bool(allowed) and (
        unset_fails or (default is not None and default not in allowed)
    )
    if forbidden and default is not None and default in forbidden:
        # an unset field holds the forbidden default: it must be set to something else
        allowed, must_be_set = (), True
    return tuple(
        FieldValueCheck(
            concept=concept, level=level, paths=paths, kinds=kinds if level == "object" else (),
            forbidden=forbidden, allowed=allowed, must_be_set=must_be_set,
            namespace_labels=labels,
        )
        for level, (paths, kinds) in groups.items()
    )  # fmt: skip


def _presence(
    concept: str, groups: _Groups,
    clause: str, at: int, labels: tuple[tuple[str, str], ...],
) -> tuple[FieldValueCheck, ...]:  # fmt: skip
    """A field that must be set ("must declare a sizeLimit"), or must not ("no container may
    declare a postStart hook")."""
    head, tail = clause[:at], clause[at:]
    # the verb governs this field: it comes right before it ("must not declare a postStart")
    # or the field is the subject ("postStart must not be set")
    verb = re.search(
        r"\b(?:must|may|has\s+to|needs?\s+to|shall)\s+(?:not\s+|never\s+)?"
        r"(?:have|declare|carry|set|specify|define|use|contain|add)\s+"
        # the field may follow its name in words: "must declare its application protocol
        # (appProtocol)"
        r"(?:an?\s+|the\s+|any\s+|its\s+own\s+|its\s+|their\s+)?(?:\w+\s+){0,2}\(?$",
        head,
        re.I,
    )
    subject = re.match(
        # the field's own words may follow it before the verb ("the hostIP field of every
        # container port (init containers included) has to be left unset")
        r"^[\w.]+[`'\"]?\s+(?:field\s+)?(?:\w+\s+|(?:of|in|on|for|under|below|within)\s[^.;:]{0,80}?\s)?"
        r"(?P<verb>(?:must|may|has\s+to|needs?\s+to|shall)\s+(?:not\s+|never\s+)?"
        r"(?:always\s+)?(?:be\s+)?(?:left\s+|kept\s+)?(?:set|declared|specified|defined|present|"
        r"absent|empty|unset)\b)",
        tail,
        re.I,
    )
    if subject and re.search(r"\bof\s+(?:every|each|all|any|an?|the|its|their)?\s*$", head, re.I):
        # "the hostIP field of every container port must be unset": the field named after
        # "of" is the item the subject belongs to, not the subject
        subject = None
    # "must leave X unset": any value of X violates
    left_unset = re.search(r"\bleaves?\s+(?:the\s+|its\s+)?$", head, re.I) and re.match(
        r"^[\w.]+[`'\"]?\s+(?:field\s+)?(?:unset|empty|out)\b", tail, re.I
    )
    # "must not build their sub-path from variables (subPathExpr)": the field in parentheses
    # names what the prohibition before it is about
    named_after = re.search(r"\(\s*[`'\"]?$", head) and _prohibited(head)
    governed = verb or subject
    said = subject.group("verb") if subject else governed.group(0) if governed else ""
    if left_unset or (named_after and governed is None):
        any_value, must_be_set = True, False
    elif governed is None:
        return ()
    elif re.search(r"\b(?:not|never)\b|\babsent\b|\bempty\b|\bunset\b", said, re.I) or negated(
        rule_clause(head)
    ):
        any_value, must_be_set = True, False
    else:
        any_value, must_be_set = False, True
    through_list = any("*" in path for paths, _ in groups.values() for path in paths)
    if must_be_set and through_list and any(len(paths) != 1 for paths, _ in groups.values()):
        return ()  # several lists, each of whose items must set it: no one check says that
    return tuple(
        FieldValueCheck(
            concept=concept, level=level, paths=paths, kinds=kinds if level == "object" else (),
            any_value=any_value, must_be_set=must_be_set, namespace_labels=labels,
            # a field below a list's items: "each port must declare it" is every item
            each_item=must_be_set and "*" in paths[0],
            item_when=_item_named_by(level, kinds, paths[0], clause) if must_be_set else None,
        )
        for level, (paths, kinds) in groups.items()
    )  # fmt: skip


def _item_named_by(
    level: str, kinds: tuple[str, ...], path: tuple[str, ...], clause: str
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The items of a list the clause narrows by a field of their own and its value ("every
    emptyDir volume whose medium is Memory", "each port with protocol UDP"): the field's path
    below the item (a field of the item or of one of the fields on the way to the judged one)
    and the value, written as the API spells it (capitalised or quoted), else None."""
    if "*" not in path:
        return None
    last = len(path) - 1 - path[::-1].index("*")
    item = path[: last + 1]
    kind = kinds[0] if level == "object" and kinds else ""
    on_the_way = [item + path[last + 1 : i] for i in range(last + 1, len(path))]
    for prefix in on_the_way:
        for child in children_at(level, kind, prefix):
            if child.name == path[-1]:
                continue
            said = re.search(
                rf"\b(?:whose|with|where|having|that\s+(?:has|have|sets?|uses?))\s+"
                rf"(?:its\s+|their\s+|the\s+|an?\s+)?{re.escape(child.name)}\s+"
                r"(?:is\s+|are\s+|set\s+to\s+|of\s+|=\s*|:\s*)?"
                r"(?:[`'\"]([^`'\"]+)[`'\"]|\b([A-Z][A-Za-z0-9-]*)\b)",
                clause,
            )
            if said:
                below = prefix[len(item) :] + (child.name,)
                return below, (said.group(1) or said.group(2),)
    return None


def read(text: str, context: str = "") -> tuple[Any, ...] | None:
    """Checks over every schema field the text names and says something of; ``context``: the
    full requirement, asides included, for the default of an unset field."""
    checks: list[Any] = []
    for mention in mentions(text):
        checks.extend(c for c in field_checks(mention, text, context) if c not in checks)
    return tuple(checks) or None


# ---- object fields exposed through the downward API ---------------------------------------------

#: an object's own field spelled as a path ("metadata.annotations", "metadata.labels['app']",
#: "status.podIP"): what a downward-API ``fieldPath`` selects
_OBJECT_PATH = re.compile(r"\b((?:metadata|spec|status)\.[a-zA-Z]+)(?:\[|\b)")


def downward_api(text: str) -> tuple[FieldValueCheck, ...] | None:
    """A text that forbids exposing an object's fields to its containers "through the downward
    API" and spells those fields as paths: every ``fieldPath`` of the pod (downwardAPI volume
    items, projected downwardAPI sources, env ``fieldRef``) that selects one of them, or a key
    below it (``metadata.annotations['key']``), violates. None without both."""
    if not re.search(r"\bdownward\s*-?\s*API\b", text, re.I) or not _prohibited(text):
        return None
    selected = tuple(dict.fromkeys(m.group(1) for m in _OBJECT_PATH.finditer(text)))
    if not selected:
        return None
    groups = _grouped(schema_index().places.get("fieldPath", ()))
    return tuple(
        FieldValueCheck(
            concept="downward-api-" + "-".join(_concept(s) for s in selected[0].split(".")),
            level=level, paths=paths, forbidden_prefixes=selected,
            namespace_labels=namespace_labels(text),
        )
        for level, (paths, _) in groups.items()
        if level != "object"
    )  # fmt: skip


# ---- how many items a list holds ----------------------------------------------------------------

#: a bound on a count of things: "more than three ports", "at most 2 init containers"
_COUNTED = re.compile(rf"\b(?:{UPPER}|{LOWER})\s+(\d+)\s+([a-z]+(?:\s+[a-z]+)?)", re.I)


def _list_places(noun: str) -> tuple[Place, ...]:
    """The places of the list field a plural noun names ("ports", "init containers"): a field
    whose items are the list's, not a list below another list."""
    # the container lists of a pod spec are indexed at the container level, not as fields
    pod_lists = {n: (Place("pod", "", (n, "*"), "container"),) for n in CONTAINER_LISTS}
    for words in (noun.lower().split(), noun.lower().split()[-1:]):
        for name, places in (*pod_lists.items(), *schema_index().places.items()):
            if _words_of(name) == words:
                lists = tuple(p for p in places if p.path[-1] == "*" and p.path.count("*") == 1)
                if lists:
                    return lists
    return ()


#: a count of what maps hold: their keys, entries
_MAP_NOUNS = {"keys", "entries"}


def _maps_counted(
    noun: str, text: str, kinds: tuple[str, ...]
) -> Callable[[int | None, int | None], tuple[ListLengthCheck, ...]] | None:
    """ "No ConfigMap may hold more than ten keys, counting data and binaryData together": the
    map fields of the kind named that the text names, their keys counted together."""
    if noun.lower().split()[0] not in _MAP_NOUNS:
        return None
    index = schema_index().places
    named = [
        p
        for word in dict.fromkeys(re.findall(r"\b[a-z][A-Za-z]*\b", text))
        for p in index.get(word, ())
        if p.level == "object" and p.kind in kinds and p.values and p.path == (word,)
    ]
    if not named:
        return None
    kind = named[0].kind
    paths = [p.path for p in named if p.kind == kind]
    return lambda low, high: (
        ListLengthCheck(
            f"{_concept(kind)}-keys", "object", paths[0], kinds=(kind,),
            minimum=low, maximum=high, also=tuple(paths[1:]),
        ),
    )  # fmt: skip


def list_lengths(text: str) -> tuple[ListLengthCheck, ...] | None:
    """A bound on how many items a list field holds ("no container may declare more than three
    ports"): the list the counted noun names, on the containers when the text speaks of
    containers, else on the pod spec, else on each kind it names that has the list."""
    digits = as_digits(text)
    kinds = kinds_named(text)
    for m in _COUNTED.finditer(digits):
        maps = _maps_counted(m.group(2), digits, kinds)
        if maps:
            low, high = bounds(m.group(0), "count")
            return maps(low, high)
        places = _list_places(m.group(2))
        low, high = bounds(m.group(0), "count")
        about_containers = re.search(r"\bcontainers?\b", digits[: m.start(2)], re.I)
        levels: tuple[FieldLevel, ...] = (
            ("container", "pod", "object") if about_containers else ("pod", "object")
        )
        for level in levels:
            found = [
                p for p in places if p.level == level and (level != "object" or p.kind in kinds)
            ]
            if found:
                return tuple(
                    ListLengthCheck(
                        f"{_concept(p.path[-2])}-count", level, p.path[:-1],
                        kinds=(p.kind,) if level == "object" else (), minimum=low, maximum=high,
                    )
                    for p in (found if level == "object" else found[:1])
                )  # fmt: skip
    return None


# ---- volume sources a prohibition names --------------------------------------------------------


def _source_pattern(name: str) -> re.Pattern[str]:
    """A volume source's name as a text writes it: its words, the last one possibly longer
    ("git repository" for gitRepo, "NFS" for nfs), in any case."""
    parts = [re.escape(w) for w in _words_of(name)]
    return re.compile(r"\b" + r"[\s-]*".join(parts) + r"\w*\b", re.I)


def volume_sources(text: str) -> tuple[FieldValueCheck, ...] | None:
    """The volume sources a sentence forbids ("Pods must not attach storage directly from NFS
    servers or iSCSI targets"): any pod volume of those types violates. Only clauses that
    forbid count ("network storage may only be used through PersistentVolumeClaims" names
    the allowed route)."""
    sources = sorted(
        {
            p.path[2]
            for places in schema_index().places.values()
            for p in places
            if p.level == "pod" and len(p.path) == 3 and p.path[:2] == ("volumes", "*")
        }
        - {"name"}
    )
    named: list[str] = []
    for clause in re.split(r"[.;:]\s+", text):
        if not negated(clause) or re.search(r"\bonly\b", clause, re.I):
            continue
        if not re.search(r"\b(volumes?|storage|mount\w*|disks?|shares?)\b", clause, re.I):
            continue
        named += [s for s in sources if _source_pattern(s).search(clause) and s not in named]
    if not named:
        return None
    paths = tuple(("volumes", "*", source) for source in named)
    concept = "-".join(_concept(s) for s in named) + "-volumes"
    return (FieldValueCheck(concept=concept, level="pod", paths=paths, any_value=True),)


# ---- extended resources named by their qualified name ---------------------------------------------

#: a resource name qualified by a domain ("nvidia.com/gpu", "example.org/fpga"): an extended
#: resource, a key of a container's resource requests and limits (not a label: the word
#: "resource" or a request or limit is in its clause)
_EXTENDED_RESOURCE = re.compile(
    r"(?<![\w./-])[`'\"]?((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}/[a-z0-9](?:[\w.-]*"
    r"[a-z0-9])?)[`'\"]?(?![\w/])"
)
_RESOURCE_WORDS = re.compile(r"\b(?:resources?|request\w*|limit\w*|ask\w*\s+for)\b", re.I)


def extended_resources(text: str) -> tuple[FieldValueCheck, ...] | None:
    """The extended resources a clause forbids containers to request or be limited to ("a
    container must not request the example.org/fpga resource"): a request or a limit of it
    violates (the API counts a limit alone as the request too)."""
    named: list[str] = []
    for clause in re.split(r"[.;]\s+|:\s+", text):
        if not _prohibited(clause) or not _RESOURCE_WORDS.search(clause):
            continue
        named += [
            n
            for n in _EXTENDED_RESOURCE.findall(clause)
            if n not in named and not n.startswith("kubernetes.io/")
        ]
    if not named:
        return None
    paths = tuple(("resources", key, name) for name in named for key in ("limits", "requests"))
    concept = "-".join(_concept(re.sub(r"\W+", "-", n)) for n in named) + "-resource"
    return (FieldValueCheck(concept=concept, level="container", paths=paths, any_value=True),)


# ---- a named choice limited to listed names ------------------------------------------------------

#: "may not name any scheduler other than default-scheduler", "must not use a priority class
#: except batch-low or batch-high": a ``<noun>Name`` field (schedulerName, priorityClassName)
#: said by its noun, and the names it may hold
_CHOICE_OTHER_THAN = re.compile(
    r"\b(?:name|names|use|uses|select|selects|choose|chooses|pick|picks|set|sets|specify|"
    r"specifies|request|requests|ask\s+for|asks\s+for)\s+(?:any|an?|another|some)\s+"
    r"(?P<noun>[a-z]+(?:[\s-][a-z]+){0,2}?)\s+(?:other\s+than|except|besides|apart\s+from)\s+"
    r"(?:the\s+)?(?P<values>[`'\"]?[a-z0-9][\w.-]*[a-z0-9][`'\"]?(?:(?:\s*,\s*|\s+or\s+|"
    r"\s+and\s+)[`'\"]?[a-z0-9][\w.-]*[a-z0-9][`'\"]?)*)",
    re.I,
)


def named_choice(text: str) -> tuple[FieldValueCheck, ...] | None:
    """A ``<noun>Name`` field a prohibition limits to the names it lists ("a workload may not
    name any scheduler other than default-scheduler"): any other name violates; an unset
    field (the API's own choice) does not."""
    index = schema_index().places
    for clause in re.split(r"[.;:]\s+", text):
        m = _CHOICE_OTHER_THAN.search(clause)
        if m is None or not _prohibited(clause[: m.start()] + " " + m.group(0)):
            continue
        noun = [w.lower() for w in re.split(r"[\s-]+", m.group("noun"))]
        field = next((f for f in index if _words_of(f) == [*noun, "name"]), None)
        if field is None:
            continue
        places = tuple(p for p in index[field] if p.level in ("pod", "object", "container"))
        names = tuple(
            v.strip("`'\"")
            for v in re.split(r"\s*,\s*|\s+or\s+|\s+and\s+", m.group("values"))
            if v.strip("`'\"")
        )
        return tuple(
            FieldValueCheck(
                concept=_concept(field), level=level, paths=paths,
                kinds=kinds if level == "object" else (), allowed=names,
                namespace_labels=namespace_labels(text),
            )
            for level, (paths, kinds) in _grouped(places).items()
        )  # fmt: skip
    return None
