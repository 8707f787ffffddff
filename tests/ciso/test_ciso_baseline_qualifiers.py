"""What a requirement text adds to, or takes from, a control the baseline knows: a runtime class
the text keeps out rather than requires. Each requirement and object is written for this test;
every rendered class (Kyverno, kubectl-opa Rego, opa-static Rego) is judged by the real engines
and must flag exactly the violating objects, not the near misses."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import CLASSES, flagged, intent_of, pod_carrier


def _pod_spec(runtime: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "app", "image": "registry.example/app:2.0"}]}
    if runtime is not None:
        spec["runtimeClassName"] = runtime
    return spec


#: a prohibition of one runtime class: the class named is what violates, unset complies
RUNTIME_KEPT_OUT = (
    "The experimental sandbox is being retired, so no workload may select the runtime class "
    "firecracker-beta any more.",
    [
        pod_carrier("Deployment", "legacy-sandbox", _pod_spec("firecracker-beta")),
        pod_carrier("CronJob", "nightly-sandbox", _pod_spec("firecracker-beta")),
    ],
    [
        pod_carrier("Deployment", "plain", _pod_spec()),
        pod_carrier("Pod", "other-runtime", _pod_spec("gvisor")),
    ],
)

CASES = {"runtime-kept-out": RUNTIME_KEPT_OUT}


@pytest.mark.parametrize("ciso_class", CLASSES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_class_flags_exactly_the_violations(case: str, ciso_class: str) -> None:
    text, violating, compliant = CASES[case]
    intent = intent_of(text)
    expected = {o["metadata"]["name"] for o in violating if o["kind"] != "Namespace"}
    assert flagged(intent, violating + compliant, ciso_class) == expected
