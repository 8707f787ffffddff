"""Difficulty, defined by numbers (documented in docs/finops/index.md).

- ``anomaly_sigma``: each root cause adds this many standard deviations of the account's daily
  cost noise on the anomaly day (drawn uniformly from the range);
- ``root_causes``: how many independent root causes happen on the same day;
- ``decoys``: how many of the decoys are present: a weekly peak that falls on the anomaly day, a
  planned scale-up spread thinly over many resources on that day, and an anomaly in another account;
- hierarchy size: accounts, CSPs per account, services per CSP, applications per service,
  instance families per application; ``days`` of history; ``noise_cv``: day-to-day noise of usage.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Difficulty:
    name: str
    anomaly_sigma: tuple[float, float]
    root_causes: tuple[int, int]
    decoys: tuple[int, int]
    accounts: int
    csps: int
    services: int
    applications: int
    families: int
    days: int
    noise_cv: float


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty("easy", (10.0, 15.0), (1, 1), (0, 0), 1, 1, 2, 2, 2, 56, 0.03),
    "medium": Difficulty("medium", (5.0, 8.0), (1, 2), (1, 1), 2, 2, 3, 2, 3, 63, 0.05),
    "hard": Difficulty("hard", (3.5, 5.0), (2, 3), (2, 3), 3, 2, 3, 3, 3, 70, 0.08),
}
