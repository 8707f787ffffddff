"""CIS 5.4.1: Secrets reach containers as files, never as environment variables."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers

_SECRETS = ("db-credentials", "api-token", "smtp-login", "signing-key")


def _secret_in_environment(container: Mapping[str, Any]) -> bool:
    return any(
        (var.get("valueFrom") or {}).get("secretKeyRef") for var in container.get("env") or ()
    ) or any(source.get("secretRef") for source in container.get("envFrom") or ())


def violates(spec: Mapping[str, Any]) -> bool:
    return any(_secret_in_environment(c) for c in containers(spec))


def break_container(container: dict[str, Any], rng: Random) -> None:
    secret = rng.choice(_SECRETS)
    if rng.random() < 0.5:
        # behind a plain variable: a check of env[0] misses it
        container["env"] = [
            {"name": "LOG_LEVEL", "value": "info"},
            {
                "name": "PASSWORD",
                "valueFrom": {"secretKeyRef": {"name": secret, "key": "password"}},
            },
        ]
    else:
        container["envFrom"] = [
            {"configMapRef": {"name": "settings"}},
            {"secretRef": {"name": secret}},
        ]


def mounted_secret(spec: PodSpec, rng: Random) -> None:
    secret = rng.choice(_SECRETS)
    spec.setdefault("volumes", []).append({"name": "creds", "secret": {"secretName": secret}})
    spec["containers"][0]["volumeMounts"] = [
        {"name": "creds", "mountPath": "/etc/creds", "readOnly": True}
    ]
    spec["containers"][0]["env"] = [{"name": "DB_PASSWORD_FILE", "value": "/etc/creds/password"}]


def config_maps(spec: PodSpec, rng: Random) -> None:
    spec["containers"][-1]["env"] = [
        {"name": "REGION", "valueFrom": {"configMapKeyRef": {"name": "settings", "key": "region"}}}
    ]
    spec["containers"][-1]["envFrom"] = [{"configMapRef": {"name": "settings"}}]


CONTROL = Control(
    cis_id="5.4.1",
    builtin_id="cis-k8s-5.4.1-secrets-as-files",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(mounted_secret, config_maps),
    phrasings=(
        f"Secrets go into containers as mounted files only: a container ({CONTAINERS}) that "
        "takes a Secret into its environment, through env[].valueFrom.secretKeyRef or "
        "envFrom[].secretRef, is a finding. ConfigMaps in the environment and Secret volumes "
        f"are fine. {SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when any container, init container or ephemeral "
        "container has an env entry with valueFrom.secretKeyRef or an envFrom entry with "
        "secretRef. configMapKeyRef, configMapRef and secret volumes pass. " + SCOPE_AUDITOR,
        "Applications may log their environment, and child processes inherit it; Secrets "
        "mounted as files are safer. Flag every workload in which a container, init container or "
        "ephemeral container reads a Secret through env[].valueFrom.secretKeyRef or "
        f"envFrom[].secretRef. {SCOPE_CIS}",
    ),
)
