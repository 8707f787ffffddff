"""String values judged by a shape the requirement states in words, not by a literal: a
semantic version, a DNS name in a domain ("apps.example.com itself or a subdomain of it"), a URL
of a scheme ("a plain http:// URL"), a program by name or by path ("sh or bash, by name or by
path"). One reading serves every field such a shape is stated of, so a new subject needs no
reader of its own: the shape becomes a regular expression (RE2, which Rego's ``regex.match`` and
Kyverno's ``regex_match`` both run) on a :class:`FieldValueCheck`.

The field comes from what the text names beside the shape: a label or annotation key ("the
label app.kubernetes.io/version holding ..."), every annotation value ("no annotation value may
be ..."), a one-word field of the kind the text names ("every rule must name a host" of an
Ingress), or the program of a command ("the probe command's first element").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ciso.agents.baseline.intent import FieldValueCheck
from ciso.agents.baseline.k8s_schema import POD_SPEC_PATHS, schema_index
from ciso.agents.baseline.knowledge import negated
from ciso.agents.baseline.knowledge.k8s_schema_fields import kinds_named

# ---- shapes -------------------------------------------------------------------------------------

#: semver.org's grammar: MAJOR.MINOR.PATCH without leading zeros, an optional pre-release and
#: build metadata; "v1.2.3" is not one
SEMVER = (
    r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$"
)
_SEMVER_WORDS = re.compile(r"\bsemantic\s+version(?:ing)?\b|\bsem-?ver\b", re.I)

#: one DNS label (RFC 1123)
_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DOMAIN = r"[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)+"
#: "apps.example.com itself or a subdomain of it": the apex and any name below it
_APEX_OR_BELOW = re.compile(
    rf"\b(?P<domain>{_DOMAIN})\s*(?:itself\s+)?(?:,\s*)?or\s+(?:a|any|one\s+of\s+its)\s+"
    r"sub-?domains?\b",
    re.I,
)
#: "a subdomain of apps.example.com", "names under apps.example.com": strictly below it
_BELOW = re.compile(rf"\b(?:a|any)\s+sub-?domains?\s+of\s+[`'\"]?(?P<domain>{_DOMAIN})\b", re.I)

#: "a plain http:// URL", "an ftp:// link": a URL of that scheme, in any letter case (the
#: scheme is case-insensitive, RFC 3986)
_SCHEME = re.compile(
    r"\b(?P<scheme>[a-z][a-z0-9+.-]*)://\s*(?:URLs?|links?|address(?:es)?|endpoints?)\b", re.I
)

#: "must not be sh, bash or ash, by name or by path": programs named by their file name
_PROGRAMS = re.compile(
    r"\b(?:must\s+not|may\s+not|cannot|can't|never)\s+be\s+(?P<names>[\w.+-]+(?:\s*,\s*[\w.+-]+)*"
    r"(?:\s*,?\s*(?:or|nor)\s+[\w.+-]+)?)\s*,?\s*(?:whether\s+)?by\s+(?:its\s+)?name\s+or\s+"
    r"(?:by\s+)?(?:its\s+)?(?:full\s+)?path\b",
    re.I,
)


@dataclass(frozen=True)
class Shape:
    """A shape a value must have (``allowed``) or must not have (``forbidden``), as RE2."""

    allowed: str = ""
    forbidden: str = ""


def _sentence_of(text: str, at: int) -> str:
    start = max((m.end() for m in re.finditer(r"[.;!?]\s+", text[:at])), default=0)
    end = re.search(r"[.;!?](\s|$)", text[at:])
    return text[start : at + end.start() if end else len(text)]


def shape_of(text: str) -> tuple[Shape, int] | None:
    """The shape the text states and where, else None."""
    m = _SEMVER_WORDS.search(text)
    if m:
        return Shape(allowed=SEMVER), m.start()
    m = _APEX_OR_BELOW.search(text) or _BELOW.search(text)
    if m:
        domain = re.escape(m.group("domain").lower()).replace("\\-", "-")
        repeat = "*" if m.re is _APEX_OR_BELOW else "+"
        return Shape(allowed=rf"^({_LABEL}\.){repeat}{domain}$"), m.start()
    m = _SCHEME.search(text)
    if m and negated(_sentence_of(text, m.start())):
        scheme = re.escape(m.group("scheme").lower())
        return Shape(forbidden=rf"(?i)^{scheme}://"), m.start()
    m = _PROGRAMS.search(text)
    if m:
        names = [n for n in re.split(r"\s*,\s*|\s+(?:or|nor)\s+", m.group("names")) if n]
        spelled = "|".join(re.escape(n) for n in names)
        # by path: anything up to the last slash, then the name ("/usr/bin/bash")
        return Shape(forbidden=rf"^(.*/)?({spelled})$"), m.start()
    return None


# ---- the field a shape is stated of --------------------------------------------------------------

#: "the label app.kubernetes.io/version", "annotation example.com/owner": a metadata key
_METADATA_KEY = re.compile(
    r"\b(?P<noun>label|annotation)\s+(?:key\s+)?[`'\"]?"
    r"(?P<key>(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9-]+)*/)?[A-Za-z0-9][\w.-]*[A-Za-z0-9])",
    re.I,
)
#: "no annotation value", "annotation values": every value of the map
_MAP_VALUES = re.compile(r"\b(?P<noun>annotation|label)\s+values?\b", re.I)
#: "and on the pod templates inside them": the pod templates' own metadata too
_TEMPLATES_TOO = re.compile(
    r"\b(?:and|or|as\s+well\s+as|including)\s+(?:on\s+|in\s+)?(?:the\s+|their\s+)?pod\s+templates?\b",
    re.I,
)
#: the object itself, not its pod template ("must itself carry", "only on the pod template does
#: not count")
_ITSELF = re.compile(
    r"\bitself\b|\bthemselves\b|\bpod\s+templates?\b[^.;]{0,30}\b(?:does|do)\s+not\s+count\b", re.I
)
#: the program of a command: its first element, word or item
_PROGRAM_OF = re.compile(
    r"\bcommand'?s?\s+(?:first|leading)\s+(?:element|item|word|entry|argument)\b|"
    r"\b(?:first|leading)\s+(?:element|item|word|entry|argument)\s+of\s+(?:the\s+|its\s+)?"
    r"(?:\w+\s+)?command\b",
    re.I,
)
#: the probes a text names by their word, as the container spells them
_PROBES = {
    "liveness": "livenessProbe",
    "readiness": "readinessProbe",
    "startup": "startupProbe",
}
#: "every rule must name a host": each item of the list must set the field (its word follows)
_EVERY_ITEM_SETS = (
    r"\b(?:every|each|all)\b[^.;:]*\b(?:must|has\s+to|have\s+to)\s+"
    r"(?:name|have|set|carry|declare|give)\s+(?:an?\s+)?"
)

#: an obligation to carry the key ("must itself carry the label ...")
_MUST_CARRY = re.compile(
    r"\b(?:must|has\s+to|have\s+to|needs?\s+to)\b[^.;]*\b(?:carry|have|bear|hold)\b", re.I
)

_Paths = tuple[tuple[str, ...], ...]


def _template_metadata(kinds: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Where each pod-carrying kind among ``kinds`` keeps its pod template's metadata."""
    return {
        k: (*POD_SPEC_PATHS[k][:-1], "metadata")
        for k in kinds
        if k in POD_SPEC_PATHS and k != "Pod"
    }


def _metadata_checks(text: str, shape: Shape, at: int) -> tuple[FieldValueCheck, ...]:
    """A label or annotation key (or every value of the map) on the kinds the text names, and on
    their pod templates when the text says so."""
    sentence = _sentence_of(text, at)
    values = _MAP_VALUES.search(sentence) or _MAP_VALUES.search(text)
    key = None if values else (_METADATA_KEY.search(sentence) or _METADATA_KEY.search(text))
    found = key or values
    if found is None:
        return ()
    kinds = kinds_named(text)
    if not re.search(r"\bpods?\b(?![\s-]+templates?)", text, re.I):
        kinds = tuple(k for k in kinds if k != "Pod")  # "pod templates" names no Pod
    if not kinds:
        return ()
    noun = found.group("noun").lower()
    leaf = (f"{noun}s", key.group("key") if key else "{}")
    # "must carry the label ...": an object without it violates too
    carried = key is not None and _MUST_CARRY.search(text[: key.start()] + " " + sentence)
    must_be_set = bool(carried) and not negated(sentence)
    concept = re.sub(r"[^a-z0-9]+", "-", (key.group("key") if key else f"{noun}-values").lower())
    checks = [
        FieldValueCheck(
            concept=concept.strip("-"), level="object", paths=(("metadata", *leaf),),
            kinds=kinds, must_be_set=must_be_set,
            allowed_pattern=shape.allowed, forbidden_pattern=shape.forbidden,
        )
    ]  # fmt: skip
    templates = _template_metadata(kinds)
    if _TEMPLATES_TOO.search(text) and not _ITSELF.search(text) and templates:
        # each kind keeps its template at its own path: one check per path
        for kind, path in templates.items():
            checks.append(
                FieldValueCheck(
                    concept=f"{concept.strip('-')}-{kind.lower()}-template", level="object",
                    paths=((*path, *leaf),), kinds=(kind,),
                    allowed_pattern=shape.allowed, forbidden_pattern=shape.forbidden,
                )
            )  # fmt: skip
    return tuple(checks)


def _program_checks(text: str, shape: Shape) -> tuple[FieldValueCheck, ...]:
    """The first element of a command: of the probes the text names, else of the container."""
    if not _PROGRAM_OF.search(text):
        return ()
    probes = [
        field
        for word, field in _PROBES.items()
        if re.search(rf"\b{word}\b|\b{field}\b", text, re.I)
    ]
    paths: _Paths = (
        tuple((p, "exec", "command", "0") for p in probes) if probes else (("command", "0"),)
    )
    return (
        FieldValueCheck(
            concept="command-program", level="container", paths=paths,
            allowed_pattern=shape.allowed, forbidden_pattern=shape.forbidden,
        ),
    )  # fmt: skip


def _kind_field_checks(text: str, shape: Shape, at: int) -> tuple[FieldValueCheck, ...]:
    """A string field of one word that a kind the text names carries ("every rule must name a
    host", of an Ingress): its places under those kinds."""
    sentence = _sentence_of(text, at)
    kinds = kinds_named(text)
    index = schema_index().places
    # the word nearest the shape first: "every rule must name a host, and that host must be
    # x.example ..." states the shape of the host, not of a name
    words = sorted(
        re.finditer(r"\b[a-z][a-zA-Z]+\b", sentence),
        key=lambda m: abs(text.find(sentence) + m.start() - at),
    )
    for word in dict.fromkeys(m.group(0) for m in words):
        places = [
            p
            for p in index.get(word, ())
            if p.level == "object" and p.kind in kinds and p.type == "string"
        ]
        if not places:
            continue
        paths = tuple(dict.fromkeys(p.path for p in places))
        each = bool(re.search(_EVERY_ITEM_SETS + re.escape(word) + r"\b", text, re.I))
        return (
            FieldValueCheck(
                concept=word, level="object", paths=paths,
                kinds=tuple(dict.fromkeys(p.kind for p in places)),
                must_be_set=each and len(paths) == 1, each_item=each and len(paths) == 1,
                allowed_pattern=shape.allowed, forbidden_pattern=shape.forbidden,
            ),
        )  # fmt: skip
    return ()


def read(text: str) -> tuple[FieldValueCheck, ...] | None:
    """The checks of a value shape the text states, on the field it states it of; None when it
    states no shape or names no field for it."""
    found = shape_of(text)
    if found is None:
        return None
    shape, at = found
    for reader in (
        lambda: _metadata_checks(text, shape, at),
        lambda: _program_checks(text, shape),
        lambda: _kind_field_checks(text, shape, at),
    ):
        checks = reader()
        if checks:
            return checks
    return None
