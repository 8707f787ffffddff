"""Several families rising over every application of one service are that service's change.

A client library that retries every object request makes each application's request classes
rise, some applications billing both classes; a video going viral makes a content-delivery
service bill more transfer (material) and more requests (small, but far beyond their noise) in
every site; a security plan per server switched on for every application is billed as one
family that is all of its service. Each is one change of the service; naming the request
classes, the transfer family or the plan's family says less, and a family repriced alone beside
other families stays the family. Three rules of ``finops.rca.drilldown``:
``_families_across_its_applications`` (an application may hold more than one of the lines
found), ``_one_child_grown`` (the families that stand out on their own need not each be
material) and ``_family_is_the_service``. ITBench-Lite bills written here by hand
(``tests/finops/wide_fixtures.py``).
"""

from __future__ import annotations

import datetime as dt

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, Line, answer

SEEDS = (41, 42, 43)
START = dt.date(2025, 1, 6)  # a Monday
DAY = 7 * 7 + 1  # a Tuesday, seven weeks of history
ACCOUNT = "5150"


def _publisher(seed: int, last: int = DAY) -> Bill:
    """A media publisher: object storage with request classes per application, a CDN with
    transfer and requests per site, compute and a database."""
    bill = Bill(START, last + 1, seed)
    office = bill.weekly(1.0, 0.6)
    for app, gb in (("archive", 90000), ("photos", 150000), ("feeds", 40000)):
        bill.usage((ACCOUNT, "AWS", "S3", app, "Standard-Storage-GB"), 0.023 / 24 / 30, gb, 0.002)
    bill.usage(
        (ACCOUNT, "AWS", "S3", "archive", "Requests-Class-A"), 0.005 / 24, 7000, 0.05, office
    )
    bill.usage(
        (ACCOUNT, "AWS", "S3", "photos", "Requests-Class-A"), 0.005 / 24, 20000, 0.05, office
    )
    bill.usage(
        (ACCOUNT, "AWS", "S3", "photos", "Requests-Class-B"), 0.0004 / 24, 250000, 0.05, office
    )
    bill.usage(
        (ACCOUNT, "AWS", "S3", "feeds", "Requests-Class-B"), 0.0004 / 24, 300000, 0.05, office
    )
    for site, gb in (("news", 9000), ("video", 22000), ("shop", 5000)):
        bill.usage((ACCOUNT, "AWS", "CDN", site, "Transfer-Out-GB"), 0.085 / 24, gb, 0.03)
        bill.usage((ACCOUNT, "AWS", "CDN", site, "HTTPS-Requests-10K"), 0.01 / 24, gb / 2, 0.02)
    bill.usage((ACCOUNT, "AWS", "EC2", "news", "m7i.2xlarge"), 0.4032, 14, 0.04, office)
    bill.static((ACCOUNT, "AWS", "RDS", "shop", "db.r7g.xlarge"), 0.478, 2)
    return bill


def _lines(bill: Bill, service: str, family: str) -> list[Line]:
    return [line for line in bill.lines if line.service == service and line.family == family]


def _times(lines: list[Line], factor: float) -> None:
    for line in lines:
        line.count[DAY] *= factor
        line.cost[DAY] = line.price[DAY] * line.count[DAY] * 24


@pytest.mark.parametrize("seed", SEEDS)
def test_request_classes_rising_in_every_application_are_the_service(tmp_path, seed):
    bill = _publisher(seed)
    _times(_lines(bill, "S3", "Requests-Class-A"), 6.0)
    _times(_lines(bill, "S3", "Requests-Class-B"), 3.0)
    assert answer(bill.write(tmp_path, DAY, ACCOUNT)) == (Resource("S3", "Cloud_Service"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_transfer_and_requests_rising_in_every_site_are_the_service(tmp_path, seed):
    bill = _publisher(seed)
    _times(_lines(bill, "CDN", "Transfer-Out-GB"), 2.5)
    _times(_lines(bill, "CDN", "HTTPS-Requests-10K"), 1.7)
    assert answer(bill.write(tmp_path, DAY, ACCOUNT)) == (Resource("CDN", "Cloud_Service"),)


def _with_security_plan(seed: int, last: int) -> Bill:
    """The publisher's bill up to day ``last`` with a per-server security plan billed in three
    applications (the service's only kind of line), on the two servers of each that had it."""
    bill = _publisher(seed, last)
    for app in ("news", "video", "shop"):
        bill.static((ACCOUNT, "AWS", "ServerDefense", app, "Plan2-per-server"), 0.5, 2)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_late", (0, 2))
def test_a_plan_switched_on_for_every_server_is_the_service(tmp_path, seed, days_late):
    """The plan enabled at the organisation level: every server of every application is
    covered from the day (the service's one family, in every application)."""
    alert = DAY + days_late
    bill = _with_security_plan(seed, alert)
    for line in _lines(bill, "ServerDefense", "Plan2-per-server"):
        line.count[DAY:] = {"news": 30, "video": 20, "shop": 12}[line.app]
        line.cost[DAY:] = line.price[DAY:] * line.count[DAY:] * 24
    assert answer(bill.write(tmp_path, alert, ACCOUNT)) == (
        Resource("ServerDefense", "Cloud_Service"),
    )


# --- guards (before and after): one family alone is the family --------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_one_request_class_repriced_in_every_application_is_the_family(tmp_path, seed):
    bill = _publisher(seed)
    bill.raise_price(_lines(bill, "S3", "Requests-Class-A"), 2.0, DAY)
    assert answer(bill.write(tmp_path, DAY, ACCOUNT)) == (
        Resource("Requests-Class-A", "Instance_Family"),
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_transfer_repriced_in_every_site_is_the_family(tmp_path, seed):
    bill = _publisher(seed)
    bill.raise_price(_lines(bill, "CDN", "Transfer-Out-GB"), 1.6, DAY)
    assert answer(bill.write(tmp_path, DAY, ACCOUNT)) == (
        Resource("Transfer-Out-GB", "Instance_Family"),
    )
