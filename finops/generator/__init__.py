"""Synthetic ITBench-Lite FinOps scenarios with ground truth, and anomalies planted into FOCUS data."""

from finops.generator.difficulty import DIFFICULTIES, Difficulty
from finops.generator.families import FAMILY_NAMES, generate_scenarios

__all__ = ["DIFFICULTIES", "FAMILY_NAMES", "Difficulty", "generate_scenarios"]
