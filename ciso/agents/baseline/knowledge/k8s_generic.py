"""The generic Kubernetes reading: what a requirement says about RBAC verbs on API resources,
about binding subjects, and about fields of the API schema, read from general knowledge of the
API instead of a concept per control.

The parser falls back on it when no concept of the other families matches, so the controls the
concepts were written for keep their reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ciso.agents.baseline.intent import (
    BindingCheck,
    FieldLevel,
    FieldValueCheck,
    RbacRuleCheck,
)
from ciso.agents.baseline.k8s_api import VERB_WORDS, ApiResource, resources_in
from ciso.agents.baseline.knowledge import forbidden_after, negated, rule_clause, words

# ---- RBAC: a verb on a resource ----------------------------------------------------------------

ROLE_WORDS = words(r"\b(cluster\s*)?roles?\b", r"\brbac\b", r"\bpermissions?\b")
#: the resources that are the subject of an RBAC requirement, not its object ("No Role may ...")
_RBAC_OBJECTS = ("roles", "clusterroles", "rolebindings", "clusterrolebindings")
#: a verb allowed, not forbidden: "may at most read them", "reading is fine"
_PERMITTED = re.compile(r"\bat\s+most\s+$|\bonly\s+$", re.I)
#: a sentence that allows what it names: "Creating and reading events is fine."
_PERMITTED_SENTENCE = re.compile(
    r"\b(is|are)\s+(fine|allowed|permitted|acceptable|ok)\b|\bmay\s+still\b", re.I
)


def _sentence_at(text: str, at: int) -> str:
    start = max(text.rfind(". ", 0, at), text.rfind("; ", 0, at)) + 1
    ends = [e for e in (text.find(". ", at), text.find("; ", at)) if e >= 0]
    return text[start : min(ends) if ends else len(text)]


#: a verb and the resource it acts on, within one clause
_OBJECT_SPAN = r"[^.;:]{0,45}?"


def _verb_objects(text: str) -> tuple[tuple[str, ...], tuple[ApiResource, ...]]:
    """The verbs the text applies to a resource it names after them ("create, change or remove
    NetworkPolicy objects", "delete a namespace"), and those resources."""
    verbs: list[str] = []
    resources: list[ApiResource] = []
    for verb, patterns in VERB_WORDS.items():
        for pattern in patterns:
            for m in re.finditer(rf"\b{pattern}\b(?P<after>{_OBJECT_SPAN})", text, re.I):
                if _PERMITTED.search(text[max(0, m.start() - 12) : m.start()]):
                    continue
                if _PERMITTED_SENTENCE.search(_sentence_at(text, m.start())):
                    continue
                rest = text[m.start() :]
                # the first resource after the verb (named within its clause) is its object
                at = {
                    r: found.start()
                    for r in resources_in(text[m.start() : m.end() + 60])
                    if r.plural not in _RBAC_OBJECTS
                    for found in [r.pattern().search(rest)]
                    if found is not None
                }
                if not at:
                    continue
                first = min(at, key=at.__getitem__)
                verbs.append(verb)
                resources.append(first)
    return tuple(dict.fromkeys(verbs)), tuple(dict.fromkeys(resources))


def rbac_rule(text: str) -> RbacRuleCheck | None:
    """ "No Role may let anyone VERB RESOURCE": a rule granting one of the verbs on one of the
    resources (``*`` counts) violates. A subresource the text names ("the approval of a CSR")
    is what the verbs act on, not the object itself."""
    if not any(p.search(text) for p in ROLE_WORDS):
        return None
    verbs, resources = _verb_objects(text)
    if not verbs or not resources:
        return None
    if "update" in verbs and "patch" not in verbs:
        verbs = (*verbs, "patch")  # a patch is a partial update: the API authorises both alike
    if "delete" in verbs and "deletecollection" not in verbs:
        verbs = (*verbs, "deletecollection")
    name = "-".join(r.plural.replace("/", "-") for r in resources)
    return RbacRuleCheck(
        concept=f"rbac-{name}", verbs=verbs, resources=tuple(r.plural for r in resources)
    )


# ---- bindings: who is bound --------------------------------------------------------------------

#: the identities the API server gives a request without credentials
_ANONYMOUS = (("User", "system:anonymous"), ("Group", "system:unauthenticated"))
_NO_CREDENTIALS = words(
    r"\bwithout\s+(any\s+)?(credentials?|authenticat\w+|a\s+token)\b",
    r"\banonymous(ly)?\b",
    r"\bunauthenticated\b",
    r"\b(not|n't|never|fail\w*\s+to)\s+(\w+\s+)?authenticat\w*",
    r"\bno\s+(credentials?|authentication)\b",
)
_BINDING_WORDS = words(r"\bbind", r"\bbound\b", r"\bgrant", r"\bsubjects?\b")
_NAMED_SUBJECT = re.compile(r"\bsystem:(?:serviceaccounts?|[a-z-]+)(?::[a-z0-9-]+)*\b")


#: a subject of a binding named with its kind: "a ServiceAccount named default", "the group
#: `contractors`" (a name after "named"/"called", or quoted)
_KIND_NAMED_SUBJECT = re.compile(
    r"\b(group|user|service\s*account)s?\s+(?:(?:named|called)\s+[`'\"]?([a-z0-9][a-z0-9:._@-]*"
    r"[a-z0-9])|[`'\"]([a-z0-9][a-z0-9:._@-]*[a-z0-9])[`'\"])",
    re.I,
)
_SUBJECT_KIND = {"group": "Group", "user": "User", "serviceaccount": "ServiceAccount"}
#: the text speaks of the bindings themselves ("no RoleBinding may list ... as a subject")
_BINDING_KINDS = words(r"\b(cluster\s*)?role\s*bindings?\b", r"\bas\s+(a\s+)?subjects?\b")
#: a sentence naming who MAY be bound: its subjects are allowed holders, not forbidden ones
_ALLOWED_HOLDERS = re.compile(
    r"\bonly\b|\bexcept\b|\bother\s+than\b|\bapart\s+from\b|\bbesides\b|\ballowed\b", re.I
)


def _kind_named_subjects(text: str) -> list[tuple[str, str]]:
    """The subjects a text about bindings names with their kind, outside sentences that name
    the allowed holders."""
    if not any(p.search(text) for p in _BINDING_KINDS):
        return []
    found = []
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if _ALLOWED_HOLDERS.search(sentence):
            continue
        for m in _KIND_NAMED_SUBJECT.finditer(sentence):
            kind = _SUBJECT_KIND[re.sub(r"\s+", "", m.group(1).lower())]
            found.append((kind, m.group(2) or m.group(3)))
    return found


#: bindings set apart by name: "except the three bindings Kubernetes creates itself
#: (ClusterRoleBindings named system:basic-user, system:discovery and ...)"
_SET_APART = re.compile(
    r"\b(?:except|other\s+than|apart\s+from|besides|excluding)\b[^.;]*?\b(?:(?:Cluster)?Role"
    r"Bindings?|bindings?)\b[^.;]*?\b(?:named|called)\s+([^.;]*)",
    re.I,
)


#: a sentence that accepts the binding it names ("the binding Kubernetes installs for that,
#: system:public-info-viewer, is accepted"): its system: names are set apart, not forbidden
_ACCEPTED = re.compile(
    r"\b(?:is|are)\s+(?:accepted|allowed|permitted|fine|tolerated|exempt\w*|out\s+of\s+scope)\b"
    r"|\b(?:may|can)\s+(?:stay|remain)\b",
    re.I,
)


def bindings_set_apart(text: str) -> tuple[str, ...]:
    """The names of the bindings an exemption lists ("... named a, b and c"), exactly, and the
    system: names of a sentence about a binding that accepts it."""
    names: list[str] = []
    for m in _SET_APART.finditer(text):
        names += re.findall(r"[`'\"]?([a-z0-9][a-z0-9:._-]*[a-z0-9])[`'\"]?", m.group(1))
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if (
            re.search(r"\bbindings?\b", sentence, re.I)
            and _ACCEPTED.search(sentence)
            and not negated(sentence)
        ):
            # "the binding of system:masters": a name after a preposition is its subject
            names += [
                m.group(0)
                for m in _NAMED_SUBJECT.finditer(sentence)
                if not re.search(r"\b(?:of|to|for|with|from|by)\s+$", sentence[: m.start()], re.I)
            ]
    return tuple(dict.fromkeys(n for n in names if n not in ("and", "or")))


def subject_bindings(text: str) -> tuple[BindingCheck, ...] | None:
    """A binding to the subjects the text forbids: anonymous requests (the user
    ``system:anonymous`` and the group ``system:unauthenticated``), a ``system:`` group
    named outright, or a subject named with its kind in a text about bindings ("no RoleBinding
    may list a ServiceAccount named default")."""
    if not any(p.search(text) for p in _BINDING_WORDS) or not negated(text):
        return None
    subjects: list[tuple[str, str]] = []
    if any(p.search(text) for p in _NO_CREDENTIALS):
        subjects.extend(_ANONYMOUS)
    exempt = bindings_set_apart(text)
    for m in _NAMED_SUBJECT.finditer(text):
        if m.group(0) in exempt:
            continue
        name = m.group(0)
        kind = "User" if name == "system:anonymous" else "Group"
        if name not in ("system:masters",) and (kind, name) not in subjects:
            subjects.append((kind, name))
    subjects += [s for s in _kind_named_subjects(text) if s not in subjects]
    if not subjects:
        return None
    return tuple(
        BindingCheck(concept=f"bound-{name.replace(':', '-')}", subject_kind=kind,
                     subject_name=name, exempt_names=exempt)
        for kind, name in subjects
    )  # fmt: skip


# ---- fields of the API schema -------------------------------------------------------------------


@dataclass(frozen=True)
class SchemaField:
    """A field of the schema, the words that name it and where it occurs. ``values``: the
    values of an enumerated field and the words that name each (the field is read only when
    the text names one)."""

    name: str
    named_by: tuple[re.Pattern[str], ...]
    places: tuple[tuple[FieldLevel, tuple[str, ...]], ...]
    kinds: tuple[str, ...] = ()
    values: tuple[tuple[str, re.Pattern[str]], ...] = ()
    #: a value in the text (a number, a dotted name) is what the field holds
    numeric: bool = False
    #: the field holds a list of names ("sysctls"): the dotted names in the text are its values
    dotted: bool = False
    #: any value set violates ("no outside addresses attached")
    presence: bool = False
    #: the words before a name the field holds ("IngressClass is internal-nginx"): the names in
    #: obligations are the allowed ones, those in prohibitions the forbidden ones
    names_after: str = ""
    #: an annotation the text names ("the kubernetes.io/ingress.class annotation") is another
    #: spelling of the field
    annotations: bool = False


def _w(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_SECURITY = ("securityContext",)
SCHEMA_FIELDS: tuple[SchemaField, ...] = (
    SchemaField(
        "runAsGroup",
        words(r"\brunAsGroup\b", r"\bprimary\s+group\b"),
        (("pod", (*_SECURITY, "runAsGroup")), ("container", (*_SECURITY, "runAsGroup"))),
        numeric=True,
    ),
    SchemaField(
        "supplementalGroups",
        words(
            r"\bsupplementalGroups\b", r"\b(additional|supplementa\w+|secondary|extra)\s+groups?\b"
        ),
        (("pod", (*_SECURITY, "supplementalGroups", "*")),),
        numeric=True,
    ),
    SchemaField(
        "fsGroup",
        words(r"\bfsGroup\b", r"\bvolumes?\b.{0,40}\bgroup\b", r"\bgroup\b.{0,30}\bvolumes?\b"),
        (("pod", (*_SECURITY, "fsGroup")),),
        numeric=True,
    ),
    SchemaField(
        "runAsUser",
        words(r"\brunAsUser\b", r"\buser\s+id\b", r"\bUID\b"),
        (("pod", (*_SECURITY, "runAsUser")), ("container", (*_SECURITY, "runAsUser"))),
        numeric=True,
    ),
    SchemaField(
        "sysctls",
        words(r"\bsysctls?\b", r"\bkernel\s+parameters?\b"),
        (("pod", (*_SECURITY, "sysctls", "*", "name")),),
        dotted=True,
    ),
    SchemaField(
        "procMount",
        words(r"\bprocMount\b", r"\b/proc\b.{0,30}\bmask"),
        (("container", (*_SECURITY, "procMount")),),
        values=(("Unmasked", _w(r"\bunmasked\b")),),
    ),
    SchemaField(
        "Service type",
        words(r"\bservices?\b"),
        (("object", ("spec", "type")),),
        kinds=("Service",),
        values=(
            (
                "NodePort",
                _w(r"\bnode\s*-?ports?\b|\bports?\s+(opened\s+|open\s+)?on\s+(the\s+)?nodes?\b"),
            ),
            ("LoadBalancer", _w(r"\bload\s*-?balancers?\b")),
        ),
    ),
    SchemaField(
        "externalIPs",
        words(r"\bexternalIPs\b", r"\b(outside|external|public)\s+(IP\s+)?addresse?s?\b"),
        (("object", ("spec", "externalIPs")),),
        kinds=("Service",),
        presence=True,
    ),
    SchemaField(
        "ingressClassName",
        words(r"\bingressClassName\b", r"\bingress\s*class(es)?\b", r"\bclass\b"),
        (("object", ("spec", "ingressClassName")),),
        kinds=("Ingress",),
        names_after=r"\b(?:ingress\s*)?class(?:Name)?",
        annotations=True,
    ),
    SchemaField(
        "Secret type",
        words(r"\bsecrets?\b", r"\btokens?\b", r"\bcredentials?\b"),
        (("object", ("type",)),),
        kinds=("Secret",),
        values=(
            (
                "kubernetes.io/service-account-token",
                _w(
                    r"kubernetes\.io/service-account-token|"
                    r"\b(stored|long-?lived|legacy|static|non-?expiring|secret-based)\s+"
                    r"(service\s*account\s+|API\s+)?(tokens?|credentials?)\b|"
                    r"\b(tokens?|credentials?)\b[^.;]{0,20}\bnever\s+expires?\b"
                ),
            ),
            ("kubernetes.io/basic-auth", _w(r"kubernetes\.io/basic-auth|\bbasic[- ]auth\w*\b")),
            ("kubernetes.io/dockercfg", _w(r"kubernetes\.io/dockercfg\b")),
        ),
    ),
)

#: numbers a text gives a numeric id field ("GID 0", "group 0", "the root group")
_ID_VALUE = re.compile(r"\b(?:GID|UID|group|user|id)\s*(?:id\s*)?(?:of\s+)?(\d+)\b", re.I)
_ROOT = re.compile(r"\broot\s+(group|user)\b", re.I)
_DOTTED = re.compile(r"\b[a-z][a-z0-9_]*(?:\.[a-z0-9_]+){1,}\b")
#: the values the text lists are the only ones allowed
_ONLY = words(r"\bonly\b", r"\bsafe\b", r"\ballow(ed)?\s+(list|set)\b", r"\bany\s+other\b")


#: "nothing may be reachable", "no ports opened on the nodes"
_NOTHING = words(r"\bnothing\b", r"\bnobody\b", r"\bno\s+\w+")


_ANNOTATION = re.compile(r"\b([a-z0-9.-]+\.[a-z]+/[a-z0-9.-]+)\s+annotations?\b", re.I)
_NAME_VALUE = r"\s+(?:is\s+|named\s+|called\s+|=\s*|:\s*)?[`'\"]?([a-z0-9]+(?:-[a-z0-9]+)+)\b"
#: the field left unset violates: "names no class at all", "without a class"
_UNSET_VIOLATES = words(
    r"\b(names?|sets?|specif\w+|gives?|has)\s+no\s+\w+",
    r"\bwithout\s+(a|an|any)\s+\w+",
    r"\b(unset|missing|omitted)\b",
)


def _names(before: str, text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names the text gives a field after ``before``: (allowed, forbidden), read by the
    polarity of the sentence each is named in."""
    allowed: list[str] = []
    forbidden: list[str] = []
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        names = [m.group(1) for m in re.finditer(before + _NAME_VALUE, sentence, re.I)]
        (forbidden if negated(sentence) else allowed).extend(names)
    return tuple(dict.fromkeys(allowed)), tuple(dict.fromkeys(forbidden))


def _numbers(text: str) -> tuple[int, ...]:
    found = [int(m.group(1)) for m in _ID_VALUE.finditer(text)]
    if _ROOT.search(text):
        found.append(0)
    return tuple(dict.fromkeys(found))


#: a sentence that offers the way to do it instead ("expose them through a LoadBalancer or an
#: Ingress instead", "prefer a ClusterIP"): the values it names are the alternative, not forbidden
_ALTERNATIVE = re.compile(
    r"\binstead\b|\bprefer(?:red|ably|s)?\b|\b(?:is|are)\s+(?:the\s+)?(?:recommended|preferred)\b|"
    r"\brather\s+use\b|\buse\s+\S+(?:\s+\S+){0,3}\s+rather\b",
    re.I,
)


def _prohibiting(text: str) -> str:
    """The sentences of ``text`` that do not only offer an alternative (one that also forbids
    something, "use ClusterIP; NodePort must not be used instead", is kept)."""
    sentences = re.split(r"(?<=[.;!?])\s+", text)
    return " ".join(
        s for s in sentences if not _ALTERNATIVE.search(s) or negated(s) or _AVOIDS.search(s)
    )


#: an imperative that forbids ("do not use token Secrets but projected tokens instead")
_AVOIDS = re.compile(r"\b(?:do\s+not|don't|avoid\w*|stop\s+using|no\s+longer)\b", re.I)


def _field_checks(field: SchemaField, text: str) -> tuple[FieldValueCheck, ...]:
    forbidden: tuple[Any, ...] = ()
    allowed: tuple[Any, ...] = ()
    if field.values:
        judged = _prohibiting(text)
        forbidden = tuple(value for value, pattern in field.values if pattern.search(judged))
        if not forbidden:
            return ()
    elif field.numeric:
        forbidden = _numbers(text)
        if not forbidden:
            return ()
    elif field.dotted:
        names = tuple(dict.fromkeys(m.group(0) for m in _DOTTED.finditer(text)))
        if not names:
            return ()
        if any(p.search(text) for p in _ONLY):
            allowed = names
        else:
            forbidden = names
    elif field.names_after:
        allowed, forbidden = _names(field.names_after, text)
        if not allowed and not forbidden:
            return ()
    elif not field.presence:
        return ()
    concept = re.sub(r"[^a-z0-9]+", "-", field.name.lower()).strip("-")
    by_level: dict[FieldLevel, list[tuple[str, ...]]] = {}
    for level, path in field.places:
        by_level.setdefault(level, []).append(path)
    if field.annotations:
        for key in dict.fromkeys(m.group(1) for m in _ANNOTATION.finditer(text)):
            by_level.setdefault("object", []).append(("metadata", "annotations", key))
    return tuple(
        FieldValueCheck(
            concept=concept,
            level=level,
            paths=tuple(paths),
            kinds=field.kinds,
            forbidden=forbidden,
            allowed=allowed,
            any_value=field.presence,
            must_be_set=bool(allowed) and any(p.search(text) for p in _UNSET_VIOLATES),
        )
        for level, paths in by_level.items()
    )


def field_values(text: str) -> tuple[FieldValueCheck, ...] | None:
    """Checks over every schema field the text names, with the values it forbids (or allows)."""
    if not negated(text) and not any(p.search(text) for p in (*_ONLY, *_NOTHING)):
        return None
    checks: list[FieldValueCheck] = []
    for field in SCHEMA_FIELDS:
        if any(p.search(text) for p in field.named_by):
            checks.extend(_field_checks(field, text))
    return tuple(checks) or None


# ---- a field spelled as the schema spells it, with the value the text gives -------------------


@dataclass(frozen=True)
class FieldPlace:
    """Where a field the text may spell occurs, and the value the API gives it when unset."""

    places: tuple[tuple[FieldLevel, tuple[str, ...]], ...]
    default: Any = None
    kinds: tuple[str, ...] = ()


def _pod(*path: str, default: Any = None) -> FieldPlace:
    return FieldPlace((("pod", path),), default)


def _both_levels(*path: str, default: Any = None) -> FieldPlace:
    """A securityContext field of the pod that each container may set for itself."""
    return FieldPlace((("pod", path), ("container", path)), default)


def _container(*path: str, default: Any = None) -> FieldPlace:
    return FieldPlace((("container", path),), default)


def _object(kind: str, *path: str, default: Any = None) -> FieldPlace:
    return FieldPlace((("object", path),), default, (kind,))


#: fields of the schema by the name the text spells (camelCase, as the API does)
SPELLED_FIELDS: dict[str, FieldPlace] = {
    "hostNetwork": _pod("hostNetwork", default=False),
    "hostPID": _pod("hostPID", default=False),
    "hostIPC": _pod("hostIPC", default=False),
    "hostUsers": _pod("hostUsers", default=True),
    "shareProcessNamespace": _pod("shareProcessNamespace", default=False),
    "enableServiceLinks": _pod("enableServiceLinks", default=True),
    "runtimeClassName": _pod("runtimeClassName"),
    "priorityClassName": _pod("priorityClassName"),
    "schedulerName": _pod("schedulerName", default="default-scheduler"),
    "dnsPolicy": _pod("dnsPolicy", default="ClusterFirst"),
    "restartPolicy": _pod("restartPolicy", default="Always"),
    "fsGroupChangePolicy": _pod("securityContext", "fsGroupChangePolicy", default="Always"),
    "runAsNonRoot": _both_levels("securityContext", "runAsNonRoot"),
    "privileged": _container("securityContext", "privileged", default=False),
    "allowPrivilegeEscalation": _container("securityContext", "allowPrivilegeEscalation"),
    "readOnlyRootFilesystem": _container(
        "securityContext", "readOnlyRootFilesystem", default=False
    ),
    "procMount": _container("securityContext", "procMount", default="Default"),
    "imagePullPolicy": _container("imagePullPolicy"),
    "stdin": _container("stdin", default=False),
    "tty": _container("tty", default=False),
    "externalTrafficPolicy": _object("Service", "spec", "externalTrafficPolicy", default="Cluster"),
    "internalTrafficPolicy": _object("Service", "spec", "internalTrafficPolicy", default="Cluster"),
    "sessionAffinity": _object("Service", "spec", "sessionAffinity", default="None"),
    "persistentVolumeReclaimPolicy": _object(
        "PersistentVolume", "spec", "persistentVolumeReclaimPolicy", default="Retain"
    ),
    "reclaimPolicy": _object("StorageClass", "reclaimPolicy", default="Delete"),
    "allowVolumeExpansion": _object("StorageClass", "allowVolumeExpansion", default=False),
}
_FIELD_VALUE = r"[`'\"]?([A-Za-z0-9](?:[\w./-]*\w)?)"
_NEGATIVE_VALUE = re.compile(
    rf"^[^.;]{{0,40}}?\b(?:must|may|should|shall|can)\s*(?:not|never|n't)\s+(?:be\s+)?"
    rf"(?:set\s+)?(?:to\s+)?{_FIELD_VALUE}",
    re.I,
)
_POSITIVE_VALUE = re.compile(
    rf"^\s*(?:[:=]|(?:set\s+)?to\b|of\b|is\b)\s*{_FIELD_VALUE}|"
    # a bare enumerated value right after the field ("persistentVolumeReclaimPolicy Retain")
    rf"^\s+[`'\"]?((?-i:[A-Z][a-z]\w*)|true|false)\b|^[^.;]{{0,40}}?\b(?:must|should|shall|has\s+to|"
    rf"needs?\s+to)\s+(?:always\s+)?(?:be\s+)?(?:(?:explicitly\s+)?set\s+)?(?:to\s+)?{_FIELD_VALUE}",
    re.I,
)
_NOT_VALUES = {"be", "set", "to", "a", "an", "the", "not", "explicitly", "only", "it"}


def _typed(value: str) -> Any:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    return int(value) if value.isdigit() else value


def _spelled(name: str, place: FieldPlace, text: str, at: int) -> tuple[FieldValueCheck, ...]:
    """The value the text gives the field it spells at ``at``: a value it may not hold ("must
    not be true", "hostUsers: false" in a prohibition), or the one it must hold."""
    after = text[at + len(name) :]
    # the words of its sentence before the field: "no pod may set", "must not set"
    before = re.split(r"(?<=[.;!?])\s+", text[:at])[-1]
    forbidden: tuple[Any, ...] = ()
    allowed: tuple[Any, ...] = ()
    negative = _NEGATIVE_VALUE.match(after)
    positive = _POSITIVE_VALUE.match(after)
    if negative and negative.group(1).lower() not in _NOT_VALUES:
        forbidden = (_typed(negative.group(1)),)
    elif positive:
        value = next(g for g in positive.groups() if g is not None)
        if value.lower() in _NOT_VALUES:
            return ()
        # "no pod may set hostUsers: false": the value is what the prohibition names
        if negated(rule_clause(before)) or forbidden_after(after[positive.end() :]):
            forbidden = (_typed(value),)
        else:
            allowed = (_typed(value),)
    else:
        return ()
    by_level: dict[FieldLevel, list[tuple[str, ...]]] = {}
    for level, path in place.places:
        by_level.setdefault(level, []).append(path)
    return tuple(
        FieldValueCheck(
            concept=name.lower(), level=level, paths=tuple(paths), kinds=place.kinds,
            forbidden=forbidden, allowed=allowed,
            must_be_set=bool(allowed) and place.default not in allowed,
        )
        for level, paths in by_level.items()
    )  # fmt: skip


def spelled_fields(text: str) -> tuple[FieldValueCheck, ...] | None:
    """Checks over every field of :data:`SPELLED_FIELDS` the text spells with a value."""
    checks: list[FieldValueCheck] = []
    for m in re.finditer(r"\b[a-z]+[A-Z][A-Za-z]*\b|\b(?:privileged|stdin|tty)\b", text):
        place = SPELLED_FIELDS.get(m.group(0))
        if place is not None:
            checks.extend(
                c for c in _spelled(m.group(0), place, text, m.start()) if c not in checks
            )
    return tuple(checks) or None


# ---- a metadata key every object of a kind must carry -----------------------------------------

#: a label or annotation key: an optional DNS prefix, a slash, a name ("acme.io/owner-team")
_METADATA_KEY = (
    r"[`'\"]?(?P<key>(?:[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?/)?[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9])?)"
)
#: "must carry the annotation K", "must have a label K", "must be annotated with K"
_REQUIRED_KEY = re.compile(
    r"\b(?:must|shall|should|has\s+to|have\s+to|needs?\s+to)\s+(?:always\s+)?"
    r"(?:carry|have|bear|hold|be\s+given|be\s+(?P<verb>annotated|labell?ed)\s+with)\s+"
    r"(?:(?:the|an?)\s+)?(?:(?P<noun>annotation|label)\s+(?:key\s+)?)?" + _METADATA_KEY,
    re.I,
)
#: "The API server's own Service default/kubernetes is exempt": an object named by namespace/name
_EXEMPT_OBJECT = re.compile(
    r"\b[a-z0-9-]+/([a-z0-9-]+)\s+(?:is|are)\s+(?:exempt|excluded|out\s+of\s+scope|not\s+judged)",
    re.I,
)


def required_metadata_key(text: str) -> FieldValueCheck | None:
    """A key objects must carry ("every Service must carry the annotation acme.io/owner-team"):
    objects of the kinds its sentence names that lack the key (or leave it empty) violate. A key
    the text gives as a label is read under labels, else under annotations: the word decides."""
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        m = _REQUIRED_KEY.search(sentence)
        if m is None or not (m.group("noun") or m.group("verb")):
            continue
        word = (m.group("noun") or m.group("verb")).lower()
        kinds = tuple(r.kind for r in resources_in(sentence[: m.start()]) if "/" not in r.plural)
        if not kinds:
            continue
        key = m.group("key")
        return FieldValueCheck(
            concept=re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-"),
            level="object",
            paths=(("metadata", "labels" if word.startswith("label") else "annotations", key),),
            kinds=kinds,
            must_be_set=True,
            exempt_names=tuple(dict.fromkeys(e.group(1) for e in _EXEMPT_OBJECT.finditer(text))),
        )
    return None


def read(text: str) -> tuple[Any, ...] | None:
    """The checks the generic reading finds, the most precise kind first: binding subjects,
    RBAC verbs on resources, a metadata key objects must carry, fields spelled as the schema
    spells them, then fields described."""
    bindings = subject_bindings(text)
    if bindings:
        return bindings
    rule = rbac_rule(text)
    if rule is not None:
        return (rule,)
    required = required_metadata_key(text)
    if required is not None:
        return (required,)
    return spelled_fields(text) or field_values(text)
