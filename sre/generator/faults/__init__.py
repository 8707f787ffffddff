"""The fault types the generator can inject, one module each, listed explicitly (no registration
by import side effect)."""

from __future__ import annotations

from sre.generator.faults import (  # Chaos Mesh kinds and misconfigurations of ITBench's library
    anti_affinity,
    bad_command,
    cordoned_node,
    cpu_stress,
    dns_failure,
    dns_policy,
    feature_flag,
    flagd_flags,
    http_abort,
    init_container,
    io_fault,
    jvm_exception,
    memory_stress,
    missing_pvc,
    missing_secret,
    network_delay,
    network_loss,
    network_partition,
    network_policy,
    node_disk_pressure,
    node_selector,
    nonexistent_image,
    oom_killed,
    pod_failure,
    readiness_probe,
    resource_quota,
    scaled_to_zero,
    service_selector,
    valkey_memory,
    valkey_password,
    wrong_arch_image,
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
        network_loss,
        http_abort,
        jvm_exception,
        io_fault,
        pod_failure,
        service_selector,
        cordoned_node,
        missing_secret,
        init_container,
        missing_pvc,
        anti_affinity,
        dns_policy,
        wrong_arch_image,
        valkey_password,
        valkey_memory,
    )
}
#: the demo's flagd flags, one fault type each (``flagd_flags.py``)
FAULT_TYPES.update({f.name: f for f in flagd_flags.FAULTS})
