"""Build small ITBench-Lite scenarios by hand: each leaf gets an explicit daily series."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import numpy as np

START = dt.date(2024, 3, 4)  # a Monday
HEADER = "date,Account ID,CSP,Cloud_Service,Application,Instance_Family,Price ($/hr),Num_Instances,unblended_cost"


def steady(
    days: int, count: float, noise: float = 0.04, seed: int = 0, weekly=(1, 1, 1, 1, 1, 1, 1)
) -> np.ndarray:
    rng = np.random.default_rng(seed)
    season = np.array([weekly[(START + dt.timedelta(days=i)).weekday()] for i in range(days)])
    return np.rint(count * season * (1 + rng.normal(0, noise, days)))


def write_lite(
    folder: Path,
    leaves: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray]],
    anomaly_day: int,
    account: str = "111",
) -> Path:
    """``leaves``: (csp, service, app, family) -> (price per day, instance count per day)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [HEADER]
    days = len(next(iter(leaves.values()))[0])
    for i in range(days):
        day = (START + dt.timedelta(days=i)).isoformat()
        for (csp, service, app, family), (price, count) in leaves.items():
            if count[i] <= 0:
                continue
            lines.append(
                f"{day},{account},{csp},{service},{app},{family},{price[i]:.4f},{int(count[i])},{price[i] * count[i] * 24:.4f}"
            )
    (folder / "data.csv").write_text("\n".join(lines) + "\n")
    date = (START + dt.timedelta(days=anomaly_day)).isoformat()
    (folder / "anomaly.json").write_text(json.dumps({"date": date, "account_id": account}))
    return folder


def base_leaves(days: int = 42) -> dict:
    """Two services, four applications, eight leaves of ordinary noisy usage."""
    leaves = {}
    seed = 0
    for service in ("EC2", "RDS"):
        for app in (f"{service.lower()}-app-a", f"{service.lower()}-app-b"):
            for family, price in (("m5.large", 0.096), ("c5.2xlarge", 0.34)):
                seed += 1
                leaves[("AWS", service, app, family)] = (
                    np.full(days, price),
                    steady(days, 30, seed=seed),
                )
    return leaves


#: the instance families each provider's services run on, with their hourly list price
FAMILY_PRICES = {
    "AWS": (("m5.large", 0.096), ("c5.2xlarge", 0.34)),
    "GCP": (("e2-medium", 0.0335), ("n2-standard-4", 0.194)),
}


def three_app_leaves(services: dict[str, tuple[str, ...]], days: int, first_seed: int) -> dict:
    """Each provider's ``services`` (provider -> its services), three applications per service
    (``<service>-a`` to ``-c``), each on its provider's two families: ordinary noisy usage of
    30 to 60 instances. Every leaf has a seed of its own, counted on from ``first_seed``, so two
    tests with another ``first_seed`` get other noise on the same shape."""
    leaves = {}
    seed = first_seed
    for csp, names in services.items():
        for service in names:
            for app in ("a", "b", "c"):
                for family, price in FAMILY_PRICES[csp]:
                    seed += 1
                    leaves[(csp, service, f"{service.lower()}-{app}", family)] = (
                        np.full(days, price),
                        steady(days, 30 + seed % 7 * 5, seed=seed),
                    )
    return leaves
