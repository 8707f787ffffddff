"""Scenario families beyond the difficulty levels: causes above the instance family, and the
normal life of a bill that is not a cause.

Each family is one shape of scenario, so a benchmark can report per shape what a single average
would hide:

- ``service_wide``: every application of one Cloud_Service gets the same price change or the same
  instance-count surge (a managed-Kubernetes price rise); the truth is the ``Cloud_Service``.
- ``provider_wide``: every resource of one CSP gets the same price rise (a negotiated discount
  expiring); the truth is the ``CSP``.
- ``migration``: a classic root cause, plus an application that moves instances from one family to
  another (existing or new) on the anomaly day with its total flat: not a cause.
- ``month_end``: a classic root cause on the last day of a month, plus an application whose batch
  jobs spike on the last day of every month: recurring, not a cause.
- ``weekend_free``: a classic root cause on a Monday, plus applications with no rows at weekends
  (their Monday is a jump from nothing): not a cause.
- ``scale_step``: a classic root cause, plus a planned scale step of one application two to four
  days before the anomaly: history by the anomaly day, not a cause.
- ``messy_export``: a classic root cause in an export with rows in random order, account ids with
  a leading zero in the CSV and as a JSON number in anomaly.json, and a week of data after the day.

A classic root cause is one of the generator's instance-count spikes, price changes, new families
and new applications, sized in standard deviations of the account's daily noise.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import numpy as np

from finops.generator.catalog import FAMILIES
from finops.generator.difficulty import DIFFICULTIES, Difficulty
from finops.generator.lite import (
    ROOT_CAUSE_KINDS,
    Leaf,
    Plan,
    _account_sigma,
    _build_history,
    _plant_root_cause,
    build_plan,
    write_scenario,
)
from finops.model import Resource

#: The hierarchy and noise every family is built on: two CSPs with three services each, so that a
#: service or a provider is one node among several of its level.
FAMILY_BASE = Difficulty("family", (6.0, 10.0), (1, 1), (0, 0), 1, 2, 3, 3, 2, 63, 0.05)

FAMILY_NAMES = (
    "service_wide",
    "provider_wide",
    "migration",
    "month_end",
    "weekend_free",
    "scale_step",
    "messy_export",
)


def _new_plan(rng: random.Random, family: str, anomaly: dt.date, tail: int) -> Plan:
    d = FAMILY_BASE
    anomaly_index = d.days - 1
    start = anomaly - dt.timedelta(days=anomaly_index)
    plan = Plan(d, start, d.days + tail, anomaly_index, family=family)
    _build_history(rng, d, plan)
    return plan


def _random_day(rng: random.Random) -> dt.date:
    return dt.date(2024, 3, 1) + dt.timedelta(days=rng.randrange(0, 270))


def _mine(plan: Plan, account: str) -> list[Leaf]:
    return [leaf for leaf in plan.leaves if leaf.account == account]


def _classic_cause(rng: random.Random, plan: Plan, account: str, avoid: set[str]) -> None:
    """One classic root cause on a leaf outside the applications in ``avoid``."""
    sigma = _account_sigma(plan.leaves, account, plan.anomaly_index)
    used = {id(leaf) for leaf in plan.leaves if leaf.application in avoid}
    kind = rng.choice(ROOT_CAUSE_KINDS)
    _plant_root_cause(
        rng, plan, account, kind, rng.uniform(*FAMILY_BASE.anomaly_sigma) * sigma, used
    )


def _wide_change(rng: random.Random, plan: Plan, account: str, level: str) -> None:
    """The same relative change on every leaf under one service or one provider, sized (like a
    classic cause) in standard deviations of the account's noise, and never below a realistic
    floor (a price list moves by 10% or more)."""
    t = plan.anomaly_index
    leaves = _mine(plan, account)
    wanted = rng.uniform(*FAMILY_BASE.anomaly_sigma) * _account_sigma(plan.leaves, account, t)
    if level == "CSP":
        groups: dict[tuple[str, ...], list[Leaf]] = {
            (leaf.csp,): [x for x in leaves if x.csp == leaf.csp] for leaf in leaves
        }
        # a negotiated discount expiring: list price comes back on everything of the provider
        kind, floor = "price_change", 1.12
    else:
        groups = {
            (leaf.csp, leaf.service): [
                x for x in leaves if (x.csp, x.service) == (leaf.csp, leaf.service)
            ]
            for leaf in leaves
        }
        kind, floor = rng.choice(["price_change", "instance_count_spike"]), 1.2
    factors = {
        key: max(floor, 1 + wanted / float(sum(leaf.cost[t] for leaf in under)))
        for key, under in groups.items()
    }
    # a plausible change (at most doubling); else the group that needs the smallest one
    plausible = sorted(key for key, f in factors.items() if f <= 2.0)
    key = rng.choice(plausible) if plausible else min(factors, key=factors.__getitem__)
    factor = factors[key]
    plan.truth.append(Resource(key[-1], level))
    for leaf in groups[key]:
        if kind == "price_change":
            leaf.price[t:] = leaf.price[t:] * factor
        else:
            leaf.count[t:] = np.rint(leaf.count[t:] * factor)
    plan.planted.append({"kind": f"{level.lower()}_{kind}", "factor": round(factor, 3)})


def _migration(rng: random.Random, plan: Plan, account: str) -> str:
    """Move part of one family's instances to another family of the same application, cost-neutral."""
    t = plan.anomaly_index
    leaves = [leaf for leaf in _mine(plan, account) if leaf.count[t] > 2]
    source = rng.choice(leaves)
    siblings = [
        leaf
        for leaf in plan.leaves
        if leaf.application == source.application and leaf is not source
    ]
    moved = np.rint(source.count[t:] * rng.uniform(0.5, 1.0))
    cost_moved = moved * source.price[t:]
    taken = {leaf.family for leaf in siblings} | {source.family}
    free = sorted(set(FAMILIES[source.csp]) - taken)
    if free and rng.random() < 0.5:  # to a family the application never ran (m5 -> m6i)
        family = rng.choice(free)
        price = np.full(plan.days, FAMILIES[source.csp][family])
        target = Leaf(
            account,
            source.csp,
            source.service,
            source.application,
            family,
            price,
            np.zeros(plan.days),
        )
        plan.leaves.append(target)
    else:
        target = rng.choice(siblings)
    source.count[t:] -= moved
    target.count[t:] += np.rint(cost_moved / target.price[t:])
    plan.decoys.append("migration")
    return source.application


def _month_end(rng: random.Random, plan: Plan, account: str) -> str:
    """One application's batch jobs multiply its cost on the last day of every month."""
    app = rng.choice(sorted({leaf.application for leaf in _mine(plan, account)}))
    factor = rng.uniform(2.0, 3.0)
    for i in range(plan.days):
        day = plan.start + dt.timedelta(days=i)
        if (day + dt.timedelta(days=1)).month != day.month:
            for leaf in plan.leaves:
                if leaf.application == app:
                    leaf.count[i] = np.rint(leaf.count[i] * factor)
    plan.decoys.append("month_end_batch")
    return app


def _weekend_free(rng: random.Random, plan: Plan, account: str) -> set[str]:
    """About half of the applications stop at weekends (no rows on Saturday and Sunday)."""
    apps = sorted({leaf.application for leaf in _mine(plan, account)})
    chosen = set(rng.sample(apps, k=max(1, len(apps) // 2)))
    weekend = np.array(
        [(plan.start + dt.timedelta(days=i)).weekday() >= 5 for i in range(plan.days)]
    )
    for leaf in plan.leaves:
        if leaf.application in chosen:
            leaf.count[weekend] = 0.0
    plan.decoys.append("weekend_free")
    return chosen


def _scale_step(rng: random.Random, plan: Plan, account: str) -> str:
    """A planned scale-up of one application a few days before the anomaly day."""
    app = rng.choice(sorted({leaf.application for leaf in _mine(plan, account)}))
    step = plan.anomaly_index - rng.randint(2, 4)
    factor = rng.uniform(1.4, 1.8)
    for leaf in plan.leaves:
        if leaf.application == app:
            leaf.count[step:] = np.rint(leaf.count[step:] * factor)
    plan.decoys.append("scale_step")
    return app


def build_family_plan(rng: random.Random, family: str) -> tuple[Plan, str]:
    if family not in FAMILY_NAMES:
        raise ValueError(f"unknown scenario family {family!r}")
    day = _random_day(rng)
    tail = rng.randint(0, 3)
    if family == "month_end":
        # the last day of a month with two month-ends before it in the history
        first_next = dt.date(day.year + (day.month == 12), day.month % 12 + 1, 1)
        day = first_next - dt.timedelta(days=1)
    elif family == "weekend_free":
        day -= dt.timedelta(days=day.weekday())  # a Monday
    elif family == "messy_export":
        tail = rng.randint(5, 9)
    plan = _new_plan(rng, family, day, tail)
    account = plan.leaves[0].account
    if family == "messy_export":
        account = "0" + account[1:]  # an AWS-style id with a leading zero
        for leaf in plan.leaves:
            leaf.account = "0" + leaf.account[1:]
        plan.numeric_account = True
        plan.shuffle_seed = rng.randrange(2**31)
    avoid: set[str] = set()
    if family in ("service_wide", "provider_wide"):
        _wide_change(rng, plan, account, "CSP" if family == "provider_wide" else "Cloud_Service")
        if rng.random() < 0.3:  # now and then an independent cause elsewhere on the same day
            named = {r.name for r in plan.truth}
            avoid = {
                leaf.application
                for leaf in plan.leaves
                if leaf.service in named or leaf.csp in named
            }
            if any(leaf.application not in avoid for leaf in _mine(plan, account)):
                _classic_cause(rng, plan, account, avoid)
        return plan, account
    if family == "migration":
        avoid.add(_migration(rng, plan, account))
    elif family == "month_end":
        avoid.add(_month_end(rng, plan, account))
    elif family == "weekend_free":
        avoid |= _weekend_free(rng, plan, account)
    elif family == "scale_step":
        avoid.add(_scale_step(rng, plan, account))
    _classic_cause(rng, plan, account, avoid)
    return plan, account


def generate_scenarios(
    out_dir: Path,
    n: int,
    seed: int,
    difficulty: str = "medium",
    first: int = 1,
    family: str = "classic",
) -> list[Path]:
    """Write ``n`` scenarios ``Scenario-<first>..`` under ``out_dir``; deterministic for a seed.

    ``family`` ``classic`` builds the difficulty's plans; any other name one of
    :data:`finops.generator.families.FAMILY_NAMES` (the difficulty is then not used)."""
    d = DIFFICULTIES[difficulty]
    folders = []
    for i in range(n):
        if family == "classic":
            scenario_seed = random.Random(f"{seed}:{difficulty}:{i}").randrange(2**31)
            plan, account = build_plan(random.Random(scenario_seed), d)
        else:
            scenario_seed = random.Random(f"{seed}:{family}:{i}").randrange(2**31)
            plan, account = build_family_plan(random.Random(scenario_seed), family)
        folder = out_dir / f"Scenario-{first + i}"
        write_scenario(folder, plan, account, scenario_seed)
        folders.append(folder)
    return folders
