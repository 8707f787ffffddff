"""Policy dialects a ``kyverno-migrate`` scenario converts between: a policy of one dialect in,
the same control in a Kyverno dialect out. ``cluster-policy`` is Kyverno's classic
``ClusterPolicy``/``Policy`` (``kyverno.io``), ``validating-policy`` its CEL generation
(``ValidatingPolicy``/``NamespacedValidatingPolicy``, ``policies.kyverno.io``). ``gatekeeper`` and
``rego`` are sources only: a Gatekeeper ``ConstraintTemplate`` with its constraints (whose kinds
the template names, hence any kind of ``constraints.gatekeeper.sh``), or a Rego policy of the
kubectl-opa convention (``package check``, ``data.check.result``) in ``source-policy.rego``;
each is migrated to a ClusterPolicy, or to a ValidatingPolicy when the scenario asks for it."""

from __future__ import annotations

import re
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
#: A Rego file, not YAML objects: it holds no object (see :data:`REGO_SOURCE_FILE`)
REGO = Dialect("rego", "\0", ())
#: The dialects of YAML objects
DIALECTS = (CLUSTER_POLICY, VALIDATING_POLICY, GATEKEEPER)
BY_NAME = {d.name: d for d in (*DIALECTS, REGO)}
#: Where each dialect may migrate to, the default first (``migrate_to`` picks another).
TARGETS = {
    CLUSTER_POLICY.name: (VALIDATING_POLICY,),
    VALIDATING_POLICY.name: (CLUSTER_POLICY,),
    GATEKEEPER.name: (CLUSTER_POLICY, VALIDATING_POLICY),
    REGO.name: (CLUSTER_POLICY, VALIDATING_POLICY),
}
#: Where each dialect migrates to by default.
TARGET = {name: targets[0] for name, targets in TARGETS.items()}
#: The file of a scenario (and of the agent's workspace) holding the policy to migrate.
SOURCE_FILE = "source-policy.yaml"
#: ... or, for a Rego source, this one.
REGO_SOURCE_FILE = "source-policy.rego"
SOURCE_FILES = (SOURCE_FILE, REGO_SOURCE_FILE)


#: Where a Rego source's verdict is read (the kubectl-opa convention): its package is ``check``.
REGO_QUERY = "data.check.result"
_PACKAGE = re.compile(r"^\s*package\s+([A-Za-z_][\w.]*)", re.MULTILINE)


def check_rego_source(path: Path, policy: str) -> None:
    """An InputError naming the file when it is not a policy of the kubectl-opa convention (its
    package must be ``check``: the verdict is read at ``data.check.result``)."""
    found = _PACKAGE.search(policy)
    if found is None:
        raise InputError(f"{path}: no package line (a Rego policy of package check)")
    if found.group(1) != "check":
        raise InputError(
            f"{path}: package {found.group(1)}: the verdict is read at {REGO_QUERY}, so the "
            "package must be check"
        )


def source_file_name(path: Path) -> str:
    """The name the source is given in the agent's workspace (its dialect shows in it)."""
    return REGO_SOURCE_FILE if path.suffix == ".rego" else SOURCE_FILE


def target_of(source: Dialect, wanted: str | None, where: str) -> Dialect:
    """The answer's dialect: ``wanted`` (a ``migrate_to`` value) if the source may migrate to it,
    else the source's default; an InputError naming ``where`` otherwise."""
    allowed = TARGETS[source.name]
    if wanted is None:
        return allowed[0]
    found = next((d for d in allowed if d.name == wanted), None)
    if found is None:
        raise InputError(
            f"{where}: migrate_to: a {source.name} source migrates to "
            + " or ".join(d.name for d in allowed)
            + f", not {wanted!r}"
        )
    return found


def dialect_of(obj: Mapping[str, Any]) -> Dialect | None:
    return next((d for d in DIALECTS if d.holds(obj)), None)


def source_dialect(path: Path, objects: Sequence[Mapping[str, Any]]) -> Dialect:
    """The one dialect of a migration's source policies; an InputError naming the file and the
    object otherwise."""
    if not objects:
        raise InputError(
            f"{path}: no policy to migrate (expected a {' or '.join(d.name for d in DIALECTS)})"
        )
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
