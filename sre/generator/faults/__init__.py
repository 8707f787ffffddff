"""The fault types the generator can inject, one module each, listed explicitly (no registration
by import side effect)."""

from __future__ import annotations

from sre.generator.faults import (
    bad_command,
    cpu_stress,
    dns_failure,
    feature_flag,
    flagd_flags,
    memory_stress,
    network_delay,
    network_partition,
    network_policy,
    node_disk_pressure,
    node_selector,
    nonexistent_image,
    oom_killed,
    readiness_probe,
    resource_quota,
    scaled_to_zero,
    wrong_env_var,
    wrong_target_port,
)
from sre.generator.model import FaultType

FAULT_TYPES: dict[str, FaultType] = {
    m.FAULT.name: m.FAULT
    for m in (
        feature_flag,
        network_delay,
        network_partition,
        cpu_stress,
        memory_stress,
        oom_killed,
        nonexistent_image,
        wrong_target_port,
        network_policy,
        resource_quota,
        bad_command,
        readiness_probe,
        scaled_to_zero,
        node_selector,
        node_disk_pressure,
        wrong_env_var,
        dns_failure,
    )
}
#: the demo's flagd flags, one fault type each (``flagd_flags.py``)
FAULT_TYPES.update({f.name: f for f in flagd_flags.FAULTS})
