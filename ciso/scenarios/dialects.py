"""Kyverno policy dialects a ``kyverno-migrate`` scenario converts between: a policy of one
dialect in, the same control in the other out. ``cluster-policy`` is Kyverno's classic
``ClusterPolicy``/``Policy`` (``kyverno.io``), ``validating-policy`` its CEL generation
(``ValidatingPolicy``/``NamespacedValidatingPolicy``, ``policies.kyverno.io``). ``gatekeeper`` is a
source only: a Gatekeeper ``ConstraintTemplate`` with its constraints (whose kinds the template
names, hence any kind of ``constraints.gatekeeper.sh``), migrated to a ClusterPolicy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from itbench.errors import InputError


@dataclass(frozen=True)
class Dialect:
    name: str
    #: API group prefix of its apiVersion
    group: str
    kinds: tuple[str, ...]
    #: API groups whose objects of any kind belong with the policy (Gatekeeper's constraints)
    companions: tuple[str, ...] = ()

    def holds(self, obj: Mapping[str, Any]) -> bool:
        api = str(obj.get("apiVersion", ""))
        return (api.startswith(self.group) and obj.get("kind") in self.kinds) or api.startswith(
            self.companions or ("\0",)
        )


CLUSTER_POLICY = Dialect("cluster-policy", "kyverno.io/", ("ClusterPolicy", "Policy"))
VALIDATING_POLICY = Dialect(
    "validating-policy", "policies.kyverno.io/", ("ValidatingPolicy", "NamespacedValidatingPolicy")
)
GATEKEEPER = Dialect(
    "gatekeeper",
    "templates.gatekeeper.sh/",
    ("ConstraintTemplate",),
    companions=("constraints.gatekeeper.sh/",),
)
DIALECTS = (CLUSTER_POLICY, VALIDATING_POLICY, GATEKEEPER)
#: Where each dialect migrates to.
TARGET = {
    CLUSTER_POLICY.name: VALIDATING_POLICY,
    VALIDATING_POLICY.name: CLUSTER_POLICY,
    GATEKEEPER.name: CLUSTER_POLICY,
}
#: The file of a scenario (and of the agent's workspace) holding the policy to migrate.
SOURCE_FILE = "source-policy.yaml"


def dialect_of(obj: Mapping[str, Any]) -> Dialect | None:
    return next((d for d in DIALECTS if d.holds(obj)), None)


def source_dialect(path: Path, objects: Sequence[Mapping[str, Any]]) -> Dialect:
    """The one dialect of a migration's source policies; an InputError naming the file and the
    object otherwise."""
    if not objects:
        raise InputError(f"{path}: no policy to migrate (expected a {' or '.join(TARGET)})")
    found: set[str] = set()
    for index, obj in enumerate(objects):
        dialect = dialect_of(obj)
        if dialect is None:
            name = (obj.get("metadata") or {}).get("name", "?")
            known = ", ".join(k for d in DIALECTS for k in d.kinds)
            raise InputError(
                f"{path}: document {index + 1} ({obj.get('kind')}/{name}): not a policy of a "
                f"dialect kyverno-migrate converts ({known})"
            )
        found.add(dialect.name)
    if len(found) > 1:
        raise InputError(
            f"{path}: policies of several dialects ({', '.join(sorted(found))}); "
            "a migration starts from one"
        )
    return next(d for d in DIALECTS if d.name in found)
