"""CIS 5.1.5: a pod spec on its namespace's default ServiceAccount turns token automounting off."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec


def service_account(spec: Mapping[str, Any]) -> str:
    # the deprecated serviceAccount counts when serviceAccountName is absent or empty
    for field in ("serviceAccountName", "serviceAccount"):
        name = spec.get(field)
        if isinstance(name, str) and name:
            return name
    return "default"


def violates(spec: Mapping[str, Any]) -> bool:
    return (
        service_account(spec) == "default" and spec.get("automountServiceAccountToken") is not False
    )


def break_pod(spec: PodSpec, rng: Random) -> None:
    how = rng.choice(("unset", "named-default", "deprecated-default"))
    if how == "unset":
        spec.pop("automountServiceAccountToken", None)
        return
    spec["automountServiceAccountToken"] = True
    field = "serviceAccountName" if how == "named-default" else "serviceAccount"
    spec[field] = "default"


def dedicated_account(spec: PodSpec, rng: Random) -> None:
    spec["serviceAccountName"] = rng.choice(("ledger-api", "report-writer"))
    spec["automountServiceAccountToken"] = True


def lookalike_name(spec: PodSpec, rng: Random) -> None:
    spec["serviceAccountName"] = "default-reader"
    spec.pop("automountServiceAccountToken", None)


def deprecated_dedicated(spec: PodSpec, rng: Random) -> None:
    spec["serviceAccount"] = "metrics-pusher"
    spec.pop("automountServiceAccountToken", None)


def default_off(spec: PodSpec, rng: Random) -> None:
    spec["serviceAccountName"] = "default"  # automountServiceAccountToken: false stays


CONTROL = Control(
    cis_id="5.1.5",
    builtin_id="cis-k8s-5.1.5-default-service-account",
    violates=violates,
    break_container=None,
    break_pod=break_pod,
    near_misses=(dedicated_account, lookalike_name, deprecated_dedicated, default_off),
    phrasings=(
        "Nothing may act as its namespace's default ServiceAccount with a token: a pod spec "
        'running as default (serviceAccountName unset, empty or "default"; the deprecated '
        "serviceAccount field counts when serviceAccountName is absent) must set "
        "automountServiceAccountToken: false. Workloads on a dedicated account are fine. "
        + SCOPE_OPERATOR,
        "Finding criteria: a workload fails when its pod spec runs as the default ServiceAccount "
        '(serviceAccountName, else the deprecated serviceAccount, unset, empty or "default") '
        "and does not set automountServiceAccountToken: false. Each pod spec is judged on its "
        f"own. {SCOPE_AUDITOR}",
        "The default ServiceAccount is shared by everything in a namespace. Flag every workload "
        "whose pod spec uses the default ServiceAccount (no serviceAccountName, an empty one or "
        '"default", with the deprecated serviceAccount field honoured when serviceAccountName is '
        f"absent) without setting automountServiceAccountToken: false. {SCOPE_CIS}",
    ),
)
