"""A Rego policy of this repository's kubectl-opa convention (``policies/rego/<id>/policy.rego``:
``data.check.result`` is ``false`` when the collected objects violate the control) read as a
per-resource verdict, the way the kubectl-opa class judges a leave-one-in environment: each
object the cluster serves is the policy's whole input, and it fails when ``data.check.result``
is exactly ``false``. A ``kyverno-migrate`` scenario takes such a file as its source
(``source-policy.rego``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ciso.environments.kubernetes import cluster_view
from ciso.scenarios.dialects import REGO_QUERY
from ciso.scenarios.model import ResourceRef
from itbench.errors import InputError

QUERY = REGO_QUERY


#: Every object judged in one evaluation: the indices of the objects the policy, given each as
#: its whole input, finds exactly false
_PER_OBJECT = """package itbench_per_object

import rego.v1

failed contains i if {
	some i, obj in input.objects
	data.check.result == false with input as obj
}
"""


def violations(
    policy: str, objects: Sequence[dict[str, Any]], path: Path = Path("policy.rego")
) -> set[ResourceRef]:
    """The served objects for which ``data.check.result`` is ``false`` (undefined or ``true``
    pass, as the kubectl-opa class's ``exactly false`` rule reads it); a policy that does not
    compile or evaluate is an InputError naming ``path``."""
    from ciso.engines.rego import RegoError
    from ciso.evaluation.rego import evaluate_source

    served = cluster_view(objects)
    modules = {path.name: policy, "itbench-per-object.rego": _PER_OBJECT}
    try:
        result = evaluate_source(modules, "data.itbench_per_object.failed", {"objects": served})
    except RegoError as exc:
        raise InputError(f"{path}: {exc}") from None
    failed: set[ResourceRef] = set()
    for index in result.value if result.defined else []:
        meta = served[int(index)].get("metadata") or {}
        kind = str(served[int(index)].get("kind"))
        failed.add(ResourceRef(kind, str(meta.get("namespace") or ""), str(meta.get("name"))))
    return failed
