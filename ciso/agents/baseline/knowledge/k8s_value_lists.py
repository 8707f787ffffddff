"""Values a requirement lists for a field it does not spell the API's way: the items a list of
strings must not contain ("neither its command nor its args may contain `--debug`"), the values
of an enumeration the text names ("paths must be matched as Exact or Prefix" is ``pathType``),
the ``type`` of the one kind a text names ("Secrets may only be of type Opaque or ..."), and the
label keys a keyed field of a named structure may take ("anti-affinity terms may only spread
pods over the topology labels a, b or c" is each ``topologyKey`` under ``podAntiAffinity``).

The field is found in the API schema (:mod:`ciso.agents.baseline.k8s_schema`), never by subject;
what the text lists becomes the ``forbidden`` or ``allowed`` values of a :class:`FieldValueCheck`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ciso.agents.baseline.intent import FieldValueCheck
from ciso.agents.baseline.k8s_schema import (
    FIELD_ENUMS,
    ITEM_ENUMS,
    PATH_ENUMS,
    Place,
    children_at,
    schema_index,
)
from ciso.agents.baseline.knowledge import negated
from ciso.agents.baseline.knowledge.k8s_schema_fields import _words_of, kinds_named, mentions

#: a value the text writes as a literal: in backticks or quotes
_LITERAL = re.compile(r"`([^`]+)`|\"([^\"]+)\"")
#: "may contain / include / pass the argument(s) ..."
_CONTAINS = re.compile(
    r"\b(?:contain|include|hold|carry|pass|be\s+given)\b(?:\s+(?:the|an?|any)\b)?"
    r"(?:\s+(?:arguments?|flags?|options?|values?|items?|entries|entry|words?)\b)?",
    re.I,
)
#: words that name a container's list of strings in prose
_LIST_WORDS = {"command": "command", "commands": "command", "args": "args",
               "arguments": "args"}  # fmt: skip
#: the API's default ``type`` of a kind whose objects may leave it out
_TYPE_DEFAULTS = {"Secret": "Opaque", "Service": "ClusterIP"}
#: a value list after "of type" / "be": names with dots, slashes or capitals
_TYPE_LIST = re.compile(
    r"\bof\s+type\s+(?P<values>[`'\"]?[A-Za-z][\w./-]*[`'\"]?(?:\s*,\s*[`'\"]?[A-Za-z][\w./-]*"
    r"[`'\"]?)*(?:\s*,?\s*or\s+[`'\"]?[A-Za-z][\w./-]*[`'\"]?)?)",
    re.I,
)
#: a label key as the API writes it: an optional DNS prefix and a name
_LABEL_KEY = re.compile(r"(?<![\w./-])((?:[a-z0-9-]+\.)+[a-z0-9-]+/[A-Za-z0-9][\w.-]*[A-Za-z0-9])")


#: a prohibition whose subject is set apart ("no container (init containers included) may",
#: "neither its command nor its args may")
_NO_ONE_MAY = re.compile(
    r"\bno\s+[^.;:]{0,120}?\b(?:may|can|shall|should)\b|\bneither\b[^.;]*\bnor\b", re.I
)


def _forbids(clause: str) -> bool:
    return negated(clause) or bool(_NO_ONE_MAY.search(clause))


def _sentences(text: str) -> list[str]:
    """The sentences of ``text`` without parenthesised asides (an "e.g." in one ends none)."""
    return re.split(r"(?<=[.;!?])\s+", re.sub(r"\([^()]*\)", " ", text))


def _literals(clause: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a or b for a, b in _LITERAL.findall(clause)))


def list_items(text: str) -> tuple[FieldValueCheck, ...] | None:
    """Items a container's list of strings (its command, its args) must not contain, written
    as literals in a clause that forbids them."""
    index = schema_index().places
    for sentence in _sentences(text):
        contains = _CONTAINS.search(sentence)
        if not contains or not _forbids(sentence[: contains.end()]):
            continue
        values = _literals(sentence[contains.start() :])
        named = {
            _LIST_WORDS[w.lower()]
            for w in re.findall(r"\b\w+\b", sentence[: contains.start()])
            if w.lower() in _LIST_WORDS
        }
        # the container's own list (not a probe's or a hook's command of the same name)
        paths = tuple(
            p.path
            for name in sorted(named)
            for p in index.get(name, ())
            if p.level == "container" and p.path == (name, "*")
        )
        if values and paths:
            return (
                FieldValueCheck(
                    concept="-".join(sorted(named)) + "-items", level="container", paths=paths,
                    forbidden=values,
                ),
            )  # fmt: skip
    return None


def _enum_values(clause: str, values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(v for v in values if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", clause))


def enum_values(text: str) -> tuple[FieldValueCheck, ...] | None:
    """A field of an enumeration the text names two or more values of ("matched as Exact or
    Prefix; ImplementationSpecific is not allowed"): the values named in a clause that requires
    them are allowed, else those named in a clause that forbids them are forbidden."""
    index = schema_index().places
    kinds = kinds_named(text)
    for field, values in FIELD_ENUMS.items():
        if len(_enum_values(text, values)) < 2:
            continue
        places = [p for p in index.get(field, ()) if not kinds or p.kind in kinds or not p.kind]
        if not places:
            continue
        allowed: list[str] = []
        forbidden: list[str] = []
        for sentence in _sentences(text):
            for clause in re.split(r"[;:]\s+", sentence):
                named = _enum_values(clause, values)
                if not named:
                    continue
                (forbidden if _forbids(clause) else allowed).extend(named)
        return _field_checks(field, places, allowed=tuple(dict.fromkeys(allowed)),
                             forbidden=() if allowed else tuple(dict.fromkeys(forbidden)))  # fmt: skip
    return None


#: "Deployments labelled tier=database", "StatefulSets carrying the label app=db": the objects
#: judged, by their own labels
_OBJECTS_LABELLED = re.compile(
    r"\b(?P<kind>[A-Z][A-Za-z]+?)s?\s+(?:that\s+are\s+|which\s+are\s+)?(?:labell?ed|carrying"
    r"\s+the\s+label|with\s+the\s+label)\s+[`'\"]?(?P<key>[\w./-]+)\s*[=:]\s*"
    r"[`'\"]?(?P<value>[\w.-]+)"
)


def path_enum_values(text: str) -> tuple[FieldValueCheck, ...] | None:
    """A field named by the word of its parent and a value of its enumeration ("Deployments
    labelled tier=database must use the Recreate rollout strategy"): the values named where
    the text requires them are allowed (an unset field holds the API's default), those where
    it forbids them forbidden; objects labelled as the text says are the ones judged."""
    index = schema_index().places
    kinds = kinds_named(text)
    for (parent, field), (values, default, word) in PATH_ENUMS.items():
        if not re.search(rf"\b{word}\b", text, re.I) or not _enum_values(text, values):
            continue
        places = [
            p for p in index.get(field, ())
            if p.kind in kinds and p.path[-2:] == (parent, field)
        ]  # fmt: skip
        if not places:
            continue
        # what precedes a value in its sentence says whether it is required or forbidden (a
        # reason after it, "so that two copies never run", does not)
        allowed: list[str] = []
        forbidden: list[str] = []
        for sentence in _sentences(text):
            for value in _enum_values(sentence, values):
                head = sentence[: sentence.find(value)]
                (forbidden if _forbids(head) else allowed).append(value)
        checks = _field_checks(
            "-".join(_words_of(parent)) + "-type", places,
            allowed=tuple(dict.fromkeys(allowed)),
            forbidden=() if allowed else tuple(dict.fromkeys(forbidden)),
            must_be_set=bool(allowed) and default not in allowed,
        )  # fmt: skip
        labelled = _OBJECTS_LABELLED.search(text)
        if checks and labelled and labelled.group("kind") in kinds:
            when = (("metadata", "labels", labelled.group("key")), "", (labelled.group("value"),))
            checks = tuple(replace(c, only_when=when) for c in checks)
        return checks
    return None


def _field_checks(
    concept: str, places: list[Place], allowed: tuple[str, ...] = (),
    forbidden: tuple[str, ...] = (), must_be_set: bool = False,
) -> tuple[FieldValueCheck, ...] | None:  # fmt: skip
    if not (allowed or forbidden):
        return None
    checks = []
    for level in ("object", "pod", "container"):
        here = [p for p in places if p.level == level]
        if here:
            checks.append(
                FieldValueCheck(
                    concept=concept, level=level,
                    paths=tuple(dict.fromkeys(p.path for p in here)),
                    kinds=tuple(dict.fromkeys(p.kind for p in here if p.kind)),
                    allowed=allowed, forbidden=forbidden, must_be_set=must_be_set,
                )
            )  # fmt: skip
    return tuple(checks)


def kind_type(text: str) -> tuple[FieldValueCheck, ...] | None:
    """ "Secrets may only be of type A, B or C": the top-level ``type`` of the one kind named;
    an object without one takes the API's default (a Secret is Opaque)."""
    m = _TYPE_LIST.search(text)
    kinds = kinds_named(text)
    if m is None or len(kinds) != 1 or not re.search(r"\bonly\b", text[: m.start()], re.I):
        return None
    kind = kinds[0]
    places = [p for p in schema_index().places.get("type", ()) if p.kind == kind]
    places = [p for p in places if p.path == ("type",) or p.path == ("spec", "type")]
    values = tuple(
        v.strip("`'\" ") for v in re.split(r"\s*,\s*|\s*,?\s+or\s+", m.group("values")) if v.strip()
    )
    default = _TYPE_DEFAULTS.get(kind)
    return _field_checks(
        "type", places, allowed=values, must_be_set=default is not None and default not in values
    )


#: words before a kind that are no value of its ``type`` ("every Secret", "No ConfigMap")
_NOT_QUALIFIERS = {"Every", "Each", "All", "No", "Any", "A", "An", "The", "In", "Only"}


def kind_flag(text: str) -> tuple[FieldValueCheck, ...] | None:
    """A boolean field of the one kind named, said as what its objects must be ("every Opaque
    Secret must be marked immutable", "must not be made immutable"); a capitalised word before
    the kind is a value of its ``type`` (the API's default for an object without one) and
    limits the rule to those objects (a kind named only as the namespaces' has none)."""
    for kind in kinds_named(text):
        found = _kind_flag(kind, text)
        if found:
            return found
    return None


def _kind_flag(kind: str, text: str) -> tuple[FieldValueCheck, ...] | None:
    for name, places in schema_index().places.items():
        here = [p for p in places if p.kind == kind and p.type == "bool"]
        here = [p for p in here if p.path in ((name,), ("spec", name))]
        if not here or len(_words_of(name)) != 1:
            continue
        said = re.search(
            r"\b(?:must|has\s+to|have\s+to|needs?\s+to|shall)\s+(?P<not>not\s+|never\s+)?"
            rf"(?:always\s+)?be\s+(?:(?:marked|made|set|declared|flagged)\s+)?(?:as\s+)?{name}\b",
            text,
            re.I,
        )
        if said is None:
            continue
        required = not said.group("not")
        check = FieldValueCheck(
            concept=f"{kind.lower()}-{name.lower()}", level="object", paths=(here[0].path,),
            kinds=(kind,), allowed=(True,) if required else (), must_be_set=required,
            forbidden=() if required else (True,),
        )  # fmt: skip
        types = [p for p in schema_index().places.get("type", ()) if p.kind == kind]
        types = [p for p in types if p.path in (("type",), ("spec", "type"))]
        qualifier = re.search(rf"(?-i:\b([A-Z][\w./-]*))\s+{kind}s?\b", text)
        if types and qualifier and qualifier.group(1) not in _NOT_QUALIFIERS:
            when = (types[0].path, _TYPE_DEFAULTS.get(kind, ""), (qualifier.group(1),))
            check = replace(check, only_when=when)
        return (check,)
    return None


def keyed_labels(text: str) -> tuple[FieldValueCheck, ...] | None:
    """Label keys a keyed field below a structure the text spells may take: "anti-affinity
    terms may only spread pods over the labels a, b or c" allows those values of every
    ``topologyKey`` below ``podAntiAffinity`` (the required terms and the preferred ones)."""
    if not re.search(r"\bonly\b", text, re.I):
        return None
    keys = tuple(dict.fromkeys(_LABEL_KEY.findall(text)))
    if len(keys) < 2:
        return None
    index = schema_index().places
    for mention in mentions(text):
        for place in index.get(mention.name, ()):
            below = [
                p
                for name, places in index.items()
                if name.endswith("Key") and name[:-3].lower() in text.lower()
                for p in places
                if p.level == place.level and p.kind == place.kind
                and p.path[: len(place.path)] == place.path and p.type == "string"
            ]  # fmt: skip
            if below:
                return _field_checks(below[0].name, below, allowed=keys)
    return None


def _singular(name: str) -> str:
    return name[:-1] if name.endswith("s") else name


def conditional_items(text: str) -> tuple[FieldValueCheck, ...] | None:
    """ "Every toleration with operator Exists must name a taint key": the items of a list
    field (named by its singular) whose enumerated field holds the value named must set the
    child field the obligation names; an item that leaves it unset or empty violates."""
    index = schema_index().places
    for name, places in index.items():
        for place in places:
            if place.path[-1] != "*" or place.type not in ITEM_ENUMS:
                continue
            noun = r"[\s-]*".join(_words_of(_singular(name)))
            for field, values in ITEM_ENUMS[place.type].items():
                for value in values:
                    judged = re.search(
                        rf"\b(?:every|each|any|all)\s+(?:\w+\s+)?{noun}s?\s+(?:with|whose|that\s+has|using)"
                        rf"\s+(?:an?\s+|the\s+)?(?:{field}\s+)?(?:of\s+)?{value}\b[^.;]*?\b"
                        r"(?:must|has\s+to|needs?\s+to)\s+(?:name|have|set|carry|declare|give|"
                        r"specify)\s+(?:an?\s+|its\s+|the\s+)?(?P<words>(?:\w+\s+)?\w+)",
                        text,
                        re.I,
                    )
                    if judged is None:
                        continue
                    said = judged.group("words").lower().split()
                    child = next(
                        (
                            c.name
                            for c in children_at(place.level, place.kind, place.path)
                            if c.name.lower() in said and c.name != field
                        ),
                        None,
                    )
                    if child is None:
                        continue
                    level_places = [p for p in places if p.path[-1] == "*" and p.type == place.type]
                    return tuple(
                        FieldValueCheck(
                            concept=f"{_singular(name).lower()}-{child.lower()}",
                            level=p.level, paths=((*p.path, child),),
                            kinds=(p.kind,) if p.kind else (),
                            must_be_set=True, each_item=True,
                            item_when=((field,), (value,)),
                        )
                        for p in level_places
                        if p.level != "object" or p.kind in kinds_named(text)
                    ) or None  # fmt: skip
    return None


def read(text: str) -> tuple[FieldValueCheck, ...] | None:
    """The first of these readings that finds both a field and its values."""
    return (
        list_items(text)
        or enum_values(text)
        or kind_type(text)
        or keyed_labels(text)
        or conditional_items(text)
        or path_enum_values(text)
    )
