"""What the baseline knows, one module per subject family: the phrasings that name a concept,
its field paths, the safe and unsafe values and the platform's semantics.

Each module exposes ``CONCEPTS``: an ordered tuple of :class:`Concept`; the parser tries the
families in order and, within one, the concepts in order (most specific first).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def words(*patterns: str) -> tuple[re.Pattern[str], ...]:
    """Case-insensitive regular expressions over the normalised requirement text."""
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


@dataclass(frozen=True)
class Concept:
    """A control the baseline can render. It matches when one pattern of every group in
    ``all_of`` occurs, and none of ``none_of``; ``build`` turns the text into the check."""

    name: str
    all_of: tuple[tuple[re.Pattern[str], ...], ...]
    build: Callable[[str], Any]
    none_of: tuple[re.Pattern[str], ...] = ()
    #: an extra test the patterns cannot express (how many fields a text lists)
    accepts: Callable[[str], bool] | None = None

    def matches(self, text: str) -> bool:
        if any(p.search(text) for p in self.none_of):
            return False
        if self.accepts is not None and not self.accepts(text):
            return False
        return all(any(p.search(text) for p in group) for group in self.all_of)


#: a digest named as one way of satisfying an image requirement, not as the requirement: "a
#: digest reference is fine", "a version tag or a digest", "pinned by digest or by tag"
DIGEST_AS_ALTERNATIVE = words(
    r"\bdigests?\s+or\s+(by\s+)?(a\s+)?(\w+\s+)?tag",
    r"\btag\w*\s+or\s+(by\s+|with\s+)?(a\s+)?digests?\b",
)
#: "a digest reference is fine": the digest is the subject of the acceptance (in "a tag beside
#: the digest is acceptable" the tag is, and the digest stays required)
_DIGEST_ACCEPTED = re.compile(
    r"\bdigests?\b(\s+\w+){0,3}\s+(is|are)\s+(also\s+)?(fine|acceptable|allowed|permitted|ok)\b",
    re.I,
)


def digest_is_an_alternative(text: str) -> bool:
    for p in DIGEST_AS_ALTERNATIVE:
        if any(not denied_alternative(text, m) for m in p.finditer(text)):
            return True
    for m in _DIGEST_ACCEPTED.finditer(text):
        clause = re.split(r"[.;:,]\s", text[: m.start()])[-1]
        if not re.search(r"\btag", clause, re.I):
            return True
    return False


#: what a sentence says of a way of meeting a control when it does NOT meet it: "does not
#: satisfy this", "is not enough (on its own)", "alone does not count", "not by itself"
_DENIES = re.compile(
    r"\b(?:does|do|will|would|is|are)\s*(?:not|n't)\s+(?:\w+\s+){0,2}?"
    r"(?:satisf\w*|suffic\w*|suffice|enough|count|qualif\w*|meet|make\s+it|replace|substitute)\b"
    r"|\b(?:not|never|no\s+longer)\s+(?:by\s+itself|on\s+its\s+own|alone)\b"
    r"|\b(?:insufficient|not\s+sufficient|not\s+enough|falls?\s+short)\b"
    r"|\b(?:alone|by\s+itself|on\s+its\s+own)\s+(?:is|are|does|do)\s*(?:not|n't)\b",
    re.I,
)


#: a turn in a sentence: what follows it is said of something else
_CONTRAST = re.compile(r",?\s*\b(?:but|while|whereas|though|although|however)\b", re.I)


def denied_alternative(text: str, match: re.Match[str]) -> bool:
    """The sentence holding ``match`` (a way of meeting a control the text names: a non-zero
    runAsUser, a digest) says it does not meet it ("a non-zero runAsUser without runAsNonRoot
    does not satisfy this", "a digest alone is not enough"): a negation, not an alternative."""
    start = max(text.rfind(". ", 0, match.start()), text.rfind("; ", 0, match.start())) + 1
    ends = [i for i in (text.find(". ", match.end()), text.find("; ", match.end())) if i >= 0]
    end = min(ends) if ends else len(text)
    # the part of the sentence the match is in: "a non-zero runAsUser counts, but an unset one
    # does not count" denies the unset one only
    cuts = [start, *(m.end() for m in _CONTRAST.finditer(text, start, end)), end]
    segment = next(
        text[a:b] for a, b in zip(cuts, cuts[1:], strict=False) if a <= match.start() < b
    )
    return bool(_DENIES.search(segment))


#: Phrasings that set something apart from a rule: "kube-system is exempt", "except", "out of
#: scope", "leave ... alone", "does not apply to", "are not findings"
EXEMPT_WORDS = re.compile(
    r"\b(exempt\w*|exclud\w*|except|excepting|((only|sole|one)\s+)?exceptions?\s+(is|are)|"
    # a heading: "Exceptions: kube-system", "Allowed exceptions: ..."
    r"exceptions?(?=\s*:)|"
    r"other\s+than|apart\s+from|besides|ignored?|"
    r"skip\w*|not\s+(judged|checked|covered|in\s+scope|our\s+concern)|out\s+of\s+(the\s+)?scope|"
    r"outside\s+(the\s+)?scope|leave\b.{0,120}\balone|left\s+alone|untouched|spared?|"
    r"(does|do)\s*(not|n't)\s+apply|no\s+need\s+to|(is|are)\s+not\s+(a\s+)?findings?|"
    # "anything outside kube-system": the namespaces named after it are out of scope
    r"outside\s+(of\s+)?(the\s+)?(?=kube-|system\s+namespaces|namespaces?\s))\b",
    re.I,
)


#: an exemption's heading, to its colon ("Exempt:", "Out of scope:", "Not in scope:", "Allowed
#: exceptions:", "Excluded namespaces:"): what follows it to the end of its sentence is exempt
EXEMPT_HEADING = re.compile(
    r"(?:\w+\s+){0,2}?(?:exempt\w*|exclu\w*|exceptions?|out\s+of\s+scope|"
    r"not\s+(?:judged|in\s+scope))(?:\s+namespaces?)?\s*:",
    re.I,
)
_HEADING = re.compile(rf"^\W*{EXEMPT_HEADING.pattern}$", re.I)


def _headed(clauses: list[str]) -> list[str]:
    """``clauses`` with an exemption heading joined to the rest of its sentence ("Exempt:
    pods labelled tier=infra, kube-system."): what it lists is exempt too."""
    joined: list[str] = []
    open_heading = False
    for clause in clauses:
        if open_heading:
            joined[-1] += " " + clause
        else:
            joined.append(clause)
        if _HEADING.match(clause):
            open_heading = True
        elif re.search(r"[.;!?]$", clause):
            open_heading = False
    return joined


def exempting_clauses(text: str) -> tuple[str, str]:
    """The text split into the clauses that exempt ("namespaces labelled sandbox=true are out
    of scope", "except pods labelled x=y") and the others, each joined back; a clause ends at
    a comma, semicolon, colon or the end of a sentence."""
    clauses = _headed(re.split(r"(?<=[.;:!?,])\s+", text))
    # an aside's exemption ("in namespaces labelled env=prod (kube-system excluded)") is not
    # said of the clause around it
    exempts = [bool(EXEMPT_WORDS.search(re.sub(r"\([^()]*\)", " ", c))) for c in clauses]
    return (
        " ".join(c for c, e in zip(clauses, exempts, strict=True) if e),
        " ".join(c for c, e in zip(clauses, exempts, strict=True) if not e),
    )


#: Phrasings that forbid something ("must not", "no container may", "disallow", "flag ... that").
NEGATION = words(
    r"\b(must|may|should|can|shall)\s+not\b",
    r"\b(mustn't|shouldn't|can't|cannot|never|forbid\w*|disallow\w*|prohibit\w*|block\w*)\b",
    r"\bno\s+(\w+\s+){0,3}(may|can|should|is|gets?)\b",
    r"\bflag\b",
    r"\bdisabled?\b",
    # "nothing in RBAC may grant", "nobody may": the subject is the negation
    r"\b(nothing|nobody|no\s*one|none)\b(\s+[\w:'-]+){0,4}?\s+(may|can|should|must|shall)\b",
    r"\bnot\s+(be\s+)?(allowed|permitted)\b",
)


def negated(text: str) -> bool:
    return any(p.search(text) for p in NEGATION)


#: a modal verb: the words after a colon that hold one state the rule itself
_MODAL = re.compile(r"\b(?:must|may|shall|should|can|has\s+to|have\s+to|needs?\s+to)\b", re.I)


#: a prohibition stated after the value it forbids ("X set to Local is not tolerated")
_FORBIDDEN_AFTER = re.compile(
    r"[^.;:]*?\b(?:is|are)\s+(?:not\s+(?:allowed|permitted|tolerated|accepted)|forbidden|"
    r"prohibited|disallowed)\b",
    re.I,
)


def forbidden_after(rest: str) -> bool:
    """The words after a value (``rest``, to the end of its clause) forbid it."""
    return bool(_FORBIDDEN_AFTER.match(rest))


#: a connective that starts a clause of its own ("..., so its partition has to be 0")
_CONSEQUENCE = re.compile(r",\s+(?:and\s+)?(?:so|thus|therefore|hence|which\s+means)\s+", re.I)


def rule_clause(head: str) -> str:
    """The part of ``head`` (the words before a field) that governs the field: a statement of
    the effect before a colon ("crash-looping pods must never block a drain: every budget has
    to state ...") is the reason for the rule, not its polarity, once the words after the
    colon carry a verb of their own; so is a clause before "so" or "therefore"."""
    head = _CONSEQUENCE.split(head)[-1]
    _, colon, rule = head.rpartition(": ")
    return rule if colon and _MODAL.search(rule) else head


#: A sentence about another control ("X11Forwarding yes violates another control", "the number of
#: failures is a separate recommendation", "not judged here"): not what the requirement is about.
OTHER_CONTROL = re.compile(
    r"\b(another|other|separate|different)\s+(control|requirement|check|rule|recommendation)s?\b|"
    r"\b(covered|audited|checked|assessed|handled|judged)\s+(elsewhere|separately)\b|"
    r"\bnot\s+(part\s+of|the\s+subject\s+of)\s+this\b|"
    r"\b(is|are)\s+not\s+this\s+(control|requirement|check|rule|recommendation|standard)\b|"
    r"\b(is|are)\s+out\s+of\s+scope\b|\bnot\s+(judged|checked|a\s+finding)\s+here\b|"
    r"\bjudged\s+by\s+(CIS\s+)?\d[\d.]*|\bnot\s+judged\b",
    re.I,
)
