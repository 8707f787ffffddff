"""Synthetic SRE incidents over the OpenTelemetry demo, written as ITBench-Lite v0.2 snapshots
with ground truth in the ITBench schema. They imitate the real snapshots' layout and signals;
they are not the real ITBench-Lite incidents."""

from __future__ import annotations

from sre.generator.faults import FAULT_TYPES
from sre.generator.snapshot import GeneratedIncident, generate_incidents, write_incident

__all__ = ["FAULT_TYPES", "GeneratedIncident", "generate_incidents", "write_incident"]
