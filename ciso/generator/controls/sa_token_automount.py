"""CIS 5.1.6: every pod spec turns service account token automounting off."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec


def violates(spec: Mapping[str, Any]) -> bool:
    return spec.get("automountServiceAccountToken") is not False


def break_pod(spec: PodSpec, rng: Random) -> None:
    if rng.random() < 0.5:
        spec.pop("automountServiceAccountToken", None)  # unset: the token is mounted
    else:
        spec["automountServiceAccountToken"] = True
    if rng.random() < 0.5:
        spec["serviceAccountName"] = rng.choice(("reporter", "ledger-sync", "uploader"))


def dedicated_account_off(spec: PodSpec, rng: Random) -> None:
    spec["serviceAccountName"] = "token-reviewer"  # the name mentions tokens; the field is false


def projected_token_volume_off(spec: PodSpec, rng: Random) -> None:
    # automount is off; a volume named like a token is not the automounted one
    spec.setdefault("volumes", []).append({"name": "sa-token", "emptyDir": {}})


CONTROL = Control(
    cis_id="5.1.6",
    builtin_id="cis-k8s-5.1.6-sa-token-automount",
    violates=violates,
    break_container=None,
    break_pod=break_pod,
    near_misses=(dedicated_account_off, projected_token_volume_off),
    phrasings=(
        "None of our applications talk to the Kubernetes API, so no pod gets a service account "
        "token: every pod spec must say automountServiceAccountToken: false; leaving it out "
        "mounts the token, so that is a finding too, whatever the ServiceAccount. "
        + SCOPE_OPERATOR,
        "Finding criteria: a workload fails when its pod spec does not set "
        "automountServiceAccountToken to false (true or absent both fail; the ServiceAccount's "
        f"own setting is not considered). {SCOPE_AUDITOR}",
        "Service account tokens mounted into pods that never use them are credentials waiting "
        "to be stolen. Flag every workload whose pod spec does not set "
        f"automountServiceAccountToken: false. {SCOPE_CIS}",
    ),
)
