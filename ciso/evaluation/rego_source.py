"""A Rego policy of this repository's kubectl-opa convention (``policies/rego/<id>/policy.rego``:
``data.check.result`` is ``false`` when the collected objects violate the control) read as a
per-resource verdict, the way the kubectl-opa class judges a leave-one-in environment: each
object the cluster serves is the policy's whole input, and it fails when ``data.check.result``
is exactly ``false``. Not yet offered as a ``kyverno-migrate`` source (see docs/ciso-migrate.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ciso.environments.kubernetes import cluster_view
from ciso.scenarios.model import ResourceRef

QUERY = "data.check.result"


def violations(policy: str, objects: Sequence[dict[str, Any]]) -> set[ResourceRef]:
    """The served objects for which ``data.check.result`` is ``false`` (undefined or ``true``
    pass, as the kubectl-opa class's ``exactly false`` rule reads it)."""
    from ciso.engines.rego import select_engine

    engine = select_engine()
    modules = {"policy.rego": policy}
    failed: set[ResourceRef] = set()
    for obj in cluster_view(objects):
        meta = obj.get("metadata") or {}
        if engine.evaluate(modules, QUERY, obj).value is False:
            failed.add(
                ResourceRef(
                    str(obj.get("kind")), str(meta.get("namespace") or ""), str(meta.get("name"))
                )
            )
    return failed
