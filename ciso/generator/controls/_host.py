"""The three host-namespace controls differ only in their field and wording."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec


def host_flag_control(cis_id: str, builtin_id: str, field: str, what: str, why: str) -> Control:
    def violates(spec: Mapping[str, Any]) -> bool:
        return spec.get(field) is True

    def break_pod(spec: PodSpec, rng: Random) -> None:
        spec[field] = True

    def explicit_false(spec: PodSpec, rng: Random) -> None:
        spec[field] = False

    def lookalike_env(spec: PodSpec, rng: Random) -> None:
        spec["containers"][0].setdefault("env", []).append({"name": field.upper(), "value": "true"})

    return Control(
        cis_id=cis_id,
        builtin_id=builtin_id,
        violates=violates,
        break_container=None,
        break_pod=break_pod,
        near_misses=(explicit_false, lookalike_env),
        phrasings=(
            f"Nothing we run may share the node's {what}: any workload with {field}: true in "
            f"its pod spec is a finding. {SCOPE_OPERATOR}",
            f"Finding criteria: a workload fails when its pod spec sets {field} to true ({field}: "
            f"false or the field absent pass). {SCOPE_AUDITOR}",
            f"{why} Flag every workload whose pod spec sets {field}: true. {SCOPE_CIS}",
        ),
    )
