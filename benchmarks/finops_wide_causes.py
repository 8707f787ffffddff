"""FinOps baseline on bills of shapes its generator never makes: the hand-made situations of
``tests/finops/test_finops_wide_causes.py`` (static databases, tiered storage, fees, credits,
committed-use discounts, weekday/weekend and month-start habits, partial edge days, several
accounts; provider- and service-wide truths; a resized database and a quiet day as controls),
each over many seeds. Per situation: the share answered with exactly the true resources.

The situations are the tests' own fixtures (the tests pin a few seeds; this measures the rate).
Run: .venv/bin/python benchmarks/finops_wide_causes.py [--seeds 20] [--first 100]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's tests package

import tests.finops.test_finops_wide_causes as cases
from finops.model import Resource
from finops.rca import diagnose
from finops.scenario import load_scenario
from tests.finops.wide_fixtures import Bill

START = dt.date(2024, 5, 6)  # a Monday


def _answer(folder: Path) -> tuple[Resource, ...]:
    s = load_scenario(folder)
    return diagnose(s.load_table(), s.anomaly).resources


def _provider(seed, tmp, weekly=False, day=48, extra=None, factor=1.15):
    bill = Bill(START, day + 1, seed)
    cases.estate(bill, weekly=weekly)
    if extra:
        extra(bill, day)
    cases._provider_rise(bill, day, factor)
    return bill.write(tmp, day, "111"), (cases.AWS,)


def _fees(bill, day):
    bill.flat_fee(("111", "AWS", "Savings Plans", "shared", "Compute SP"), 60.0)
    bill.flat_fee(("111", "AWS", "Credits", "shared", "Promotional credit"), -40.0)


def _cud_ends(bill, day):
    fee = bill.flat_fee(("111", "AWS", "Savings Plans", "shared", "Compute SP"), 25.0)
    fee.cost[day:] = 0.0


def _month_start(seed, tmp):
    start = dt.date(2024, 4, 20)
    day = (dt.date(2024, 6, 1) - start).days
    bill = Bill(start, day + 1, seed)
    cases.estate(bill)
    batch = bill.usage(("111", "AWS", "EC2", "reports", "r5.2xlarge"), 0.504, 4)
    for i in range(bill.days):
        if bill.day(i).day == 1:
            batch.count[i] *= 3
            batch.cost[i] *= 3
    cases._provider_rise(bill, day)
    return bill.write(tmp, day, "111"), (cases.AWS,)


def _partial(seed, tmp):
    bill = Bill(START, 31, seed)
    cases.estate(bill)
    cases._provider_rise(bill, 28)
    return bill.write(tmp, 28, "111", partial_first=10 / 24, partial_last=7 / 24), (cases.AWS,)


def _accounts(seed, tmp):
    bill = Bill(START, 49, seed)
    for account, scale in (("111", 1.0), ("222", 0.6), ("333", 2.0)):
        cases.estate(bill, account, scale=scale)
    cases._provider_rise(bill, 48, 1.12)
    return bill.write(tmp, 48, "222"), (cases.AWS,)


def _database_service(seed, tmp):
    bill = Bill(START, 49, seed)
    cases.estate(bill)
    bill.static(("111", "AWS", "RDS", "reports", "db.t3.medium"), 0.068, 3)
    bill.raise_price(bill.under("AWS", "RDS"), 1.2, 48)
    return bill.write(tmp, 48, "111"), (cases.RDS,)


def _compute_service(seed, tmp):
    bill = Bill(START, 50, seed)
    cases.estate(bill, weekly=True)
    bill.raise_price(bill.under("AWS", "EC2"), 1.18, 49)
    return bill.write(tmp, 49, "111"), (Resource("EC2", "Cloud_Service"),)


def _one_database(seed, tmp):
    bill = Bill(START, 49, seed)
    cases.estate(bill)
    (db,) = [line for line in bill.under("AWS", "RDS") if line.family == "db.r5.2xlarge"]
    db.count[48:] *= 2
    db.cost[48:] *= 2
    return bill.write(tmp, 48, "111"), (Resource("db.r5.2xlarge", "Instance_Family"),)


def _elsewhere_only(seed, tmp):
    bill = Bill(START, 49, seed)
    for account in ("111", "333"):
        cases.estate(bill, account)
    cases._provider_rise(bill, 48, 1.15, account="333")
    (fleet,) = [
        line for line in bill.under("AWS", "EC2", "shop", "c5.2xlarge") if line.account == "111"
    ]
    fleet.count[48] *= 3
    fleet.cost[48] *= 3
    return bill.write(tmp, 48, "111"), (Resource("c5.2xlarge", "Instance_Family"),)


def _quiet(seed, tmp):
    bill = Bill(START, 49, seed)
    cases.estate(bill, weekly=True)
    bill.flat_fee(("111", "AWS", "Credits", "shared", "Promotional credit"), -40.0)
    return bill.write(tmp, 48, "111"), ()


SITUATIONS = {
    "provider: static db + tiered storage": lambda s, t: _provider(s, t),
    "provider: beside a fee and a credit": lambda s, t: _provider(s, t, extra=_fees),
    "provider: committed-use discount ends": lambda s, t: _provider(
        s, t, extra=_cud_ends, factor=1.35
    ),
    "provider: weekday/weekend, Monday": lambda s, t: _provider(s, t, weekly=True, day=49),
    "provider: weekday/weekend, Saturday": lambda s, t: _provider(s, t, weekly=True, day=54),
    "provider: month start with a monthly batch": _month_start,
    "provider: partial first and last days": _partial,
    "provider: small account of three": _accounts,
    "service: managed databases": _database_service,
    "service: compute on a weekday/weekend estate": _compute_service,
    "control: one database resized": _one_database,
    "control: quiet day": _quiet,
    "control: a leaf spike here, the provider's rise in another account": _elsewhere_only,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first", type=int, default=100, help="first seed (the tests use 1-3)")
    args = ap.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as root:
        for name, build in SITUATIONS.items():
            exact = 0
            for seed in range(args.first, args.first + args.seeds):
                folder, truth = build(seed, Path(root) / f"{len(results)}-{seed}")
                exact += set(_answer(folder)) == set(truth)
            results[name] = round(exact / args.seeds, 3)
            print(f"{name}: {results[name]}", file=sys.stderr)
    wide = [v for k, v in results.items() if not k.startswith("control")]
    doc = {
        "benchmark": "finops_wide_causes",
        "seeds": args.seeds,
        "first_seed": args.first,
        "exact": results,
        "wide_causes_mean": round(sum(wide) / len(wide), 3),
    }
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
