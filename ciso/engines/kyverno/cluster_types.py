"""What the offline cluster serves for Kyverno: its policy kinds and the Policy Report kinds, the
columns ``kubectl get`` prints for them, schema validation of policies, and the background scan
that turns policies into reports.

The ``ciso`` plugin hands :func:`cluster_extension` to core (``Domain.cluster_extension``); core
itself knows none of these kinds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from itbench.cluster.extensions import (
    AdmissionDecision,
    AdmissionRequest,
    ClusterExtension,
    Column,
    ResourceType,
    Validator,
)
from itbench.cluster.tables import AGE, NAME

POLICY_GROUP = "kyverno.io"
REPORT_GROUP = "wgpolicyk8s.io"

CLUSTER_POLICY = ResourceType(
    POLICY_GROUP,
    "v1",
    "ClusterPolicy",
    "clusterpolicies",
    namespaced=False,
    short_names=("cpol",),
    categories=("kyverno",),
    # Kyverno serves its policies in both versions; the objects are the same.
    also_versions=("v2beta1",),
)
POLICY = ResourceType(
    POLICY_GROUP,
    "v1",
    "Policy",
    "policies",
    namespaced=True,
    short_names=("pol",),
    categories=("kyverno",),
    also_versions=("v2beta1",),
)
POLICY_REPORT = ResourceType(
    REPORT_GROUP, "v1alpha2", "PolicyReport", "policyreports", True, ("polr",)
)
CLUSTER_POLICY_REPORT = ResourceType(
    REPORT_GROUP, "v1alpha2", "ClusterPolicyReport", "clusterpolicyreports", False, ("cpolr",)
)


def _spec(obj: dict[str, Any]) -> dict[str, Any]:
    return obj.get("spec") or {}


def _summary(field: str) -> Column:
    return Column(field.capitalize(), "integer", lambda o: (o.get("summary") or {}).get(field, 0))


def _policy_columns() -> tuple[Column, ...]:
    # As Kyverno's CRD printer columns in the versions ITBench's scenarios use.
    return (
        NAME,
        Column("Background", "boolean", lambda o: _spec(o).get("background", True)),
        Column(
            "Validation Failure Action",
            "string",
            lambda o: _spec(o).get("validationFailureAction", "Audit"),
        ),
        AGE,
    )


def _report_columns() -> tuple[Column, ...]:
    return (
        NAME,
        Column("Kind", "string", lambda o: (o.get("scope") or {}).get("kind", "")),
        _summary("pass"),
        _summary("fail"),
        _summary("warn"),
        _summary("error"),
        _summary("skip"),
        AGE,
    )


def _background_scan(
    policies: Sequence[dict[str, Any]], resources: Sequence[dict[str, Any]]
) -> Sequence[dict[str, Any]]:
    # Imported on first use: starting a cluster (in a sandbox, for every trial) must not pay for
    # the engine unless a policy is actually deployed.
    from ciso.engines.kyverno.reports import policy_reports

    return policy_reports(policies, resources)


def _admission(request: AdmissionRequest) -> AdmissionDecision:
    # Imported on first write, for the same reason as the background scan.
    from ciso.engines.kyverno.admission import admit

    return admit(request)


def _policy_validator() -> Validator | None:
    """Kyverno's CRD schema check, when this checkout has it."""
    try:
        from ciso.engines.kyverno.schema import validate_crd
    except ImportError:
        return None
    return validate_crd


def cluster_extension() -> ClusterExtension:
    policy_kinds = frozenset({(POLICY_GROUP, "ClusterPolicy"), (POLICY_GROUP, "Policy")})
    validator = _policy_validator()
    policy_columns, report_columns = _policy_columns(), _report_columns()
    return ClusterExtension(
        name="ciso",
        types=(CLUSTER_POLICY, POLICY, POLICY_REPORT, CLUSTER_POLICY_REPORT),
        columns={
            "ClusterPolicy": policy_columns,
            "Policy": policy_columns,
            "PolicyReport": report_columns,
            "ClusterPolicyReport": report_columns,
        },
        validators={kind: validator for kind in policy_kinds} if validator else {},
        report_producer=_background_scan,
        report_inputs=policy_kinds,
        report_outputs=frozenset(
            {(REPORT_GROUP, "PolicyReport"), (REPORT_GROUP, "ClusterPolicyReport")}
        ),
        admission=_admission,
        admission_inputs=policy_kinds,
    )
