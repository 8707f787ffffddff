"""Scenario complexity, the paper's Equation 6: the geometric mean of the propagation chain's
length, the number of resolution steps and the number of technologies involved, bucketed into
Easy / Medium / Hard (the paper's SRE set: 24% / 52% / 24%).

The paper does not publish how each factor is counted nor its thresholds; ours:

- **chain length**: the components on the ground truth's propagation chain (the judge's
  ``propagation_chain`` path), at least the root causes' components;
- **resolution steps**: the ``kubectl`` commands of the fault's first accepted remedy (``Remedy``
  data in ``sre/generator/faults/``); a ground truth of no generator fault type counts its
  ``recommended_actions``, else one step per root cause;
- **technologies**: Kubernetes, plus Chaos Mesh for a chaos object among the root causes, flagd
  for a feature flag, plus the runtime of every service on the chain (:data:`RUNTIME`, the
  OpenTelemetry demo's languages and datastores);
- **buckets**: Easy below :data:`EASY_BELOW`, Hard from :data:`HARD_FROM`, Medium between.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sre.generator.ground_truth import GroundTruth

#: Thresholds on the geometric mean, chosen so the 67 public ITBench ground truths (../shared)
#: split 18 / 32 / 17 (27% / 48% / 25%), as the paper's set does (24% / 52% / 24%).
EASY_BELOW = 2.5
HARD_FROM = 4.0

#: Each demo service's implementation (language, proxy or datastore): the technologies a chain
#: through it involves.
RUNTIME = {
    "accounting": ".NET", "ad": "Java", "cart": ".NET", "checkout": "Go", "currency": "C++",
    "email": "Ruby", "flagd": "flagd", "fraud-detection": "Kotlin", "frontend": "Node.js",
    "frontend-proxy": "Envoy", "image-provider": "nginx", "kafka": "Kafka",
    "load-generator": "Python", "payment": "Node.js", "postgresql": "PostgreSQL",
    "product-catalog": "Go", "product-reviews": "Python", "quote": "PHP",
    "recommendation": "Python", "shipping": "Rust", "valkey-cart": "Valkey",
}  # fmt: skip

#: the generator's service-mesh mechanisms (``sre/generator/faults``): Istio is involved
MESH_MECHANISMS = frozenset({"strict-mtls", "gateway-authorization-deny", "ambient-mode-disabled"})

#: A generator fault type by its ground truth's (mechanism, faulty kind): "chaos" is shared.
_FAULT_TYPE = {
    ("chaos", "stresschaos"): "cpu-stress",
    ("chaos", "dnschaos"): "dns-failure",
    ("chaos", "networkchaos"): "network-delay",
    ("command_injection", "deployment"): "bad-command",
    ("custom(flagd)", "configmap"): "feature-flag",
    ("memory_stress", "stresschaos"): "memory-stress",
    ("network_partition", "networkchaos"): "network-partition",
    ("misconfigured-network-policy", "networkpolicy"): "network-policy",
    ("node-disk-pressure", "node"): "node-disk-pressure",
    ("invalid-node-selector", "deployment"): "node-selector",
    ("nonexistent-kubernetes-workload-container-image", "deployment"): "nonexistent-image",
    ("insufficient-resources", "deployment"): "oom-killed",
    ("misconfigured-readiness-probe", "deployment"): "readiness-probe",
    ("resource_quota_enforcement", "resourcequota"): "resource-quota",
    ("custom", "deployment"): "scaled-to-zero",
    ("environment_variable_misconfiguration", "deployment"): "wrong-env-var",
    ("misconfigured-service-port", "service"): "wrong-target-port",
}


@dataclass(frozen=True)
class Complexity:
    chain_length: int
    resolution_steps: int
    technologies: tuple[str, ...]
    score: float
    label: str

    def as_metadata(self) -> dict[str, Any]:
        return {
            "complexity": self.label,
            "complexity_score": round(self.score, 3),
            "chain_length": self.chain_length,
            "resolution_steps": self.resolution_steps,
            "technologies": list(self.technologies),
        }


def label_of(score: float) -> str:
    if score < EASY_BELOW:
        return "Easy"
    return "Hard" if score >= HARD_FROM else "Medium"


def fault_type_of(truth: GroundTruth) -> str | None:
    for fault in truth.fault:
        name = _FAULT_TYPE.get((fault.fault_mechanism, fault.entity.kind.lower()))
        if name is not None:
            return name
    return None


def resolution_steps(truth: GroundTruth, fault_type: str | None = None) -> int:
    from sre.generator.faults import FAULT_TYPES
    from sre.generator.model import ObjectRef, RemedyContext

    fault_type = fault_type or fault_type_of(truth)
    fault = FAULT_TYPES.get(fault_type) if fault_type else None
    accepted = [r for r in (fault.remedies if fault else ()) if r.accepted]
    if accepted:
        # the commands' count depends on no name: any context writes as many
        ctx = RemedyContext("ns", "svc", ObjectRef("Deployment", "svc", "ns"), "img", 1, "P", "c")
        return max(1, len(accepted[0].commands(ctx)))
    if truth.recommended_actions:
        return len(truth.recommended_actions)
    return max(1, sum(g.root_cause for g in truth.groups))


def complexity(truth: GroundTruth, fault_type: str | None = None) -> Complexity:
    from sre.judge.matching import Matcher

    matcher = Matcher(truth)
    roots = [matcher.group_component(r) for r in matcher.root_causes]
    path = matcher.gt_path() or list(dict.fromkeys(roots))
    techs = {"Kubernetes"}
    for rc in matcher.root_causes:
        kind = matcher.groups[rc].kind.lower()
        if kind.endswith("chaos"):
            techs.add("Chaos Mesh")
    if any("flagd" in f.fault_mechanism for f in truth.fault):
        techs.add("flagd")
    if any(f.fault_mechanism in MESH_MECHANISMS for f in truth.fault):
        techs.add("Istio")
    for c in path:
        if c[0] == "app" and c[2] in RUNTIME:
            techs.add(RUNTIME[c[2]])
    length = max(1, len(path))
    steps = resolution_steps(truth, fault_type)
    # rounded: a float cube root of 64 is 3.9999999999999996, which must read as 4
    score = round((length * steps * len(techs)) ** (1 / 3), 9)
    return Complexity(length, steps, tuple(sorted(techs)), score, label_of(score))
