"""An Istio AuthorizationPolicy bound to the users' Gateway that denies their HTTP methods:
every request coming in through it is answered 403 (``RBAC: access denied``) before it reaches
``frontend-proxy``. The services behind it are healthy."""

from __future__ import annotations

import json

from sre.generator.faults._common import json_patch
from sre.generator.faults._mesh import GATEWAY, mesh_setup
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
    Symptom,
)

POLICY = f"{GATEWAY}-deny"


def build(ctx: FaultContext) -> FaultPlan:
    ref = ObjectRef("AuthorizationPolicy", POLICY, ctx.namespace)
    policy = {
        "apiVersion": "security.istio.io/v1",
        "kind": "AuthorizationPolicy",
        "metadata": {"name": POLICY, "namespace": ctx.namespace},
        "spec": {
            "action": "DENY",
            "targetRef": {"group": "gateway.networking.k8s.io", "kind": "Gateway",
                          "name": GATEWAY},
            "rules": [{"to": [{"operation": {"methods": ["GET", "POST"]}}]}],
        },
    }  # fmt: skip
    return FaultPlan(
        fault_type="gateway-deny",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, policy),),
        warnings=(),
        symptom=Symptom(ctx.target.name, "error", "RBAC: access denied"),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"AuthorizationPolicy {POLICY} denies GET and POST at Gateway {GATEWAY}",
        mechanism="gateway-authorization-deny",
        pod_effect=f"requests to {ctx.target.name} through the Gateway are answered 403",
        extra={"policy": POLICY},
    )


FAULT = FaultType(
    "gateway-deny",
    "Gateway AuthorizationPolicy denying the users' requests",
    build,
    ("frontend-proxy",),
    remedies=(
        Remedy(
            "delete the AuthorizationPolicy",
            "the Gateway lets the users' requests through again",
            lambda r: [["-n", r.namespace, "delete", "authorizationpolicy", POLICY]],
        ),
        Remedy(
            "switch the policy to AUDIT",
            "an AUDIT policy records matching requests and denies none",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "patch",
                    "authorizationpolicy",
                    POLICY,
                    "--type=merge",
                    "-p",
                    json.dumps({"spec": {"action": "AUDIT"}}),
                ]
            ],  # fmt: skip
        ),
        Remedy(
            "stop denying GET only",
            "POST (adding to the cart, checking out) is still denied",
            lambda r: [
                json_patch(
                    r,
                    "authorizationpolicy",
                    POLICY,
                    {
                        "op": "replace",
                        "path": "/spec/rules/0/to/0/operation/methods",
                        "value": ["POST"],
                    },
                )
            ],  # fmt: skip
            accepted=False,
        ),
        Remedy(
            "label the namespace out of the mesh",
            "the Gateway's policy does not depend on the backend's enrolment: still denied, and "
            "the mesh stops seeing the namespace's requests",
            lambda r: [
                ["label", "namespace", r.namespace, "istio.io/dataplane-mode=none", "--overwrite"]
            ],  # fmt: skip
            accepted=False,
        ),
    ),
    setup=mesh_setup,
)
