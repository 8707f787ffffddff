"""The hand-written SRE incident snapshot (``tests/sre/fixtures``) and the judge's shared ground
truth and infrastructure-fault output, used by the judge tests and the untrusted-output tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

SRE_FIXTURES = Path(__file__).resolve().parents[1] / "sre" / "fixtures"
SRE_INCIDENT = SRE_FIXTURES / "incident-checkout"


def flagd_config_group() -> dict[str, Any]:
    """The ground-truth group of the feature-flag ConfigMap, the root cause of the hand-written
    incidents (a new mapping each call: a test may change its copy)."""
    return {
        "id": "cfg",
        "kind": "ConfigMap",
        "namespace": "otel-demo",
        "name": "flagd-config",
        "root_cause": True,
    }


def flagd_truth(
    *groups: dict[str, Any], propagations: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """A ground truth as the generator writes it: ``flagd_config_group`` first, then ``groups``."""
    return {
        "id": "1",
        "groups": [flagd_config_group(), *groups],
        "propagations": list(propagations),
        "fault": [],
    }


TRUTH = {
    "id": "7",
    "groups": [
        flagd_config_group(),
        {
            "id": "cart-service-1",
            "kind": "Service",
            "namespace": "otel-demo",
            "filter": ["cart\\b"],
        },
        {"id": "cart-pod-1", "kind": "Pod", "namespace": "otel-demo", "filter": ["cart-.*"]},
        {
            "id": "frontend-service-1",
            "kind": "Service",
            "namespace": "otel-demo",
            "filter": ["frontend\\b"],
        },
        {
            "id": "frontend-proxy-service-1",
            "kind": "Service",
            "namespace": "otel-demo",
            "filter": ["frontend-proxy\\b"],
        },
        {
            "id": "ad-pod-1",
            "kind": "Pod",
            "namespace": "otel-demo",
            "filter": ["ad-.*"],
            "root_cause": True,
        },
        {"id": "ad-service-1", "kind": "Service", "namespace": "otel-demo", "filter": ["ad\\b"]},
    ],
    "aliases": [["cart-service-1", "cart-pod-1"], ["ad-service-1", "ad-pod-1"]],
    "propagations": [
        {
            "source": "cfg",
            "target": "cart-service-1",
            "condition": "flag on",
            "effect": "cart fails",
        },
        {
            "source": "cart-service-1",
            "target": "frontend-service-1",
            "condition": "x",
            "effect": "frontend error rate up",
        },
        {
            "source": "frontend-service-1",
            "target": "frontend-proxy-service-1",
            "condition": "x",
            "effect": "proxy errors",
        },
    ],
    "fault": [],
}


def entities(*names: str, contributing: bool = True) -> list[dict]:
    return [{"name": n, "contributing_factor": contributing} for n in names]


INFRA_OUTPUT = {
    "entities": entities(
        "opentelemetry-collectors/Pod/otel-collector-0",  # the collector: infrastructure
        "otel-demo/ConfigMap/flagd-config",
        "kube-system/Pod/coredns-5d78c9869d-abcde",  # infrastructure
        "otel-demo/Service/frontend",  # an application miss: stays a false positive
        "otel-demo/Pod/ad-5b8f7c9d4-x2x9q",
    )
}
