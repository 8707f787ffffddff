"""Requirement text -> :class:`Intent` or :class:`NotUnderstood`.

The parser works from the words only: it never sees scenario ids, CIS numbers or file names of
the benchmark. It extracts the requirement from the goal text, matches it against the knowledge
base (families in order, most specific concept first) and reads the scope (exempt namespaces,
built-in RBAC objects) from the same text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ciso.agents.baseline.intent import (
    SYSTEM_NAMESPACES,
    BindingCheck,
    Intent,
    NotUnderstood,
    RbacRuleCheck,
    Scope,
)
from ciso.agents.baseline.knowledge import (
    Concept,
    k8s_namespaces,
    k8s_pod,
    k8s_rbac,
    rhel_config,
    rhel_files,
)

KUBERNETES_FAMILIES: tuple[tuple[Concept, ...], ...] = (
    k8s_namespaces.CONCEPTS,
    k8s_rbac.CONCEPTS,
    k8s_pod.CONCEPTS,
)
RHEL_FAMILIES: tuple[tuple[Concept, ...], ...] = (rhel_files.CONCEPTS, rhel_config.CONCEPTS)

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


_EXEMPT_WORDS = re.compile(
    r"\b(exempt\w*|excluded?|except|excepting|other\s+than|apart\s+from|besides|ignored?|"
    r"skip\w*|not\s+(judged|checked|covered))\b",
    re.I,
)
_NAMESPACE_NAME = re.compile(r"\b(kube-system|kube-public|kube-node-lease)\b")


def scope_of(text: str) -> Scope:
    """Exempt namespaces and built-in RBAC objects, read from the exemption wording."""
    if not _EXEMPT_WORDS.search(text):
        return Scope()
    namespaces = list(dict.fromkeys(_NAMESPACE_NAME.findall(text)))
    if re.search(r"\b(system|kubernetes('s)?\s+own|control[- ]plane)\s+namespaces\b", text, re.I):
        namespaces.extend(ns for ns in SYSTEM_NAMESPACES if ns not in namespaces)
    builtin = bool(
        re.search(
            r"\bbuilt-?in\b|\bsystem:|rbac-defaults|bootstrapp|\bkubernetes\s+ships\b|"
            r"\bship(s|ped)?\s+with\s+kubernetes\b|\bcome\s+with\s+kubernetes\b",
            text,
            re.I,
        )
    )
    return Scope(exempt_namespaces=tuple(namespaces), exempt_builtin_rbac=builtin)


def _first_concept(text: str, families: tuple[tuple[Concept, ...], ...]) -> Concept | None:
    for family in families:
        for concept in family:
            if concept.matches(text):
                return concept
    return None


def parse(description: str, platform: str) -> Intent | NotUnderstood:
    """Parse a goal text (or a bare requirement) for ``platform`` (kubernetes | rhel9)."""
    text = extract_requirement(description)
    if not text:
        return NotUnderstood("the requirement text is empty", text)
    families = RHEL_FAMILIES if platform == "rhel9" else KUBERNETES_FAMILIES
    concept = _first_concept(text, families)
    if concept is None:
        return NotUnderstood(f"no known {platform} control is named in the requirement", text)
    built = concept.build(text)
    if built is None:
        return NotUnderstood(f"recognised {concept.name} but could not read its values", text)
    checks = built if isinstance(built, tuple) else (built,)
    scope = scope_of(text) if platform == "kubernetes" else Scope()
    if not any(isinstance(c, (RbacRuleCheck, BindingCheck)) for c in checks):
        scope = Scope(exempt_namespaces=scope.exempt_namespaces)
    return Intent(platform=platform, checks=checks, scope=scope, requirement=text)  # type: ignore[arg-type]  # platform is "kubernetes" or "rhel9" (the callers pass one of the two); Intent types it as that Literal
