"""STRICT mutual TLS in a mesh, and one workload taken out of it: a namespace-wide
PeerAuthentication in ``STRICT`` mode and the target's pods labelled
``istio.io/dataplane-mode: none``. The target's calls leave in plaintext and every enrolled
callee's ztunnel resets them; calls *to* the target still work (a destination outside the mesh
enforces nothing). The workload's opt-out is the fault: STRICT is the mesh's intended policy."""

from __future__ import annotations

import json

from sre.generator.faults._common import ROLLBACK, json_patch, patch_deployment
from sre.generator.faults._mesh import MODE_LABEL, mesh_setup
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
    Symptom,
)

POLICY = "mtls-strict"


def build(ctx: FaultContext) -> FaultPlan:
    policy_ref = ObjectRef("PeerAuthentication", POLICY, ctx.namespace)
    policy = {
        "apiVersion": "security.istio.io/v1",
        "kind": "PeerAuthentication",
        "metadata": {"name": POLICY, "namespace": ctx.namespace},
        "spec": {"mtls": {"mode": "STRICT"}},
    }

    def opt_out(dep: dict) -> None:
        dep["spec"]["template"]["metadata"]["labels"][MODE_LABEL] = "none"

    change, _ = patch_deployment(ctx, opt_out)
    return FaultPlan(
        fault_type="strict-mtls",
        target=ctx.target,
        root=change.ref,
        changes=(change, ObjectChange(policy_ref, policy)),
        warnings=(),  # both objects are valid; only the traffic fails
        symptom=Symptom(
            ctx.target.name,
            "error",
            "upstream connect error or disconnect/reset before headers. reset reason: "
            "connection termination (calling {callee})",
            origin="client",
        ),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"{ctx.target.name} pods are outside the mesh under STRICT mTLS",
        mechanism="strict-mtls",
        pod_effect=f"{ctx.target.name} sends plaintext; its callees' ztunnels reset the calls",
        new_pods=True,
        extra={"policy": POLICY},
    )


_LABEL_PATH = "/spec/template/metadata/labels/" + MODE_LABEL.replace("/", "~1")

FAULT = FaultType(
    "strict-mtls",
    "workload outside the mesh under STRICT mTLS",
    build,
    ("checkout", "frontend", "recommendation", "cart", "shipping"),
    remedies=(
        ROLLBACK,
        Remedy(
            "remove the opt-out label",
            "the pods join the namespace's ambient mesh again and speak mTLS",
            lambda r: [
                json_patch(r, "deployment", r.target, {"op": "remove", "path": _LABEL_PATH})
            ],
        ),
        Remedy(
            "delete the PeerAuthentication",
            "the calls get through in plaintext, but the workload stays outside the mesh (its "
            "requests unseen) and the namespace loses STRICT mTLS",
            lambda r: [["-n", r.namespace, "delete", "peerauthentication", POLICY]],
            accepted=False,
        ),
        Remedy(
            "set mTLS to PERMISSIVE",
            "plaintext accepted again: a security downgrade, and the workload stays outside the "
            "mesh",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "patch",
                    "peerauthentication",
                    POLICY,
                    "--type=merge",
                    "-p",
                    json.dumps({"spec": {"mtls": {"mode": "PERMISSIVE"}}}),
                ]
            ],  # fmt: skip
            accepted=False,
        ),
        Remedy(
            "enrol the namespace again",
            "the namespace is enrolled already; the pods' own label opts them out",
            lambda r: [["label", "namespace", r.namespace, f"{MODE_LABEL}=ambient", "--overwrite"]],
            accepted=False,
        ),
    ),
    setup=mesh_setup,
)
