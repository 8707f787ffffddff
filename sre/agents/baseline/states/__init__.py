"""The failing-state rules of the baseline, one module each. An object rule reads the latest
object snapshots (:class:`~sre.agents.baseline.states.objects.ObjectView`) and yields
:class:`~sre.agents.baseline.evidence.FailingState` s; :data:`OBJECT_RULES` is their order (the
order the ranking merges states of one entity in). Throttling reads the metrics and the event
rule the Warning events; ``state.observe`` puts them together."""

from __future__ import annotations

from sre.agents.baseline.states import (
    env_addresses,
    feature_flags,
    network_policies,
    node_pressure,
    pod_failures,
    scaled_to_zero,
    target_ports,
    unschedulable,
    vanished_services,
)

OBJECT_RULES = (
    pod_failures.find,
    scaled_to_zero.find,
    target_ports.find,
    network_policies.find,
    feature_flags.find,
    env_addresses.find,
    node_pressure.find,
    unschedulable.find,
    vanished_services.find,
)
