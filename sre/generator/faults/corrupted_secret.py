"""The Secret holding the cart's Valkey password overwritten with garbage (a failed rotation):
the cart reads the password from the mounted Secret, sends the wrong one, and Valkey refuses
every command (WRONGPASS). Valkey itself and both Deployments are untouched.

The scenario installs the credentials (``setup``): Valkey started with ``--requirepass``, the
cart reading ``VALKEY_PASSWORD_FILE`` from a volume of the Secret ``valkey-cart-credentials``."""

from __future__ import annotations

import base64
import copy
from typing import Any

from sre.generator import objects as k8s
from sre.generator.faults._common import container, json_patch
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
    Symptom,
)
from sre.generator.topology import OTEL_DEMO, Service

SECRET = "valkey-cart-credentials"
#: the password Valkey is installed with (what the Secret holds before the fault)
PASSWORD = "cart-valkey-7f3k2q"
MOUNT = "/var/run/secrets/valkey"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def secret(namespace: str, password: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "type": "Opaque",
        "metadata": {"name": SECRET, "namespace": namespace,
                     "uid": k8s.uid("Secret", namespace, SECRET)},
        "data": {"password": _b64(password)},
    }  # fmt: skip


def setup(namespace: str, target: Service) -> tuple[dict[str, Any], ...]:
    server = k8s.deployment(target, namespace)
    container(server)["args"] = ["--requirepass", PASSWORD]
    client = k8s.deployment(OTEL_DEMO.service("cart"), namespace)
    ctr = container(client)
    ctr["env"].append({"name": "VALKEY_PASSWORD_FILE", "value": f"{MOUNT}/password"})
    ctr["volumeMounts"] = [{"name": "valkey-credentials", "mountPath": MOUNT, "readOnly": True}]
    client["spec"]["template"]["spec"]["volumes"] = [
        {"name": "valkey-credentials", "secret": {"secretName": SECRET}}
    ]
    return (server, client, secret(namespace, PASSWORD))


def build(ctx: FaultContext) -> FaultPlan:
    garbled = "".join(ctx.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(24))
    before = secret(ctx.namespace, PASSWORD)
    after = copy.deepcopy(before)
    after["data"]["password"] = _b64(garbled)
    ref = ObjectRef("Secret", SECRET, ctx.namespace)
    return FaultPlan(
        fault_type="corrupted-secret",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, after, before),),
        warnings=(),  # a Secret's content is not checked by Kubernetes
        symptom=Symptom(
            ctx.target.name,
            "error",
            "WRONGPASS invalid username-password pair or user is disabled.",
        ),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"Secret {SECRET} holds a garbled password",
        mechanism="corrupted-secret",
        pod_effect=f"{ctx.target.name} refuses the cart's commands: the cart sends the garbled "
        "password",
        extra={"secret": SECRET},
    )


def _restore(r) -> list[str]:
    return json_patch(
        r, "secret", SECRET,
        {"op": "replace", "path": "/data/password", "value": _b64(PASSWORD)},
    )  # fmt: skip


FAULT = FaultType(
    "corrupted-secret",
    "Secret with garbled credentials",
    build,
    ("valkey-cart",),
    remedies=(
        Remedy(
            "restore the password",
            "the Secret holds Valkey's password again (the one in valkey-cart's --requirepass); "
            "the cart reads the mounted file on its next connection",
            lambda r: [_restore(r)],
        ),
        Remedy(
            "restart the client",
            "the cart restarts and reads the same garbled Secret",
            lambda r: [["-n", r.namespace, "rollout", "restart", "deployment/cart"]],
            accepted=False,
        ),
        Remedy(
            "delete the Secret",
            "destructive: the cart has no password left to send, Valkey still refuses it",
            lambda r: [["-n", r.namespace, "delete", "secret", SECRET, "--wait=false"]],
            accepted=False,
        ),
        Remedy(
            "write the password into another Secret",
            "a new Secret nobody mounts: the cart still reads the garbled one",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "create",
                    "secret",
                    "generic",
                    "valkey-cart-password",
                    f"--from-literal=password={PASSWORD}",
                ]
            ],  # fmt: skip
            accepted=False,
        ),
    ),
    setup=setup,
)
