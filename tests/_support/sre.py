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


def generated_incident(root: Path, seed: int) -> Path:
    """One incident of our generator under ``root`` (skipped without bubblewrap: the command
    agents that answer it refuse to run unsandboxed)."""
    import shutil

    import pytest

    from sre.generator.snapshot import generate_incidents

    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed: the command agent refuses to run unsandboxed")
    generate_incidents(root, seed, 1)
    return root / "Scenario-1"


def right_answer(incident: Path, extra: Sequence[str] = ()) -> str:
    """The answer naming the incident's root causes (and ``extra`` names), as agent_output.json."""
    import json

    from sre.agents.hooks import _entity
    from sre.groundtruth import load_truths

    ((_, loaded),) = load_truths(incident / "ground_truth.yaml").items()
    names = [n for n in (_entity(g) for g in loaded.truth.groups if g.root_cause) if n]
    found = [{"name": name, "contributing_factor": True} for name in (*names, *extra)]
    return json.dumps({"entities": found, "propagations": []})
