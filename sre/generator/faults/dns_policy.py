"""The target's pods given the node's resolver (``dnsPolicy: Default``): the names of the
services it calls do not resolve, its own calls fail."""

from __future__ import annotations

from sre.generator.faults._common import ROLLBACK, json_patch, new_pod, patch_deployment
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom


def build(ctx: FaultContext) -> FaultPlan:
    def node_resolver(dep: dict) -> None:
        dep["spec"]["template"]["spec"]["dnsPolicy"] = "Default"

    change, after = patch_deployment(ctx, node_resolver)
    new_pod(ctx, after)
    return FaultPlan(
        fault_type="dns-policy",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(),  # a valid policy: lookups fail inside the application
        symptom=Symptom(
            ctx.target.name,
            "error",
            "dial tcp: lookup {callee} on 10.0.0.2:53: no such host",
            origin="client",
        ),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"{ctx.target.name} pods use dnsPolicy Default (the node's resolver)",
        mechanism="misconfigured-dns-policy",
        pod_effect=f"{ctx.target.name} cannot resolve the services it calls",
        new_pods=True,
    )


# only services that call others can show a DNS failure
FAULT = FaultType(
    "dns-policy",
    "dnsPolicy Default: cluster names do not resolve",
    build,
    ("checkout", "recommendation", "shipping", "cart"),
    remedies=(
        ROLLBACK,
        Remedy(
            "restore the cluster DNS policy",
            "ClusterFirst sends lookups to the cluster DNS again",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {
                        "op": "replace",
                        "path": "/spec/template/spec/dnsPolicy",
                        "value": "ClusterFirst",
                    },
                )
            ],
        ),  # fmt: skip
        Remedy(
            "remove the DNS policy",
            "the default policy is ClusterFirst",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {"op": "remove", "path": "/spec/template/spec/dnsPolicy"},
                )
            ],
        ),  # fmt: skip
    ),
)
