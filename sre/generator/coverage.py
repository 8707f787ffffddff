"""ITBench's SRE fault mechanisms and which of our fault types covers each.

ITBench's scenario library (``../shared/reference/itbench-acting-tasks.md``) injects its 65 SRE
scenarios through 31 mechanisms, listed there in groups: flagd feature flags, six Chaos Mesh
kinds, Kubernetes misconfigurations, Istio and Valkey. The list below is our reading of it, one
row a mechanism; where the document joins two under "or" and their objects and remedies differ
(an image that does not exist vs one built for another CPU; a cordoned node vs a node that does
not exist) they are two rows, which gives its count of 31.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sre.generator.faults.flagd_flags import FAULTS as _FLAG_FAULT_TYPES

#: the demo's flags, one fault type each (``faults/flagd_flags.py``)
FLAG_FAULTS = tuple(sorted(f.name for f in _FLAG_FAULT_TYPES))


@dataclass(frozen=True)
class Mechanism:
    group: str
    name: str
    #: our fault types that inject it (empty: not covered)
    covered_by: tuple[str, ...] = ()
    #: what is modelled of it, or why not
    note: str = ""

    @property
    def covered(self) -> bool:
        return bool(self.covered_by)


_K8S = "Kubernetes"
MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism("flagd", "feature flag (19 scenarios)", ("feature-flag", *FLAG_FAULTS),
              "one fault type per flag of the demo's flagd configuration"),
    Mechanism("Chaos Mesh", "NetworkChaos (8)",
              ("network-delay", "network-partition", "network-loss")),
    Mechanism("Chaos Mesh", "StressChaos (6)", ("cpu-stress", "memory-stress")),
    Mechanism("Chaos Mesh", "JVMChaos (2)", ("jvm-exception",),
              "the twin also models latency, return, gc and stress"),
    Mechanism("Chaos Mesh", "HTTPChaos (2)", ("http-abort",),
              "the twin also models delay, replace and patch"),
    Mechanism("Chaos Mesh", "IOChaos (1)", ("io-fault",), "the twin also models latency"),
    Mechanism("Chaos Mesh", "PodChaos (1)", ("pod-failure",),
              "the twin also models one-shot pod-kill and container-kill, which recover alone"),
    Mechanism(_K8S, "resource quota", ("resource-quota",)),
    Mechanism(_K8S, "NetworkPolicy block", ("network-policy",)),
    Mechanism(_K8S, "Service selector or targetPort", ("wrong-target-port", "service-selector")),
    Mechanism(_K8S, "deleted Service", ("deleted-service",),
              "the plan deletes the Service; recreating it (expose, or create and select) repairs"),
    Mechanism(_K8S, "environment variables", ("wrong-env-var",)),
    Mechanism(_K8S, "bad image", ("nonexistent-image",)),
    Mechanism(_K8S, "wrong-architecture image", ("wrong-arch-image",),
              "a single-platform image names its architecture; the nodes are amd64"),
    Mechanism(_K8S, "cordoned node", ("cordoned-node",)),
    Mechanism(_K8S, "nonexistent node", ("node-selector",)),
    Mechanism(_K8S, "pod anti-affinity", ("anti-affinity",)),
    Mechanism(_K8S, "priority preemption", ("priority-preemption",),
              "node CPU capacity and priority order for pods pinned to a node"),
    Mechanism(_K8S, "DNS policy", ("dns-policy",)),
    Mechanism(_K8S, "crashing or hanging init container", ("init-container",),
              "crashing only; a hanging one is not modelled"),
    Mechanism(_K8S, "readiness probe", ("readiness-probe",)),
    Mechanism(_K8S, "HorizontalPodAutoscaler", ("hpa-misconfigured",),
              "the HPA rule (ceil(replicas × usage/target), tolerance 0.1) over a steady load; "
              "no scale-down stabilisation window"),
    Mechanism(_K8S, "missing PersistentVolumeClaim", ("missing-pvc",)),
    Mechanism(_K8S, "scale to zero", ("scaled-to-zero",)),
    Mechanism(_K8S, "corrupted Secret", ("corrupted-secret",),
              "the cart reads Valkey's password from a mounted Secret"),
    Mechanism(_K8S, "API-server request surge", ("api-surge",),
              "one priority level's capacity: 429s, pods created during the surge not bound"),
    Mechanism("Istio", "strict mTLS", ("strict-mtls",),
              "a minimal ambient mesh: enrolment, PeerAuthentication modes"),
    Mechanism("Istio", "gateway AuthorizationPolicy", ("gateway-deny",),
              "DENY/ALLOW policies bound to a Gateway, matched on method and path"),
    Mechanism("Istio", "ambient mode off", ("ambient-off",),
              "the mesh's telemetry loses the namespace (NoRequestsReceived)"),
    Mechanism("Valkey", "password change", ("valkey-password",)),
    Mechanism("Valkey", "out of memory", ("valkey-memory",),
              "ours lowers maxmemory below the data; ITBench fills the store instead"),
)  # fmt: skip

#: our fault types outside ITBench's list (mechanisms the paper's classes name, or our own)
BEYOND_THE_LIST = {
    "bad-command": "the paper's CorruptDeployment class",
    "oom-killed": "the paper's MemoryResourceLimit class",
    "node-disk-pressure": "a node condition",
    "dns-failure": "DNSChaos",
    "missing-secret": "an environment variable from a Secret that does not exist",
}


def coverage() -> dict[str, Any]:
    """The coverage report as a document: every mechanism, the count, our other fault types."""
    from sre.generator.faults import FAULT_TYPES

    covered = sum(m.covered for m in MECHANISMS)
    return {
        "mechanisms": len(MECHANISMS),
        "covered": covered,
        "rows": [
            {"group": m.group, "mechanism": m.name, "covered_by": list(m.covered_by),
             "note": m.note}
            for m in MECHANISMS
        ],
        "beyond_the_list": dict(sorted(BEYOND_THE_LIST.items())),
        "fault_types": len(FAULT_TYPES),
    }  # fmt: skip


def coverage_table() -> str:
    """The report as a Markdown table (the docs page holds the same)."""
    doc = coverage()
    lines = ["| group | ITBench mechanism | our fault types | note |", "|---|---|---|---|"]
    for row in doc["rows"]:
        types = ", ".join(f"`{t}`" for t in row["covered_by"]) or "—"
        lines.append(f"| {row['group']} | {row['mechanism']} | {types} | {row['note']} |")
    lines.append("")
    lines.append(f"Covered: {doc['covered']}/{doc['mechanisms']} mechanisms.")
    return "\n".join(lines)
