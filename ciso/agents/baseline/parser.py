"""Requirement text -> :class:`Intent` or :class:`NotUnderstood`.

The parser works from the words only: it never sees scenario ids, CIS numbers or file names of
the benchmark. It extracts the requirement from the goal text, matches it against the knowledge
base (families in order, most specific concept first) and reads the scope (exempt namespaces,
built-in RBAC objects) from the same text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, is_dataclass, replace

from ciso.agents.baseline.bound_checks import FieldBoundCheck
from ciso.agents.baseline.family_checks import (
    ContainerNumberBoundCheck,
    ContainerRequiresCheck,
    QuantityBoundCheck,
)
from ciso.agents.baseline.intent import (
    SYSTEM_NAMESPACES,
    BindingCheck,
    ConfigSetting,
    ContainerFieldCheck,
    DefaultNamespaceCheck,
    FieldValueCheck,
    HostPathVolumeCheck,
    Intent,
    NotUnderstood,
    PodFieldCheck,
    RbacRuleCheck,
    Scope,
)
from ciso.agents.baseline.k8s_schema import POD_SPEC_PATHS
from ciso.agents.baseline.knowledge import (
    EXEMPT_HEADING,
    OTHER_CONTROL,
    Concept,
    k8s_cluster_objects,
    k8s_cluster_scope,
    k8s_described_fields,
    k8s_effects,
    k8s_field_families,
    k8s_generic,
    k8s_namespaces,
    k8s_pod,
    k8s_rbac,
    k8s_relations,
    k8s_schema_fields,
    k8s_value_lists,
    k8s_value_shapes,
    k8s_workloads,
    rhel_config,
    rhel_effects,
    rhel_files,
    rhel_generic,
    rhel_tables,
)
from ciso.agents.baseline.knowledge import EXEMPT_WORDS as _EXEMPT_WORDS
from ciso.agents.baseline.knowledge.k8s_workloads import (
    exempt_namespace_labels,
    exempt_object_labels,
    exempt_pod_labels,
    lists_in_scope,
    namespace_labels,
    object_labels,
    only_namespaces,
    pod_labels,
)

KUBERNETES_FAMILIES: tuple[tuple[Concept, ...], ...] = (
    k8s_relations.CONCEPTS,  # what an object is tied to, named by narrow nouns of their own
    k8s_cluster_scope.CONCEPTS,  # cluster-wide objects (NetworkPolicy, ClusterRole labels)
    k8s_field_families.CONCEPTS,  # bounds and presence by field family, before their nouns
    k8s_workloads.CONCEPTS,  # fields described by what they do, narrower than the nouns below
    # controls stated by their effect, before the families that key on field names and nouns
    k8s_effects.CONCEPTS,
    k8s_cluster_objects.CONCEPTS,
    k8s_namespaces.CONCEPTS,
    k8s_rbac.CONCEPTS,
    k8s_pod.CONCEPTS,
)
# effects first: a text that states an effect ("lock an account after five failures") also
# uses words of the concepts that name one setting ("authentication attempts")
RHEL_FAMILIES: tuple[tuple[Concept, ...], ...] = (
    rhel_effects.CONCEPTS,
    rhel_files.CONCEPTS,
    rhel_tables.CONCEPTS,
    rhel_config.CONCEPTS,
)

# The goal templates put the requirement on its own indented line(s) between the opening
# sentence and "To check the condition".
_GOAL = re.compile(
    r"(?:kubeconfig\.yaml`|OPA Rego policy|`static-resources/`)\s*\n(?P<req>.+?)\n\s*\n\s*"
    r"To check the condition",
    re.S,
)


def extract_requirement(description: str) -> str:
    """The requirement inside an ITBench goal text, or the text itself when it is not one."""
    match = _GOAL.search(description)
    text = match.group("req") if match else description
    return " ".join(text.split())


@dataclass(frozen=True)
class UpdateRequest:
    """A kyverno-update goal: which deployed policy to edit, which to leave alone, and the new
    requirement in words."""

    policy: str
    keep: tuple[str, ...]
    requirement: str


_EDIT_TARGET = re.compile(
    r"\b(?:to|edit|extend|change|update)\s+the\s+existing\s+[`'\"]?([a-z0-9][a-z0-9.-]*)[`'\"]?"
    r"\s+(?:cluster\s*)?policy",
    re.I,
)
_KEEP = re.compile(
    r"\b(?:leave|keep)\s+[`'\"]?([a-z0-9][a-z0-9.-]*)[`'\"]?\s+(?:exactly|as|unchanged|untouched)",
    re.I,
)


def update_request(description: str) -> UpdateRequest | NotUnderstood:
    """Split a kyverno-update goal into the policy to edit and the new requirement: the
    paragraphs that neither list the deployed policies nor give the editing instructions."""
    target = _EDIT_TARGET.search(description)
    if target is None:
        return NotUnderstood("the goal names no existing policy to edit", description)
    paragraphs = [p for p in re.split(r"\n\s*\n", description) if p.strip()]
    wanted = []
    for paragraph in paragraphs:
        if paragraph.startswith((" ", "\t")) or _EDIT_TARGET.search(paragraph):
            continue  # the indented list of deployed policies, or the instructions
        if re.search(r"\bare\s+deployed\b|\bkubeconfig\b", paragraph, re.I):
            continue
        wanted.append(" ".join(paragraph.split()))
    if not wanted:
        return NotUnderstood("the goal states no new requirement", description)
    keep = tuple(m.group(1) for m in _KEEP.finditer(description))
    return UpdateRequest(policy=target.group(1), keep=keep, requirement=" ".join(wanted))


_NAMESPACE_NAME = re.compile(r"\b(kube-system|kube-public|kube-node-lease)\b")
_SYSTEM_NAMESPACES = re.compile(
    r"\b(system|kubernetes('s)?\s+own|control[- ]plane|platform('s)?\s+own)\s+namespaces\b", re.I
)
_BUILTIN = re.compile(
    r"\bbuilt-?in\b|\bsystem:|rbac-defaults|bootstrapp|\bkubernetes\s+ships\b|"
    r"\bship(s|ped)?\s+with\s+kubernetes\b|\bcome\s+with\s+kubernetes\b|"
    r"\b(default|predefined|stock)\s+(cluster\s*)?roles\b",
    re.I,
)
#: "including kube-system", "even in the system namespaces": the named ones are in scope
_INCLUDED = re.compile(r"\b(includ\w*|even|also|as\s+well\s+as)\s+((in|for|to|the)\s+)*$", re.I)


def _named_outside_inclusion(pattern: re.Pattern[str], text: str) -> list[str]:
    return [m.group(0) for m in pattern.finditer(text) if not _INCLUDED.search(text[: m.start()])]


#: one namespace name in an exemption list, bare or quoted
_LISTED_NAME = r"[`'\"]?[a-z][a-z0-9]*(?:-[a-z0-9]+)*[`'\"]?"
#: "every namespace except kube-system and monitoring", "apart from `ops`, `infra` or `edge`":
#: the whole list ends where its clause does (or at the noun "namespace" or a verb), so "except
#: init containers" is no list of names
_EXEMPT_LIST = re.compile(
    r"\b(?:except(?:ing)?|other\s+than|apart\s+from|besides|but"
    r"|(?:only|sole|one|single)\s+exceptions?\s+(?:is|are))\s+(?:for\s+|in\s+)?(?:the\s+)?"
    rf"({_LISTED_NAME}(?:\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+){_LISTED_NAME})*)"
    r"(?=\s*(?:[).,;:]|$)|\s+(?:namespaces?|must|may|shall|are|is)\b)"
)
#: words an exemption list may hold that are no namespace's name: pronouns and the adjectives of
#: a kind of namespace ("except the system namespaces" is read by its own phrase)
_NOT_NAMESPACE_WORDS = {
    "the", "a", "an", "those", "these", "that", "this", "it", "them", "one", "all", "any",
    "system", "application", "applications", "tenant", "user", "other", "own", "platform",
    "in", "for", "whose", "every",
}  # fmt: skip


def _listed_exempt_namespaces(text: str) -> list[str]:
    """The namespaces an exemption lists by name in a sentence about namespaces."""
    names: list[str] = []
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if not re.search(r"\bnamespaces?\b", sentence, re.I):
            continue
        for m in _EXEMPT_LIST.finditer(sentence):
            listed = [n.strip("`'\"") for n in re.split(r"\s*,\s*|\s+and\s+|\s+or\s+", m.group(1))]
            listed = [n for n in (n.removeprefix("and ").removeprefix("or ") for n in listed) if n]
            if any(n in _NOT_NAMESPACE_WORDS for n in listed):
                continue
            names += listed
    return names


#: an exemption written as a heading: "Exempt: kube-system, monitoring.", "Out of scope:
#: `ops` and `edge`", "Exceptions: kube-system" (the list runs to the end of its sentence)
_EXEMPT_HEADING = re.compile(
    rf"(?:^|(?<=[.;!?(]\s)|(?<=\n))\s*{EXEMPT_HEADING.pattern}\s*(?:the\s+)?(?:namespaces?\s+)?"
    rf"({_LISTED_NAME}(?:\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+){_LISTED_NAME})*)"
    r"(?:\s+namespaces?)?\s*(?=[.;)]|$)",
    re.I,
)


def _headed_exempt_namespaces(text: str) -> list[str]:
    """The namespaces an exemption heading lists ("Exempt: kube-system, monitoring"); none
    when the sentence is about roles or bindings (their names are read as holders) or a listed
    word is no name."""
    names: list[str] = []
    for m in _EXEMPT_HEADING.finditer(text):
        if re.search(r"\broles?\b|\bbindings?\b", m.group(0), re.I):
            continue
        listed = [n.strip("`'\"") for n in re.split(r"\s*,\s*|\s+and\s+|\s+or\s+", m.group(1))]
        listed = [n for n in (n.removeprefix("and ").removeprefix("or ") for n in listed) if n]
        if listed and not any(n.lower() in _NOT_NAMESPACE_WORDS for n in listed):
            names += listed
    return names


#: namespaces named by the start or end of their name ("namespaces whose name begins with
#: kube-", "namespaces prefixed with sys-", "any namespace ending in -sandbox", "the `kube-*`
#: namespaces"): the pattern as a glob, ``*`` standing for the rest of the name
_NAME_PART = r"[`'\"]?(\*?-?[a-z0-9][a-z0-9-]*\*?)[`'\"]?"
#: "namespaces whose name", "namespaces with names that", "namespace names"
_WHOSE_NAME = (
    r"\bnamespaces?\s+(?:whose\s+|with\s+(?:a\s+)?)?(?:names?\s+)?(?:that\s+)?(?:are\s+|is\s+)?"
)
_NAMESPACE_GLOBS = (
    (
        re.compile(
            rf"{_WHOSE_NAME}(?:begins?|starts?|beginning|starting)\s+with\s+(?:the\s+)?"
            rf"(?:prefix\s+)?{_NAME_PART}"
            rf"|{_WHOSE_NAME}(?:prefixed|prefix)\s+(?:with|by)\s+{_NAME_PART}"
            rf"|\bnamespaces?\s+with\s+(?:the|a)\s+(?:name\s+)?prefix\s+{_NAME_PART}",
            re.I,
        ),
        "{}*",
    ),
    (
        re.compile(
            rf"{_WHOSE_NAME}(?:ends?|ending)\s+(?:with|in)\s+(?:the\s+)?(?:suffix\s+)?{_NAME_PART}"
            rf"|{_WHOSE_NAME}suffixed\s+(?:with|by)\s+{_NAME_PART}",
            re.I,
        ),
        "*{}",
    ),
    # a glob written out: "kube-* namespaces", "namespaces matching `tmp-*`"
    (
        re.compile(
            r"(?<![\w*-])[`'\"]?([a-z0-9][a-z0-9-]*\*|\*[a-z0-9-]*[a-z0-9])[`'\"]?(?=[\s,.;:)]|$)"
        ),
        "{}",
    ),
)


def _exempt_namespace_globs(text: str) -> list[str]:
    """The namespace name patterns an exemption names by their start or end, in a sentence
    that exempts (a glob Kyverno's ``namespaces`` match and Rego's ``glob.match`` read)."""
    globs: list[str] = []
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if not (_EXEMPT_WORDS.search(sentence) and re.search(r"\bnamespaces?\b", sentence, re.I)):
            continue
        for pattern, shape in _NAMESPACE_GLOBS:
            for m in pattern.finditer(sentence):
                part = next(g for g in m.groups() if g)
                glob = shape.format(part.strip("*")) if shape != "{}" else part
                if glob.strip("*-"):
                    globs.append(glob)
    return globs


#: a Role or ClusterRole named in the text ("the ClusterRole sre-break-glass", "Role `ops`"):
#: a name with a dash, dot or colon, or quoted, so that ordinary words after "role" are not names
_ROLE_NAME = re.compile(
    r"\b(?:cluster\s*)?roles?\s+(?:named\s+|called\s+)?"
    r"(?:[`'\"]([a-z0-9][a-z0-9.:-]*)[`'\"]|([a-z0-9]+(?:[.:-][a-z0-9]+)+)\b)"
    # the name before the kind: "the `webhook-manager` ClusterRole"
    r"|[`'\"]([a-z0-9][a-z0-9.:-]*)[`'\"]\s+(?:cluster\s*)?roles?\b",
    re.I,
)
#: "only X may", "no other Role": the requirement names who keeps the permission
_ONLY_HOLDERS = re.compile(
    r"\bonly\b|\bno\s+other\b|\bany\s+other\b"
    # "nobody outside the control plane (the built-in system: roles) may"
    r"|\b(nobody|no\s*one|none)\s+(outside|but|except|besides|other\s+than)\b",
    re.I,
)


def exempt_roles(text: str) -> tuple[str, ...]:
    """The Roles/ClusterRoles a requirement names as the permitted holders of a permission
    (RBAC controls are often written "only the break-glass role may ...", "other than the
    ClusterRole platform-automation"). Built-in ``system:`` names are covered by the built-in
    exemption; a name only counts when the text has exemption wording."""
    if not (_EXEMPT_WORDS.search(text) or _ONLY_HOLDERS.search(text)):
        return ()
    names = [(m.group(1) or m.group(2) or m.group(3)) for m in _ROLE_NAME.finditer(text)]
    names += _bare_exempt_role_names(text)
    return tuple(dict.fromkeys(n for n in names if not n.lower().startswith("system:")))


#: a name as Kubernetes spells one (cluster-admin, ops-readers), not inside a longer token
_BARE_NAME = re.compile(r"(?<![\w:./*=-])([a-z0-9]+(?:-[a-z0-9]+)+)(?![\w:./*=-])")
#: hyphenated words a sentence about roles uses that are not names
_HYPHENATED_WORDS = {"built-in", "read-only", "cluster-wide", "well-known", "third-party",
                     "add-on", "add-ons", "plug-in", "plug-ins", "so-called", "per-namespace"}  # fmt: skip


def _bare_exempt_role_names(text: str) -> list[str]:
    """Names listed, without the word role beside them, in a sentence that sets roles apart
    ("the system: roles and cluster-admin are out of scope"): a sentence about roles lists
    role names; a name followed by "namespace" is a namespace's."""
    names: list[str] = []
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if not (_EXEMPT_WORDS.search(sentence) and re.search(r"\broles?\b", sentence, re.I)):
            continue
        names += [
            m.group(1)
            for m in _BARE_NAME.finditer(sentence)
            if m.group(1) not in _HYPHENATED_WORDS
            and m.group(1) not in SYSTEM_NAMESPACES
            and not re.match(r"\W*namespaces?\b", sentence[m.end() :], re.I)
        ]
    return names


def scope_of(text: str) -> Scope:
    """Exempt namespaces and built-in RBAC objects, read from exemption wording in its many forms
    ("kube-system is exempt", "leave kube-system alone", "out of scope: the system namespaces",
    "does not apply to built-in roles"); a name the text includes ("even in kube-system") stays
    in scope."""
    named = _named_outside_inclusion(_NAMESPACE_NAME, text)
    system = _named_outside_inclusion(_SYSTEM_NAMESPACES, text)
    builtin = bool(_named_outside_inclusion(_BUILTIN, text))
    roles = exempt_roles(text)
    if not _EXEMPT_WORDS.search(text):
        # "only the system: roles and X may": the holders named after "only" are exempt
        if _ONLY_HOLDERS.search(text) and (roles or builtin):
            return Scope(exempt_builtin_rbac=builtin, exempt_role_names=roles)
        return Scope()
    listed = (
        *named,
        *_listed_exempt_namespaces(text),
        *_headed_exempt_namespaces(text),
        *_exempt_namespace_globs(text),
    )
    namespaces = list(dict.fromkeys(listed))
    if system:
        namespaces.extend(ns for ns in SYSTEM_NAMESPACES if ns not in namespaces)
    return Scope(
        exempt_namespaces=tuple(namespaces), exempt_builtin_rbac=builtin, exempt_role_names=roles
    )


#: a pattern that is a field name as the API spells it (hostIPC, allowPrivilegeEscalation)
#: or a configuration keyword (MaxAuthTries, PASS_MAX_DAYS, max_log_file_action)
_FIELD_NAME = re.compile(
    r"[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+|[a-z]+_[a-z_]+"
)


def _names_its_field(concept: Concept, text: str) -> bool:
    return any(
        _FIELD_NAME.fullmatch(p.pattern) and re.search(rf"\b{p.pattern}\b", text)
        for group in concept.all_of
        for p in group
    )


def _evidence(concept: Concept, text: str) -> int:
    return sum(1 for group in concept.all_of for p in group if p.search(text))


_UNSET = r"(unset|not\s+set|missing|absent|left\s+out|omitted|undefined|not\s+defined)"
_UNSET_VIOLATES = (
    re.compile(
        rf"\b{_UNSET}\b.{{0,30}}\b(fails?|violat\w*|(is|counts\s+as)\s+a\s+finding|"
        r"non-?compliant|does\s+not\s+comply)",
        re.I,
    ),
    re.compile(rf"\bnot\s+(\w+\s+){{0,3}}or\s+{_UNSET}\b", re.I),
    re.compile(r"\bfails?\s+unless\b", re.I),
    re.compile(
        r"\b(must|has\s+to|needs?\s+to)\s+be\s+(explicitly\s+)?set\b|\bset\s+explicitly\b", re.I
    ),
)
_UNSET_COMPLIES = (
    re.compile(
        rf"\b{_UNSET}\b.{{0,30}}\b(pass(es)?|compl(y|ies)|is\s+(fine|compliant|ok))\b", re.I
    ),
)


#: "on every line that sets it", "every occurrence", "any line setting it gives another value";
#: a prohibition quantified over the files ("must not turn it on in any sysctl file", "no
#: limits file may raise it"): a value set in any file read is judged, even one a later file
#: overrides
_EVERY_VALUE = re.compile(
    r"\b(?:every|each|any|all)\s+(?:lines?|occurrences?|assignments?|definitions?|settings?\s+lines?)"
    r"\b(?!\s+(?:of|in)\s+(?:a|the)\s+match)"
    r"|\b(?:in|from)\s+(?:any|every|each)\s+(?:[\w.-]+\s+){0,2}?(?:files?|drop-?ins?|snippets?)\b"
    r"|\bno\s+(?:[\w.-]+\s+){0,2}?(?:files?|drop-?ins?|snippets?)\b[^.;,:]{0,40}?"
    r"\b(?:may|can|must|shall)\b",
    re.I,
)


def unset_stated(text: str) -> bool | None:
    """Whether the text says a setting left unset complies (True), violates (False), or says
    nothing of it (None)."""
    if any(p.search(text) for p in _UNSET_VIOLATES):
        return False
    if any(p.search(text) for p in _UNSET_COMPLIES):
        return True
    return None


#: a parenthesised aside: not what the requirement is about (sentences about another control are
#: left out too: OTHER_CONTROL)
_ASIDE = re.compile(r"\([^()]*\)")


#: a field spelled as the API spells it, dotted (``capabilities.add``, ``spec.hostPID``)
_DOTTED_FIELD = re.compile(r"\b[a-z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*\b")


def _aside(match: re.Match[str]) -> str:
    """A parenthesis is an aside unless it spells out the field the requirement is about
    ("(its capabilities.add must be absent or empty)") without pointing at another control."""
    inner = match.group(0)
    if _DOTTED_FIELD.search(inner) and not OTHER_CONTROL.search(inner):
        return inner
    return " "


def without_asides(text: str) -> str:
    """The text without parenthesised asides and sentences that name other controls."""
    stripped = _ASIDE.sub(_aside, text)
    sentences = re.split(r"(?<=[.!?;])\s+", stripped)
    return " ".join(s for s in sentences if not OTHER_CONTROL.search(s))


def about_this_control(text: str) -> str:
    """The text without the sentences that name other controls, its asides kept (a concept
    named only in a sentence about another control is not what the text is about)."""
    sentences = re.split(r"(?<=[.!?;])\s+", text)
    return " ".join(s for s in sentences if not OTHER_CONTROL.search(s))


def _field_position(concept: Concept, text: str) -> int | None:
    """Where the text first spells a field of ``concept`` as the API or file spells it."""
    found = [
        m.start()
        for group in concept.all_of
        for p in group
        if _FIELD_NAME.fullmatch(p.pattern)
        for m in [re.search(rf"\b{p.pattern}\b", text)]
        if m is not None
    ]
    return min(found) if found else None


def _ranked(found: list[Concept], text: str, full: str) -> list[Concept]:
    """``found`` (one family's matches in ``text``, in the family's order) best first: a concept
    whose field the text names as the API spells it wins over one it only describes ("hostIPC:
    true" beside "node processes"), the field named first winning (a field named only in an
    aside of ``full`` after those named in ``text``); among described ones of one phrase group
    each, the one the text describes in more ways; otherwise the family's order."""
    if found[0].accepts is not None:
        return found  # a composite the text spells out field by field
    positions: dict[str, int] = {}
    for concept in found:
        here = _field_position(concept, text)
        aside = _field_position(concept, full)
        if here is not None:
            positions[concept.name] = here
        elif aside is not None:
            positions[concept.name] = len(text) + aside
    named = sorted((c for c in found if c.name in positions), key=lambda c: positions[c.name])
    rest = [c for c in found if c not in named]
    single = [c for c in rest if len(c.all_of) == 1]
    if not named and len(single) > 1 and found[0] in single:
        # the one described in more ways first (the family's order on ties)
        rest = sorted(rest, key=lambda c: -_evidence(c, text) if c in single else 0)
    return named + rest


#: a sentence that states what must (not) be: the requirement proper, not its rationale
#: ("whoever can create a PersistentVolume can define a hostPath volume" is a reason)
_OBLIGATION = re.compile(
    r"\b(must|may|shall|should|never|has\s+to|have\s+to|needs?\s+to|"
    # the imperative of a check: "Flag every workload ...", "Ensure ...", "Reject ..."
    r"flag|ensure|require[sd]?|forbid\w*|disallow\w*|prohibit\w*|reject|deny|report)\b",
    re.I,
)


def _obligations(text: str) -> str:
    """The sentences of ``text`` that state an obligation or a prohibition."""
    sentences = re.split(r"(?<=[.!?;:])\s+", text)
    return " ".join(s for s in sentences if _OBLIGATION.search(s))


#: the clause of an exemption that says why the exempted objects need the setting: ", where
#: the node's network agent needs it", ", whose collector runs privileged", ", because ..."
_REASON = re.compile(r",\s*(?:where|whose|which|because|since|as|for\s+which)\b.*", re.I | re.S)


def _exemption_reasons(text: str) -> tuple[str, str]:
    """The reasons the sentences of ``text`` that only set something apart give for it ("The
    one exception is kube-system, where the node's network agent needs it"), and the text
    without those sentences. A sentence that also states the obligation ("no pod may ...,
    except in kube-system") sets nothing apart alone."""
    sentences = re.split(r"(?<=[.!?;])\s+", text)
    apart = [bool(_EXEMPT_WORDS.search(s) and not _OBLIGATION.search(s)) for s in sentences]
    reasons = [m.group(0) for s, a in zip(sentences, apart, strict=True) if a
               for m in [_REASON.search(s)] if m]  # fmt: skip
    return " ".join(reasons), " ".join(s for s, a in zip(sentences, apart, strict=True) if not a)


def _candidates(text: str, families: tuple[tuple[Concept, ...], ...]) -> list[Concept]:
    """The concepts the text may be about, best first: those matched in the text without its
    asides before those matched only with them; within each, family by family. Last, those
    only the reason of an exemption names: why the objects a text sets apart need a setting
    is not the control the text is about."""
    ordered: list[Concept] = []
    for reading in (without_asides(text), about_this_control(text)):
        matched: list[Concept] = []
        for family in families:
            found = [c for c in family if c.matches(reading) and c not in ordered]
            if found:
                matched.extend(_ranked(found, reading, text))
        # across families too, a concept whose field the requirement proper spells as the API
        # does ("may declare a hostPort") wins over one the text only describes in passing
        # ("bypassing network policy"): the field name is the most precise thing a requirement
        # can say; a field named only in the rationale does not count
        obligations = _obligations(reading)
        spelled = [c for c in matched if _field_position(c, obligations) is not None]
        if spelled and matched[0] not in spelled and matched[0].accepts is None:
            matched = spelled + [c for c in matched if c not in spelled]
        ordered.extend(matched)
    reasons, rest = _exemption_reasons(text)
    if reasons:
        named_apart = [c for c in ordered if c.matches(reasons) and not c.matches(rest)]
        ordered = [c for c in ordered if c not in named_apart] + named_apart
    return ordered


#: a name before the kind: "our platform-admins ClusterRole", "the ingress-nginx namespace"
_ROLE_BEFORE_KIND = re.compile(r"\b([a-z0-9]+(?:[.-][a-z0-9]+)+)\s+(?:cluster\s*)?roles?\b", re.I)
_NAMESPACE_BEFORE_KIND = re.compile(
    # "the namespace storage-system": an article is no name, the name follows the noun
    r"\b(?!(?:the|a|an|its|their|our|own|every|each|any|that|one)\s)"
    r"([a-z0-9]+(?:-[a-z0-9]+)*)\s+namespaces?\b|\bnamespaces?\s+[`'\"]?([a-z0-9]+(?:-[a-z0-9]+)+)",
    re.I,
)
_NOT_NAMES = {"the", "a", "an", "its", "their", "our", "own", "every", "each", "any", "that", "one"}
#: "outside the X ClusterRole", "nobody but the X ClusterRole": the named role keeps the permission
_HOLDER_WORDS = re.compile(r"\b(outside|but|save|except)\b", re.I)


def generic_scope(text: str, scope: Scope) -> Scope:
    """The scope a generic reading adds to :func:`scope_of`: holders named before their kind
    ("only our platform-admins ClusterRole may"), and namespaces an exemption names ("apart from
    the ingress controller in the ingress-nginx namespace")."""
    roles = list(scope.exempt_role_names)
    namespaces = list(scope.exempt_namespaces)
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if any(p.search(sentence) for p in (_ONLY_HOLDERS, _EXEMPT_WORDS, _HOLDER_WORDS)):
            roles += [m.group(1) for m in _ROLE_BEFORE_KIND.finditer(sentence)]
        if _EXEMPT_WORDS.search(sentence):
            namespaces += [
                name
                for m in _NAMESPACE_BEFORE_KIND.finditer(sentence)
                for name in [m.group(1) or m.group(2)]
                if name.lower() not in _NOT_NAMES and not _INCLUDED.search(sentence[: m.start()])
            ]
    return replace(
        scope,
        exempt_role_names=tuple(dict.fromkeys(r for r in roles if not r.startswith("system:"))),
        exempt_namespaces=tuple(dict.fromkeys(namespaces)),
    )


#: the check kinds that spell the fields they read as paths
_PATH_CHECKS = (
    FieldValueCheck,
    FieldBoundCheck,
    ContainerFieldCheck,
    PodFieldCheck,
    ContainerNumberBoundCheck,
    ContainerRequiresCheck,
    QuantityBoundCheck,
)


def _strings(value: object) -> set[str]:
    """Every string inside a check (its paths, fields, kinds), for telling which fields it reads."""
    if isinstance(value, str):
        return {value}
    if is_dataclass(value) and not isinstance(value, type):
        return set().union(*(_strings(getattr(value, f.name)) for f in fields(value)))
    if isinstance(value, (tuple, list)):
        return set().union(set(), *(_strings(v) for v in value))
    return set()


def _spells_another_field(built: object, text: str) -> bool:
    """The requirement proper spells a field of the API schema (camelCase or dotted) that none
    of ``built``'s checks reads."""
    checks = built if isinstance(built, tuple) else (built,)
    if not checks or not all(isinstance(c, _PATH_CHECKS) for c in checks):
        return False  # a check of its own kind knows its fields without naming them
    named = k8s_schema_fields.spelled(_obligations(without_asides(text)))
    return bool(named) and not (set(named) & _strings(checks))


def _sets_a_field_it_spells(built: object, text: str) -> tuple[object, ...] | None:
    """The schema's reading when the requirement sets a field the API's way right below a path
    it spells ("envFrom[].secretRef ... optional: true") and the concept reads no such field: the
    concept took the text by its subject (secrets in the environment); the setting is what the
    text asks."""
    settings = k8s_schema_fields.settings_spelled(_obligations(without_asides(text)))
    if not settings or set(settings) & _strings(built):
        return None
    schema = k8s_schema_fields.read(without_asides(text), text)
    reads = schema and all(
        isinstance(c, FieldValueCheck) and any(p[-1] in settings for p in c.paths) for c in schema
    )
    return schema if reads else None


#: the check kinds that read a field of pods only (a PersistentVolume's hostPath is none of them)
_POD_READINGS = (PodFieldCheck, ContainerFieldCheck, HostPathVolumeCheck)


def _on_the_kind_it_names(built: object, text: str) -> tuple[object, ...] | None:
    """The schema's reading of a field on the object kind the text names, when the concept
    read the same-named field of pods: "ServiceAccount objects must set
    automountServiceAccountToken: false" judges ServiceAccounts, not the pods that use them.
    None when the text names a kind that carries pods (then the pods are meant) or the schema
    reads the field elsewhere."""
    checks = built if isinstance(built, tuple) else (built,)
    if not checks or not all(isinstance(c, _POD_READINGS) for c in checks):
        return None
    kinds = set(k8s_schema_fields.kinds_named(text))
    if not kinds or kinds & {*POD_SPEC_PATHS, "ReplicationController"}:
        return None
    # the field may be named only in an aside ("PersistentVolumes (hostPath or local ...)")
    schema = _schema_reading(text)
    on_kinds = schema and all(
        isinstance(c, FieldValueCheck) and c.level == "object" and set(c.kinds) <= kinds
        for c in schema
    )
    return schema if on_kinds else None


#: the check kinds that bound a field's value (a number, a quantity)
_BOUND_CHECKS = (FieldBoundCheck, ContainerNumberBoundCheck, QuantityBoundCheck)


def _bound_of_a_required_field(built: object, text: str) -> tuple[object, ...] | None:
    """The schema reading's bound on the field a concept only asks to be set: "the limit on
    resources.limits.ephemeral-storage must not exceed 2Gi" caps the value; it does not ask
    for the limit to exist. None when the concept asks more than presence or the text bounds
    no field the concept reads."""
    checks = built if isinstance(built, tuple) else (built,)
    presence_only = all(
        isinstance(c, (ContainerFieldCheck, FieldValueCheck))
        and c.must_be_set
        and not getattr(c, "required", None)
        and not getattr(c, "allowed", ())
        for c in checks
    )
    if not presence_only:
        return None
    for reading in (without_asides(text), text):
        schema = k8s_schema_fields.read(reading, text)
        if (
            schema
            and all(isinstance(c, _BOUND_CHECKS) for c in schema)
            and all(_reads_a_path_of(c, checks) for c in schema)
        ):
            return schema
    return None


def _reads_a_path_of(bound: object, checks: tuple[object, ...]) -> bool:
    """``bound`` reads a field at a path ending as one of ``checks`` spells it."""
    ends = {
        tuple(path)
        for c in checks
        for path in ((c.path,) if isinstance(c, ContainerFieldCheck) else getattr(c, "paths", ()))
    }
    spelled: list[tuple[str, ...]] = [p for _, p in getattr(bound, "fields", ())]
    spelled += list(getattr(bound, "paths", ()))
    return any(path[-len(end) :] == end for path in spelled for end in ends if end)


def _schema_reading(text: str) -> tuple[object, ...] | None:
    """The fields the text names, read from the API schema: the text without its asides first,
    else the whole text (a field may be named only in an aside)."""
    return k8s_schema_fields.read(without_asides(text), text) or k8s_schema_fields.read(text, text)


def _judges_objects(check: object) -> bool:
    """``check`` reads a field of the objects of its kinds themselves, not of their pods."""
    return isinstance(check, (FieldValueCheck, FieldBoundCheck)) and check.level == "object"


def _generic(text: str, platform: str) -> tuple[object, ...] | None:
    """The generic reading, when no concept of the knowledge base fits the text."""
    reader = k8s_generic.read if platform == "kubernetes" else rhel_generic.read
    for reading in (without_asides(text), text):
        found = reader(reading)
        if found and platform == "kubernetes" and _spells_another_field(found, text):
            # "a Service port that pins a node port (`spec.ports[].nodePort`) ... 30500 to
            # 30599": the generic words (node port) took a neighbouring setting (the Service
            # type); the field the text spells, read from the schema, is what it asks of
            schema = _schema_reading(text)
            if schema and not _spells_another_field(schema, text):
                return schema
        if found:
            return found
    if platform == "kubernetes":
        # an object's fields the text forbids exposing through the downward API: the paths it
        # spells are values of a fieldPath, not fields of the object to judge
        exposed = k8s_schema_fields.downward_api(text)
        if exposed:
            return exposed
        # last: any field the text names, read from the API schema (no table of its own)
        found = _schema_reading(text)
        if found:
            return found
        # a count of a list's items ("more than three ports") names no field as the API does,
        # nor do volume sources named in words ("storage directly from NFS servers"), an
        # extended resource ("the example.org/fpga resource"), a choice by its noun ("any
        # scheduler other than X") or a flag of a kind ("must be marked immutable")
        reading = without_asides(text)
        return (
            k8s_schema_fields.list_lengths(reading)
            or k8s_schema_fields.volume_sources(reading)
            or k8s_schema_fields.extended_resources(reading)
            or k8s_schema_fields.named_choice(reading)
            or k8s_value_lists.kind_flag(reading)
        )
    return None


def parse(description: str, platform: str) -> Intent | NotUnderstood:
    """Parse a goal text (or a bare requirement) for ``platform`` (kubernetes | rhel9)."""
    found = _parse(description, platform)
    if isinstance(found, Intent) or platform != "kubernetes":
        return found
    # a text nothing understood may describe a field by what it does ("a hook Kubernetes runs
    # right after the container starts"): read again with the field spelled as the API does
    requirement = extract_requirement(description)
    spelled = k8s_described_fields.spelled_out(requirement)
    if spelled == requirement:
        return found
    again = _parse(spelled, platform)
    return replace(again, requirement=requirement) if isinstance(again, Intent) else found


def _parse(description: str, platform: str) -> Intent | NotUnderstood:
    text = requirement = extract_requirement(description)
    if not text:
        return NotUnderstood("the requirement text is empty", text)
    permitted = k8s_workloads.permitted_only_in(text) if platform == "kubernetes" else None
    if permitted:
        # what the text permits only in labelled namespaces (or in a named namespace and on
        # labelled objects) is read as the prohibition it is everywhere else; the permitted
        # places are set apart by the scope below
        text = permitted.prohibition
    families = RHEL_FAMILIES if platform == "rhel9" else KUBERNETES_FAMILIES
    candidates = _candidates(text, families)
    # a value of a shape stated in words ("a semantic version", "a subdomain of x.example"):
    # the shape is what the text asks of the field it names, whatever concept its words match
    shaped = (
        k8s_value_shapes.read(text) or k8s_value_lists.read(text)
        if platform == "kubernetes"
        else None
    )
    # the best candidate whose values the text gives (a file check needs a mode, a setting a
    # bound): a text that names a file only as where a setting lives is about the setting
    concept, built = (
        (None, shaped)
        if shaped
        else next(
            ((c, b) for c in candidates for b in [c.build(text)] if b is not None), (None, None)
        )
    )
    # (a shaped reading counts as generic: no concept's own scope or re-reading applies to it)
    generic = built is None or shaped is not None
    if not generic and platform == "kubernetes" and _spells_another_field(built, text):
        # the requirement spells a field of the API the concept's checks never look at: the
        # concept took the text by its words; the field the text spells is what it is about
        schema = _generic(text, platform)
        if schema:
            concept, built, generic = None, schema, True
    if not generic and platform == "kubernetes":
        on_kind = _on_the_kind_it_names(built, text) or _sets_a_field_it_spells(built, text)
        if on_kind:
            concept, built, generic = None, on_kind, True
    bound = (
        _bound_of_a_required_field(built, text)
        if not generic and platform == "kubernetes"
        else None
    )
    if bound:
        # the field's bound, read from the schema, is what the text asks of the concept's field
        concept, built, generic = None, bound, True
    elif generic and not shaped:
        built = _generic(text, platform)
    if built is None and not candidates:
        return NotUnderstood(f"no known {platform} control is named in the requirement", text)
    if built is None:
        name = candidates[0].name
        return NotUnderstood(f"recognised {name} but could not read its values", text)
    checks = built if isinstance(built, tuple) else (built,)
    apart = k8s_generic.bindings_set_apart(text) if platform == "kubernetes" else ()
    if apart:
        # the bindings an exemption names, often in an aside the reading left out
        checks = tuple(
            replace(c, exempt_names=apart) if isinstance(c, BindingCheck) else c for c in checks
        )
    if _EVERY_VALUE.search(text):
        checks = tuple(
            replace(c, every_value=True) if isinstance(c, ConfigSetting) else c for c in checks
        )
    stated = unset_stated(text)
    if stated is not None:
        # what the text says of a missing setting overrides the platform's default
        checks = tuple(
            replace(c, unset_complies=stated) if isinstance(c, ConfigSetting) else c for c in checks
        )
    scope = scope_of(text) if platform == "kubernetes" else Scope()
    by_effect = concept in k8s_effects.CONCEPTS
    if (generic or by_effect) and platform == "kubernetes":
        scope = generic_scope(text, scope)
    if by_effect or (
        platform == "kubernetes" and any(isinstance(c, RbacRuleCheck) for c in checks)
    ):
        scope = k8s_effects.scope_for(text, scope)
    if concept in k8s_cluster_objects.CONCEPTS:
        scope = k8s_cluster_objects.scope_for(text, scope)
    if platform == "kubernetes":
        # "in namespaces labelled tier=prod" limits any check, whatever its kind; labels in a
        # clause that exempts ("pods labelled break-glass=true are exempt") set objects apart
        scope = replace(
            scope,
            namespace_labels=namespace_labels(text),
            pod_labels=pod_labels(text),
            # a check of the default namespace names its one namespace itself
            only_namespaces=()
            if any(isinstance(c, DefaultNamespaceCheck) for c in checks)
            else only_namespaces(text),
        )
    if not any(isinstance(c, (RbacRuleCheck, BindingCheck)) for c in checks):
        scope = Scope(
            exempt_namespaces=scope.exempt_namespaces,
            # "temporary debug containers are exempt", whatever reading took the text
            container_lists=lists_in_scope(text, scope.container_lists)
            if platform == "kubernetes"
            else scope.container_lists,
            namespace_labels=scope.namespace_labels,
            pod_labels=scope.pod_labels,
            only_namespaces=scope.only_namespaces,
        )
    elif not any(isinstance(c, RbacRuleCheck) for c in checks):
        # a role a binding requirement names is the role bound, not a holder to exempt
        scope = replace(scope, exempt_role_names=())
        if any(isinstance(c, BindingCheck) and c.exempt_names for c in checks):
            # the text names the built-in bindings it sets apart: those, not every system: name
            scope = replace(scope, exempt_builtin_rbac=False)
    if platform == "kubernetes" and (exempt_namespace_labels(text) or exempt_pod_labels(text)):
        scope = replace(
            scope,
            permitting_namespace_labels=exempt_namespace_labels(text),
            exempt_pod_labels=exempt_pod_labels(text),
        )
    if permitted:
        scope = replace(
            scope,
            permitting_namespace_labels=permitted.labels,
            permitting_object_labels=permitted.object_labels,
            exempt_namespaces=tuple(
                dict.fromkeys((*scope.exempt_namespaces, *permitted.namespaces))
            ),
        )
    if platform == "kubernetes" and all(_judges_objects(c) for c in checks):
        # "autoscalers labelled team=payments": the objects judged, by their own labels (a label
        # a check reads is what the text asks of the objects, not who is judged)
        own = tuple(p for p in object_labels(text) if p[0] not in _strings(checks))
        exempt = tuple(p for p in exempt_object_labels(text) if p[0] not in _strings(checks))
        scope = replace(
            scope,
            object_labels=own,
            permitting_object_labels=tuple(
                dict.fromkeys((*scope.permitting_object_labels, *exempt))
            ),
        )
    return Intent(platform=platform, checks=checks, scope=scope, requirement=requirement)  # type: ignore[arg-type]  # platform is "kubernetes" or "rhel9" (the callers pass one of the two); Intent types it as that Literal
