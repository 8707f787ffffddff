"""Generate ITBench-Lite scenarios: a billing history with weekly seasonality, trend, noise,
new resources and price changes, then root causes and decoys planted on the anomaly day.

Everything derives from one ``random.Random(seed)``, so a seed reproduces the scenarios exactly.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from finops.generator.catalog import APPLICATIONS, FAMILIES, SERVICES
from finops.generator.difficulty import Difficulty
from finops.model import LITE_HIERARCHY, Resource
from itbench.fsutil import atomic_write_text

#: Weekly usage profiles (Monday first): flat, business days, and a Monday batch peak.
PROFILES = {
    "flat": (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    "weekdays": (1.0, 1.0, 1.0, 1.0, 1.0, 0.6, 0.6),
    "monday_peak": (2.2, 1.0, 1.0, 1.0, 1.0, 0.9, 0.9),
}
ROOT_CAUSE_KINDS = ("instance_count_spike", "price_change", "new_application", "new_family")


@dataclass
class Leaf:
    account: str
    csp: str
    service: str
    application: str
    family: str
    price: np.ndarray
    count: np.ndarray

    @property
    def cost(self) -> np.ndarray:
        return self.price * self.count * 24.0


@dataclass
class Plan:
    difficulty: Difficulty
    start: dt.date
    days: int
    anomaly_index: int
    leaves: list[Leaf] = field(default_factory=list)
    truth: list[Resource] = field(default_factory=list)
    planted: list[dict] = field(default_factory=list)
    decoys: list[str] = field(default_factory=list)
    #: The scenario family (``finops.generator.families``); ``classic`` for the difficulty plans.
    family: str = "classic"
    #: Write the CSV rows in a shuffled order (exports are not always sorted by date).
    shuffle_seed: int | None = None
    #: Write ``account_id`` in anomaly.json as a JSON number, as some exports' tooling does.
    numeric_account: bool = False


def _series(
    rng: random.Random,
    n: int,
    base: float,
    profile: tuple,
    weekday0: int,
    cv: float,
    trend: float,
    start: int = 0,
) -> np.ndarray:
    np_rng = np.random.default_rng(rng.randrange(2**32))
    t = np.arange(n)
    season = np.array([profile[(weekday0 + i) % 7] for i in t])
    level = base * season * (1 + trend * t) * (1 + np_rng.normal(0, cv, n))
    counts = np.maximum(np.rint(level), 0.0)
    counts[:start] = 0.0
    return counts


def _account_sigma(leaves: list[Leaf], account: str, t: int) -> float:
    # the account is one of these leaves' (the caller takes it from them): the sum is an array
    total: np.ndarray = sum(leaf.cost for leaf in leaves if leaf.account == account)  # type: ignore[assignment]  # sum() starts from 0, typed as a possible result
    diffs = total[7:t] - total[: t - 7]
    mad = np.median(np.abs(diffs - np.median(diffs)))
    return float(max(1.4826 * mad / np.sqrt(2), 1e-6))


def _build_history(rng: random.Random, d: Difficulty, plan: Plan) -> None:
    weekday0 = plan.start.weekday()
    apps = rng.sample(
        APPLICATIONS, k=min(len(APPLICATIONS), d.accounts * d.csps * d.services * d.applications)
    )
    app_iter = iter(apps * 3)
    csps = list(SERVICES)
    for _ in range(d.accounts):
        account = str(rng.randrange(10**11, 10**12))
        for csp in rng.sample(csps, k=d.csps):
            for service in rng.sample(SERVICES[csp], k=d.services):
                for _ in range(d.applications):
                    app = next(app_iter)
                    profile = PROFILES[rng.choice(["flat", "flat", "weekdays", "monday_peak"])]
                    trend = rng.uniform(-0.002, 0.004)
                    # some applications start during the history: new resources that are not the anomaly
                    start = rng.randrange(7, plan.anomaly_index - 14) if rng.random() < 0.15 else 0
                    for family in rng.sample(sorted(FAMILIES[csp]), k=d.families):
                        price = np.full(plan.days, FAMILIES[csp][family])
                        # a planned price change well before the anomaly day is history, not a cause
                        if rng.random() < 0.1:
                            change = rng.randrange(7, plan.anomaly_index - 10)
                            price[change:] *= rng.choice([0.85, 0.9, 1.1, 1.2])
                        base = rng.uniform(8, 60)
                        count = _series(
                            rng, plan.days, base, profile, weekday0, d.noise_cv, trend, start
                        )
                        plan.leaves.append(Leaf(account, csp, service, app, family, price, count))


def _plant_root_cause(
    rng: random.Random, plan: Plan, account: str, kind: str, size: float, used: set
) -> None:
    t = plan.anomaly_index
    candidates = [
        leaf
        for leaf in plan.leaves
        if leaf.account == account and leaf.count[t] > 0 and id(leaf) not in used
    ]
    leaf = rng.choice(candidates)
    used.add(id(leaf))
    if kind == "instance_count_spike":
        extra = np.ceil(size / (leaf.price[t] * 24.0))
        leaf.count[t:] += extra
        plan.truth.append(Resource(leaf.family, "Instance_Family"))
    elif kind == "price_change":
        leaf.price[t:] += size / (leaf.count[t] * 24.0)
        plan.truth.append(Resource(leaf.family, "Instance_Family"))
    elif kind == "new_family":
        taken = {x.family for x in plan.leaves if x.application == leaf.application}
        family = rng.choice(sorted(set(FAMILIES[leaf.csp]) - taken))
        price = np.full(plan.days, FAMILIES[leaf.csp][family])
        count = np.zeros(plan.days)
        count[t:] = np.ceil(size / (price[t] * 24.0))
        plan.leaves.append(
            Leaf(account, leaf.csp, leaf.service, leaf.application, family, price, count)
        )
        plan.truth.append(Resource(family, "Instance_Family"))
    elif kind == "new_application":
        taken = {x.application for x in plan.leaves}
        app = rng.choice(sorted(set(APPLICATIONS) - taken) or [f"app-{rng.randrange(10**6)}"])
        families = rng.sample(sorted(FAMILIES[leaf.csp]), k=rng.randint(1, 2))
        for family in families:
            price = np.full(plan.days, FAMILIES[leaf.csp][family])
            count = np.zeros(plan.days)
            share = size / len(families)
            count[t:] = np.ceil(share / (price[t] * 24.0))
            plan.leaves.append(Leaf(account, leaf.csp, leaf.service, app, family, price, count))
        plan.truth.append(Resource(app, "Application"))
    plan.planted.append({"kind": kind, "size": round(size, 2)})


def _plant_decoy(
    rng: random.Random, plan: Plan, account: str, decoy: str, sigma: float, d: Difficulty
) -> None:
    t = plan.anomaly_index
    if decoy == "scale_up":
        # many resources each grow by about one noise unit: visible in total, justified nowhere
        mine = [leaf for leaf in plan.leaves if leaf.account == account and leaf.count[t] > 0]
        for leaf in rng.sample(mine, k=max(2, int(0.5 * len(mine)))):
            leaf.count[t:] = np.rint(leaf.count[t:] * (1 + 1.2 * d.noise_cv))
    elif decoy == "other_account":
        others = [leaf for leaf in plan.leaves if leaf.account != account and leaf.count[t] > 0]
        if others:
            leaf = rng.choice(others)
            leaf.count[t:] += np.ceil(8 * sigma / (leaf.price[t] * 24.0))
    plan.decoys.append(decoy)


def build_plan(rng: random.Random, d: Difficulty) -> tuple[Plan, str]:
    want_monday_peak = False
    decoys: list[str] = []
    n_decoys = rng.randint(*d.decoys)
    pool = ["scale_up", "seasonal_peak"] + (["other_account"] if d.accounts > 1 else [])
    decoys = rng.sample(pool, k=min(n_decoys, len(pool)))
    want_monday_peak = "seasonal_peak" in decoys
    tail = rng.randint(0, 2)
    days = d.days + tail
    start = dt.date(2024, 1, 1) + dt.timedelta(days=rng.randrange(0, 300))
    anomaly_index = d.days - 1
    if want_monday_peak:  # move the anomaly day onto a Monday
        shift = (start + dt.timedelta(days=anomaly_index)).weekday()
        start -= dt.timedelta(days=shift)
    plan = Plan(d, start, days, anomaly_index)
    _build_history(rng, d, plan)
    account = plan.leaves[0].account
    if want_monday_peak:
        # make sure at least one application of the account peaks on Mondays
        app = rng.choice([leaf.application for leaf in plan.leaves if leaf.account == account])
        for leaf in plan.leaves:
            if leaf.application == app:
                season = np.array(
                    [
                        PROFILES["monday_peak"][(start + dt.timedelta(days=i)).weekday()]
                        for i in range(days)
                    ]
                )
                leaf.count = np.rint(leaf.count * season)
    sigma = _account_sigma(plan.leaves, account, anomaly_index)
    used: set = set()
    for _ in range(rng.randint(*d.root_causes)):
        kind = rng.choice(ROOT_CAUSE_KINDS)
        _plant_root_cause(rng, plan, account, kind, rng.uniform(*d.anomaly_sigma) * sigma, used)
    for decoy in decoys:
        _plant_decoy(rng, plan, account, decoy, sigma, d)
    return plan, account


def _csv(plan: Plan) -> str:
    header = ",".join(
        ["date", *LITE_HIERARCHY.levels, "Price ($/hr)", "Num_Instances", "unblended_cost"]
    )
    lines = []
    for i in range(plan.days):
        day = (plan.start + dt.timedelta(days=i)).isoformat()
        for leaf in plan.leaves:
            count = leaf.count[i]
            if count <= 0:
                continue
            price = leaf.price[i]
            lines.append(
                f"{day},{leaf.account},{leaf.csp},{leaf.service},{leaf.application},{leaf.family},"
                f"{price:.4f},{int(count)},{price * count * 24.0:.4f}"
            )
    if plan.shuffle_seed is not None:
        random.Random(plan.shuffle_seed).shuffle(lines)
    return "\n".join([header, *lines]) + "\n"


def write_scenario(folder: Path, plan: Plan, account: str, seed: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    day = plan.start + dt.timedelta(days=plan.anomaly_index)
    account_value: str | int = int(account) if plan.numeric_account else account
    atomic_write_text(
        folder / "anomaly.json",
        json.dumps({"date": day.isoformat(), "account_id": account_value}) + "\n",
    )
    atomic_write_text(folder / "data.csv", _csv(plan))
    unique = list(dict.fromkeys(plan.truth))
    gt = {"resource": [{"name": r.name, "type": r.type} for r in unique]}
    atomic_write_text(folder / "ground_truth.yaml", yaml.safe_dump(gt, sort_keys=False))
    meta = {
        "generator": "itbench.finops",
        **({"difficulty": plan.difficulty.name} if plan.family == "classic" else {}),
        "family": plan.family,
        "seed": seed,
        "root_causes": plan.planted,
        "decoys": plan.decoys,
    }
    atomic_write_text(folder / "scenario.json", json.dumps(meta, indent=2) + "\n")
