"""A numeric bound on a field that every item of a list carries (knowledge of a projected
service account token's lifetime): each item is judged by itself, wherever it sits in its
list, an item without the field taking the default. The requirement and objects are
written for this test; every rendered class (Kyverno, kubectl-opa Rego, opa-static Rego) is
judged by the real engines and must flag exactly the violating workloads."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import CLASSES, flagged, intent_of, pod_carrier

SHORT_TOKENS = (
    "Tokens that pods receive through a projected volume must not live longer than thirty "
    "minutes: the expirationSeconds of each serviceAccountToken source must be no more than 1800."
)


def _spec(*sources: dict[str, Any]) -> dict[str, Any]:
    return {
        "containers": [{"name": "main", "image": "registry.example/app:1"}],
        "volumes": [{"name": "creds", "projected": {"sources": list(sources)}}],
    }


def _token(**fields: Any) -> dict[str, Any]:
    return {"serviceAccountToken": {"path": "token", **fields}}


CONFIG = {"configMap": {"name": "trust"}}

VIOLATING = [
    # the long-lived token is the second source, after a ConfigMap
    pod_carrier("Deployment", "late-token", _spec(CONFIG, _token(expirationSeconds=7200)), "apps"),
    pod_carrier(
        "StatefulSet",
        "one-of-two",
        _spec(_token(expirationSeconds=900), _token(expirationSeconds=2400)),
        "apps",
    ),
]
COMPLIANT = [
    pod_carrier("Deployment", "at-limit", _spec(CONFIG, _token(expirationSeconds=1800)), "apps"),
    pod_carrier("Deployment", "no-token", _spec(CONFIG), "apps"),
    pod_carrier("DaemonSet", "short", _spec(_token(expirationSeconds=600)), "apps"),
    # an item without the field takes the default the baseline reads for it (within the bound)
    pod_carrier("CronJob", "no-field", _spec(_token()), "apps"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_each_projected_token_is_judged_with_its_default(ciso_class: str) -> None:
    expected = {o["metadata"]["name"] for o in VIOLATING}
    assert flagged(intent_of(SHORT_TOKENS), [*VIOLATING, *COMPLIANT], ciso_class) == expected


CONFIG_FILE_MODES = (
    "Files mounted from a ConfigMap volume must not be writable by anyone: each such volume "
    "sets defaultMode to 0444 or lower (the API's 0644 applies when it is left out)."
)


def _volumes(*modes: int | None) -> dict[str, Any]:
    return {
        "containers": [{"name": "main", "image": "registry.example/app:1"}],
        "volumes": [
            {"name": f"v{i}", "configMap": {"name": "settings",
                                            **({} if m is None else {"defaultMode": m})}}
            for i, m in enumerate(modes)
        ],
    }  # fmt: skip


# modes as the API serves them, in decimal: 0444 is 292, 0400 is 256, 0644 is 420, 0664 is 436
MODE_VIOLATING = [
    pod_carrier("Deployment", "second-writable", _volumes(256, 436), "apps"),
    pod_carrier("Job", "mode-left-out", _volumes(None), "apps"),
]
MODE_COMPLIANT = [
    pod_carrier("Deployment", "read-only", _volumes(292, 256), "apps"),
    pod_carrier("DaemonSet", "no-volumes", _volumes(), "apps"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_each_volume_mode_is_read_in_octal_and_judged_with_the_api_default(
    ciso_class: str,
) -> None:
    expected = {o["metadata"]["name"] for o in MODE_VIOLATING}
    objects = [*MODE_VIOLATING, *MODE_COMPLIANT]
    assert flagged(intent_of(CONFIG_FILE_MODES), objects, ciso_class) == expected
