"""Synthetic ITBench-Lite FinOps scenarios with ground truth, and anomalies planted into FOCUS data."""

from finops.generator.difficulty import DIFFICULTIES, Difficulty
from finops.generator.lite import generate_scenarios

__all__ = ["DIFFICULTIES", "Difficulty", "generate_scenarios"]
