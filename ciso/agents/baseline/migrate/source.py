"""Read ``source-policy.yaml`` and write its translation into the other Kyverno dialect."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ciso.agents.baseline.migrate.from_rego import from_gatekeeper, from_rego
from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable
from ciso.agents.baseline.migrate.to_cel import to_validating_policies
from ciso.agents.baseline.migrate.to_classic import to_cluster_policy
from ciso.agents.baseline.render import to_yaml
from ciso.scenarios.dialects import (
    CLUSTER_POLICY,
    GATEKEEPER,
    REGO_SOURCE_FILE,
    SOURCE_FILE,
    VALIDATING_POLICY,
    dialect_of,
)
from itbench.yamlsafe import load_all

ANSWER_FILE = "kyverno-policy.yaml"


@dataclass(frozen=True)
class Migration:
    source_dialect: str
    target_dialect: str
    policies: tuple[str, ...]
    text: str


def translate_documents(
    documents: list[dict[str, Any]], target: str = CLUSTER_POLICY.name
) -> tuple[str, str, list[dict[str, Any]]]:
    """(source dialect, target dialect, translated policies) of the source's documents;
    ``target``: the dialect a Gatekeeper source migrates to (a Kyverno source has one)."""
    documents = [d for d in documents if isinstance(d, dict)]
    if not documents:
        raise NotTranslatable(f"{SOURCE_FILE} holds no policy")
    dialects = {getattr(dialect_of(d), "name", None) for d in documents}
    if dialects == {CLUSTER_POLICY.name}:
        out = [p for d in documents for p in to_validating_policies(d)]
        return CLUSTER_POLICY.name, VALIDATING_POLICY.name, out
    if dialects == {VALIDATING_POLICY.name}:
        return (
            VALIDATING_POLICY.name,
            CLUSTER_POLICY.name,
            [to_cluster_policy(d) for d in documents],
        )
    if dialects == {GATEKEEPER.name}:
        return GATEKEEPER.name, target, from_gatekeeper(Path(SOURCE_FILE), documents, target)
    raise NotTranslatable(f"{SOURCE_FILE}: documents of no single Kyverno dialect ({dialects})")


def target_asked(task_text: str) -> str:
    """The dialect the task asks for a Gatekeeper or Rego source: a ValidatingPolicy when the
    text asks to migrate to one, else a ClusterPolicy (the class's default)."""
    if _ASKS_VALIDATING.search(task_text or ""):
        return VALIDATING_POLICY.name
    return CLUSTER_POLICY.name


_ASKS_VALIDATING = re.compile(r"\bto\s+(?:a\s+)?(?:Kyverno\s+)?ValidatingPolicy\b", re.I)


def migrate(workspace: Path, task_text: str = "", wanted: object = None) -> Migration:
    """Translate the workspace's source policy and save the answer beside it; ``wanted``: the
    scenario's stated ``migrate_to``, else the task text says the dialect."""
    source = workspace / SOURCE_FILE
    rego = workspace / REGO_SOURCE_FILE
    names = (CLUSTER_POLICY.name, VALIDATING_POLICY.name)
    target = str(wanted) if wanted in names else target_asked(task_text)
    if rego.is_file() and not source.is_file():
        text = rego.read_text(encoding="utf-8")
        policies = from_rego(Path(REGO_SOURCE_FILE), text, target)
        return _save(workspace, "rego", target, policies, REGO_SOURCE_FILE)
    if not source.is_file():
        raise NotTranslatable(f"{SOURCE_FILE} is not in the workspace")
    documents = list(load_all(source.read_text(encoding="utf-8")))
    source_name, target_name, policies = translate_documents(documents, target)
    return _save(workspace, source_name, target_name, policies, SOURCE_FILE)


def _save(
    workspace: Path, source_name: str, target_name: str, policies: list[dict[str, Any]], file: str
) -> Migration:
    header = (
        f"# {target_name} translated by the baseline from {file} ({source_name}),\n"
        "# construct by construct: match, exclusions, then every validate rule.\n"
    )
    text = header + "\n---\n".join(to_yaml(p) for p in policies) + "\n"
    (workspace / ANSWER_FILE).write_text(text, encoding="utf-8")
    names = tuple(str(p["metadata"]["name"]) for p in policies)
    return Migration(source_name, target_name, names, text)
