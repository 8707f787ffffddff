"""A NetworkPolicy that selects the target's pods and allows no ingress at all."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
    Symptom,
)


def build(ctx: FaultContext) -> FaultPlan:
    name = f"{ctx.target.name}-block-all-ports"
    ref = ObjectRef("NetworkPolicy", name, ctx.namespace)
    body = {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": name, "namespace": ctx.namespace},
        "spec": {
            "podSelector": {"matchLabels": {"app.kubernetes.io/name": ctx.target.name}},
            "policyTypes": ["Ingress"],
            "ingress": [],
        },
    }
    return FaultPlan(
        fault_type="network-policy",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, body),),
        warnings=(),  # the kubelet's probes are exempt on common CNIs; nothing is reported
        symptom=Symptom(ctx.target.name, "unavailable", "dial tcp: i/o timeout"),
        pod_state="Running",
        category="Configuration",
        condition=f"NetworkPolicy {name} blocks all ingress traffic to {ctx.target.name} pods",
        mechanism="misconfigured-network-policy",
        pod_effect=f"{ctx.target.name} pods receive no traffic",
    )


FAULT = FaultType(
    "network-policy",
    "NetworkPolicy denying all ingress",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "delete the NetworkPolicy",
            "without a policy selecting the pods every caller gets in",
            lambda r: [["-n", r.namespace, "delete", "networkpolicy", r.root.name]],
        ),
        Remedy(
            "allow all ingress",
            "an ingress rule with no source lets every caller in",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "patch",
                    "networkpolicy",
                    r.root.name,
                    "--type=merge",
                    "-p",
                    '{"spec":{"ingress":[{}]}}',
                ]
            ],
        ),
        Remedy(
            "allow one caller only",
            "the other callers stay blocked",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "patch",
                    "networkpolicy",
                    r.root.name,
                    "--type=merge",
                    "-p",
                    '{"spec":{"ingress":[{"from":[{"podSelector":{"matchLabels":'
                    '{"app.kubernetes.io/name":"nobody"}}}]}]}}',
                ]
            ],
            accepted=False,
        ),
    ),
)
