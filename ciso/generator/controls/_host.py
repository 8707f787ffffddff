"""The three host-namespace controls differ only in their field and wording."""

from ciso.generator.controls._text import SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control


def host_flag_control(cis_id: str, builtin_id: str, field: str, what: str, why: str) -> Control:
    def violates(spec):
        return spec.get(field) is True

    def break_pod(spec, rng):
        spec[field] = True

    def explicit_false(spec, rng):
        spec[field] = False

    def lookalike_env(spec, rng):
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
