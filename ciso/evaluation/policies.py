"""The Kyverno policies an agent produced: every ``*.yaml``/``*.yml`` document of kind
ClusterPolicy/Policy in its workspace, then whatever it applied to the cluster (what was deployed
last wins for one name)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ciso.environments import read_applied
from ciso.environments.kubernetes import is_policy
from ciso.evaluation.answer import NOT_ANSWERS, yaml_files
from itbench.fsutil import agent_files, read_agent_text
from itbench.yamlsafe import load_all


@dataclass(frozen=True)
class AgentPolicies:
    policies: tuple[dict[str, Any], ...]
    #: Where each policy came from ("file.yaml", "cluster").
    origins: tuple[str, ...]
    #: Files that did not parse, with the parser's message.
    unreadable: tuple[str, ...] = ()
    #: Kinds of the other documents found (to explain "no policy").
    other_kinds: tuple[str, ...] = field(default_factory=tuple)

    def describe_absence(self) -> str:
        parts = [
            "no Kyverno ClusterPolicy/Policy in the workspace's YAML files or applied to the cluster"
        ]
        if self.other_kinds:
            parts.append(f"documents found: {', '.join(sorted(set(self.other_kinds)))}")
        if self.unreadable:
            parts.append("unreadable: " + "; ".join(self.unreadable))
        return "; ".join(parts)


def policy_key(policy: dict[str, Any]) -> tuple[str, str, str]:
    meta = policy.get("metadata") or {}
    return (str(policy.get("kind")), str(meta.get("namespace") or ""), str(meta.get("name") or ""))


def agent_policies(trial_dir: Path) -> AgentPolicies:
    found: dict[tuple[str, str, str], tuple[dict[str, Any], str]] = {}
    unreadable: list[str] = []
    other: list[str] = []
    for path in yaml_files(trial_dir):
        rel = str(path.relative_to(trial_dir))
        try:
            documents = load_all(read_agent_text(path))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            unreadable.append(
                f"{rel}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
            )
            continue
        for doc in documents:
            if not isinstance(doc, dict):
                continue
            if is_policy(doc) and isinstance(doc.get("metadata"), dict):
                found[policy_key(doc)] = (doc, rel)
            elif doc.get("kind"):
                other.append(f"{doc.get('kind')} ({rel})")
    _, not_read = agent_files(trial_dir, skip=NOT_ANSWERS)
    unreadable += [r for r in not_read if r.partition(" is ")[0].endswith((".yaml", ".yml"))]
    for obj in read_applied(trial_dir)["applied"]:
        if isinstance(obj, dict) and is_policy(obj):
            found[policy_key(obj)] = (obj, "cluster")
    return AgentPolicies(
        tuple(p for p, _ in found.values()),
        tuple(o for _, o in found.values()),
        tuple(unreadable),
        tuple(other),
    )
