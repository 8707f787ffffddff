#!/usr/bin/env python3
"""Blind FinOps set 4 (blind-c): 26 held-out ITBench-Lite cost-anomaly scenarios weighted toward
PARTIAL price changes: one family / one SKU repriced across every application, one region
repriced, price changes that the export's Price column rounds away, usage changes on the day of a
price change, provider- and service-wide rises beside lines that kept their price, and
resource-level controls.  Deterministic, stdlib only.   Usage: python3 gen.py OUTDIR"""
import csv
import datetime as dt
import json
import math
import os
import random
import sys

D = dt.date
ONE = dt.timedelta(days=1)

# unit prices ($ per unit-hour; usage SKUs: $ per unit, Num_Instances = units per hour)
PRICE = {
    # AWS
    "m6i.xlarge": .192, "m6i.2xlarge": .384, "c6g.4xlarge": .544, "c7i.2xlarge": .357, "r6i.xlarge": .252,
    "r7i.2xlarge": .5292, "t3.medium": .0416, "t4g.micro": .0084, "m7g.large": .0816, "p5.48xlarge": 98.32,
    "db.r6g.large": .225, "db.m6g.large": .152, "db.r6g.2xlarge": .899, "db.t4g.medium": .065,
    "S3-Standard": .0315, "S3-Standard-IA": .0171, "S3-PUT-Requests": .000005, "S3-GET-Requests": .0000004,
    "Lambda-GB-Second": .0000166667, "Lambda-Requests": .0000002,
    "CloudFront-Egress-GB": .085, "CloudFront-Requests": .0000012,
    "ELB-LCU": .008, "NAT-GB": .045, "cache.r6g.large": .206, "EKS-Control-Plane": .10,
    # GCP
    "n2-standard-8": .3885, "n2-standard-4": .1942, "e2-standard-8": .2681, "n2-highcpu-16": .5735,
    "c3-standard-4": .2005, "t2d-standard-8": .3380, "db-custom-4-16384": .413, "db-custom-8-32768": .826,
    "GCS-Standard": .0274, "BQ-Analysis-TiB": 6.25, "redis-standard-m4": .1479, "CloudRun-vCPU-s": .000024,
    # Azure
    "D8s_v5": .384, "D4s_v5": .192, "E8s_v5": .504, "F8s_v2": .338, "B2s": .0416, "D8s_v5-Spot": .0768,
    "E8s_v5-Spot": .1008, "GP_Gen5_4": .505, "Premium-SSD-P30": .1805, "Functions-GB-s": .000016,
    "Hot-LRS-GB": .0000285,
}
WEEK = {
    "flat": [1, 1, 1, 1, 1, 1, 1],
    "office": [1, 1, 1, 1, 1, .4, .4],
    "off": [1, 1, 1, 1, 1, None, None],
    "req": [1, 1.04, 1.06, 1.02, .92, .35, .3],
    "sun": [1, 1, 1, 1, 1, 1, 1.9],          # weekly Sunday reindex
}


def fnv(t):
    h = 2166136261
    for ch in t.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h


class Leaf:
    def __init__(s, acct, csp, svc, app, fam, n, kind="vm", week="flat", cv=.035, price=None, pdec=4):
        s.acct, s.csp, s.svc, s.app, s.fam = acct, csp, svc, app, fam
        s.n, s.kind, s.week, s.cv, s.pdec = n, kind, week, cv, pdec
        s.price = PRICE[fam] if price is None else price
        s.ev = []                  # (from, to, 'p'|'n', mult)
        s.cover, s.cover_price = 0, None   # committed units billed at a contract price
        s.start = s.end = None

    def m(s, day, what):
        x = 1.0
        for a, b, w, f in s.ev:
            if w == what and day >= a and (b is None or day <= b):
                x *= f
        return x


class Bill:
    def __init__(s, idx, anomaly, ndays=42, after=1, partial_last=None):
        s.idx, s.anomaly = idx, anomaly
        s.rng = random.Random(44100 + 97 * idx)
        s.days = [anomaly - dt.timedelta(days=ndays - 1) + dt.timedelta(days=i) for i in range(ndays + after)]
        s.partial_last = partial_last
        s.leaves, s.truth, s.decoys = [], [], []
        s.shuffle = False

    def add(s, *a, **k):
        l = Leaf(*a, **k)
        s.leaves.append(l)
        return l

    def fee(s, acct, csp, svc, fam, daily, app="shared"):
        l = s.add(acct, csp, svc, app, fam, 1, kind="fee", price=daily / 24.0, pdec=6)
        return l

    def sel(s, **kw):
        return [l for l in s.leaves if l.kind != "fee" and all(getattr(l, k) == v for k, v in kw.items())]

    def ev(s, leaves, what, f, frm=None, to=None):
        assert leaves
        for l in leaves:
            l.ev.append((frm or s.anomaly, to, what, f))

    def rows(s):
        keys = [(l.acct, l.csp, l.svc, l.app, l.fam) for l in s.leaves]
        dup = {k for k in keys if keys.count(k) > 1}
        assert not dup, (s.idx, dup)
        out = []
        for l in s.leaves:
            r = random.Random(fnv(f"{s.idx}|{l.acct}|{l.svc}|{l.app}|{l.fam}"))
            for i, day in enumerate(s.days):
                if (l.start and day < l.start) or (l.end and day > l.end):
                    continue
                frac = s.partial_last if (s.partial_last and day > s.anomaly and day == s.days[-1]) else 1.0
                if l.kind == "fee":
                    out.append((day, l, round(l.price, 6), 1, round(l.price * 24 * frac, 4)))
                    continue
                w = WEEK[l.week][day.weekday()]
                if w is None:
                    continue
                p = l.price * l.m(day, "p")
                if l.kind == "db":
                    n = l.n * l.m(day, "n")
                elif l.kind == "store":
                    n = l.n * (1 + .0025 * i) * l.m(day, "n") * math.exp(r.gauss(0, l.cv / 5))
                else:
                    n = l.n * w * l.m(day, "n") * math.exp(r.gauss(0, l.cv))
                if l.cover:
                    c = min(n, l.cover)
                    cost = (c * l.cover_price + max(n - c, 0) * p) * 24
                else:
                    cost = p * n * 24
                pe = cost / 24 / n if n else p
                nout = round(n, 2) if n >= 1 or l.kind != "db" else round(n, 2)
                out.append((day, l, round(pe, l.pdec), nout, round(cost * frac, 4)))
        return out


def fleet(b, acct, csp, svc, apps, fams, sizes=(3, 4, 6, 9), weeks=("flat",), per_app=1, kind="vm", pdec=4):
    out = []
    for app in apps:
        for fam in b.rng.sample(fams, min(per_app, len(fams))):
            out.append(b.add(acct, csp, svc, app, fam, b.rng.choice(sizes), kind=kind, week=b.rng.choice(weeks),
                             pdec=pdec))
    return out


def truth(b, name, typ):
    b.truth.append({"name": name, "type": typ})


S = []


def scenario(cat, acct, cause):
    def deco(fn):
        S.append((cat, acct, cause, fn))
        return fn
    return deco


# accounts (a region-per-account org uses 3 of them)
A_USE1, A_EUW1, A_APSE2 = "203948571602", "203948571619", "203948571626"
B1, B2 = "660145239871", "660145239888"
C1 = "917350026644"
G1 = "finops-prod-gcp"   # some exports carry an alias, not a number
Z1 = "5e0c2a7b-payg-01"  # an Azure subscription id fragment

APPS = ["orders-api", "catalog", "search-indexer", "recs", "auth", "media", "billing-svc", "ledger",
        "mobile-bff", "events", "ml-feature", "reporting", "storefront-apac", "kyc", "chat", "telemetry"]


def aws_estate(b, acct, apps, weeks=("flat", "office"), storage=True, extra=True):
    fleet(b, acct, "AWS", "EC2", apps, ["m6i.xlarge", "c6g.4xlarge", "r6i.xlarge", "t3.medium"], weeks=weeks)
    fleet(b, acct, "AWS", "RDS", apps[:3], ["db.m6g.large", "db.t4g.medium"], sizes=(1, 2), kind="db")
    if storage:
        for a in apps[:2]:
            b.add(acct, "AWS", "S3", a, "S3-Standard", round(b.rng.uniform(100, 600)), kind="store", pdec=4)
    if extra:
        for a in apps[1:3]:
            b.add(acct, "AWS", "ELB", a, "ELB-LCU", round(b.rng.uniform(40, 120), 1), week="req", cv=.06)


# ============================================================ A: one family / SKU repriced across every app
@scenario("family-repriced", B1, "m6i.xlarge list price +28% in every application, in EC2 and EKS nodes alike; other families flat")
def s1(i):
    b = Bill(i, D(2026, 3, 17))
    apps = ["orders-api", "catalog", "auth", "events", "mobile-bff"]
    for a in apps:
        b.add(B1, "AWS", "EC2", a, "m6i.xlarge", b.rng.choice((3, 5, 8)), week=b.rng.choice(("flat", "office")))
        b.add(B1, "AWS", "EC2", a, b.rng.choice(["c6g.4xlarge", "r6i.xlarge", "t3.medium"]), b.rng.choice((2, 4, 6)))
    for a in ["recs", "ml-feature"]:
        b.add(B1, "AWS", "EKS", a, "m6i.xlarge", b.rng.choice((6, 10)))
        b.add(B1, "AWS", "EKS", a, "m6i.2xlarge", 4)
        b.add(B1, "AWS", "EKS", a, "EKS-Control-Plane", 1, kind="db")
    fleet(b, B1, "AWS", "RDS", apps[:3], ["db.m6g.large"], sizes=(1, 2), kind="db")
    b.ev([l for l in b.leaves if l.fam == "m6i.xlarge"], "p", 1.28)
    aws_estate(b, B2, ["reporting", "kyc"], storage=False)
    b.ev([l for l in b.sel(acct=B2) if l.fam == "m6i.xlarge"], "p", 1.28)
    truth(b, "m6i.xlarge", "Instance_Family")
    return b


@scenario("family-repriced", G1, "n2-standard-8 sustained-use discount withdrawn (+25%) on every GKE and Compute Engine app; n2-standard-4 beside it unchanged")
def s2(i):
    b = Bill(i, D(2026, 4, 22))
    for a in ["catalog", "search-indexer", "recs", "media"]:
        b.add(G1, "GCP", "GKE", a, "n2-standard-8", b.rng.choice((4, 6, 9)))
        b.add(G1, "GCP", "GKE", a, "n2-standard-4", b.rng.choice((3, 6)))
    for a in ["reporting", "events"]:
        b.add(G1, "GCP", "Compute Engine", a, "n2-standard-8", b.rng.choice((2, 3)), week="office")
        b.add(G1, "GCP", "Compute Engine", a, "e2-standard-8", 4)
    b.add(G1, "GCP", "Cloud SQL", "catalog", "db-custom-4-16384", 2, kind="db")
    b.add(G1, "GCP", "Cloud Storage", "media", "GCS-Standard", 2600, kind="store")
    b.ev([l for l in b.leaves if l.fam == "n2-standard-8"], "p", 1.25)
    truth(b, "n2-standard-8", "Instance_Family")
    return b


@scenario("family-repriced", Z1, "Azure reservation for D8s_v5 expires: D8s_v5 x1.6 in every application (office estate), other VM sizes flat")
def s3(i):
    b = Bill(i, D(2026, 6, 2))
    for a in ["orders-api", "billing-svc", "ledger", "kyc"]:
        b.add(Z1, "Azure", "Virtual Machines", a, "D8s_v5", b.rng.choice((2, 3, 5)), week="office")
        b.add(Z1, "Azure", "Virtual Machines", a, b.rng.choice(["D4s_v5", "E8s_v5", "F8s_v2"]), b.rng.choice((2, 4)),
              week="office")
    for a in ["orders-api", "ledger"]:
        b.add(Z1, "Azure", "Azure SQL Database", a, "GP_Gen5_4", 1, kind="db")
        b.add(Z1, "Azure", "Managed Disks", a, "Premium-SSD-P30", 12, kind="db")
    b.add(Z1, "Azure", "AKS", "chat", "D8s_v5", 6)
    b.add(Z1, "Azure", "AKS", "chat", "B2s", 3)
    b.ev([l for l in b.leaves if l.fam == "D8s_v5"], "p", 1.6)
    truth(b, "D8s_v5", "Instance_Family")
    return b


@scenario("family-repriced", B2, "S3 Standard storage price +20% in every bucket; Standard-IA, GET requests and everything else unchanged")
def s4(i):
    b = Bill(i, D(2026, 7, 9))
    for a in ["media", "reporting", "ml-feature", "events"]:
        b.add(B2, "AWS", "S3", a, "S3-Standard", round(b.rng.uniform(1500, 6000)), kind="store")
        b.add(B2, "AWS", "S3", a, "S3-Standard-IA", round(b.rng.uniform(3000, 9000)), kind="store")
    b.add(B2, "AWS", "S3", "media", "S3-GET-Requests", 9.0e6, week="req", cv=.07, pdec=7)
    fleet(b, B2, "AWS", "EC2", ["media", "reporting", "events"], ["m6i.xlarge", "c6g.4xlarge"], sizes=(3, 5))
    b.add(B2, "AWS", "CloudFront", "media", "CloudFront-Egress-GB", 900, week="req", cv=.06)
    b.ev(b.sel(fam="S3-Standard"), "p", 1.2)
    truth(b, "S3-Standard", "Instance_Family")
    return b


@scenario("family-repriced", C1, "db.r6g.large +30% (Graviton2 RDS price change) in every application; db.m6g/db.r6g.2xlarge unchanged")
def s5(i):
    b = Bill(i, D(2026, 9, 1))
    for a in ["orders-api", "ledger", "auth", "kyc", "billing-svc"]:
        b.add(C1, "AWS", "RDS", a, "db.r6g.large", b.rng.choice((4, 6, 8)), kind="db")
    b.add(C1, "AWS", "RDS", "reporting", "db.r6g.2xlarge", 2, kind="db")
    b.add(C1, "AWS", "RDS", "events", "db.m6g.large", 2, kind="db")
    b.add(C1, "AWS", "ElastiCache", "auth", "cache.r6g.large", 3, kind="db")
    aws_estate(b, C1, ["orders-api", "ledger", "reporting", "events"], storage=True, extra=False)
    b.fee(C1, "AWS", "Support", "Business-Support", 310.0)
    b.ev(b.sel(fam="db.r6g.large"), "p", 1.3)
    truth(b, "db.r6g.large", "Instance_Family")
    return b


@scenario("family-repriced", B1, "t4g.micro +30% across a 2,000-instance IoT estate in every application; price column has 2 decimals (0.01 before and after)")
def s6(i):
    b = Bill(i, D(2026, 10, 14))
    for a, n in [("telemetry", 900), ("events", 600), ("chat", 350), ("mobile-bff", 250)]:
        b.add(B1, "AWS", "EC2", a, "t4g.micro", n, cv=.01, pdec=2)
        b.add(B1, "AWS", "EC2", a, "m7g.large", b.rng.choice((4, 6, 10)), pdec=2)
    b.add(B1, "AWS", "RDS", "telemetry", "db.r6g.large", 2, kind="db", pdec=2)
    b.add(B1, "AWS", "S3", "telemetry", "S3-Standard", 1200, kind="store", pdec=2)
    b.ev(b.sel(fam="t4g.micro"), "p", 1.3)
    truth(b, "t4g.micro", "Instance_Family")
    return b


# ============================================================ B: one region repriced
@scenario("region", A_APSE2, "ap-southeast-2 (this account is the Sydney region of a one-account-per-region org): every AWS line +15%; the us-east-1 and eu-west-1 accounts flat; a small GCP line in the account flat")
def s7(i):
    b = Bill(i, D(2026, 2, 24))
    for acct, apps in [(A_USE1, ["orders-api", "catalog", "auth", "events"]),
                       (A_EUW1, ["orders-api", "catalog", "kyc"]),
                       (A_APSE2, ["orders-api", "catalog", "storefront-apac"])]:
        aws_estate(b, acct, apps)
    b.add(A_APSE2, "GCP", "BigQuery", "reporting", "BQ-Analysis-TiB", 0.35, week="office", cv=.08)
    b.ev([l for l in b.sel(acct=A_APSE2, csp="AWS")], "p", 1.15)
    truth(b, "AWS", "CSP")
    return b


@scenario("region", A_EUW1, "eu-west-1 EC2 repriced (+30%) in the Ireland account only: every EC2 app there rises; RDS/S3/ELB there and EC2 in the other regions' accounts flat")
def s8(i):
    b = Bill(i, D(2026, 5, 12))
    for acct, apps in [(A_USE1, ["orders-api", "catalog", "auth", "media"]),
                       (A_EUW1, ["orders-api", "catalog", "kyc", "ledger"]),
                       (A_APSE2, ["orders-api", "storefront-apac"])]:
        aws_estate(b, acct, apps)
    b.ev(b.sel(acct=A_EUW1, svc="EC2"), "p", 1.30)
    truth(b, "EC2", "Cloud_Service")
    return b


@scenario("region", B2, "the Sydney region's prices +16%; the only application deployed there (storefront-apac: EC2, RDS, CloudFront, S3) rises on every line; the same families elsewhere flat")
def s9(i):
    b = Bill(i, D(2026, 8, 18))
    aws_estate(b, B2, ["orders-api", "catalog", "auth", "search-indexer", "media"])
    sa = "storefront-apac"
    b.add(B2, "AWS", "EC2", sa, "m6i.xlarge", 6)
    b.add(B2, "AWS", "EC2", sa, "c6g.4xlarge", 3)
    b.add(B2, "AWS", "RDS", sa, "db.m6g.large", 2, kind="db")
    b.add(B2, "AWS", "CloudFront", sa, "CloudFront-Egress-GB", 420, week="req", cv=.05)
    b.add(B2, "AWS", "S3", sa, "S3-Standard", 900, kind="store")
    b.ev(b.sel(app=sa), "p", 1.16)
    truth(b, sa, "Application")
    return b


# ============================================================ C: price changes the export rounds away
@scenario("rounded-away", C1, "Lambda price +20% (GB-second and requests) in every application; the export writes Price ($/hr) with 4 decimals, so both unit prices read 0.0 before and after")
def s10(i):
    b = Bill(i, D(2026, 3, 3))
    for a in ["orders-api", "auth", "events", "mobile-bff", "kyc"]:
        b.add(C1, "AWS", "Lambda", a, "Lambda-GB-Second", round(b.rng.uniform(1.2e6, 4.0e6)), week="req", cv=.05, pdec=4)
        b.add(C1, "AWS", "Lambda", a, "Lambda-Requests", round(b.rng.uniform(2.0e6, 8.0e6)), week="req", cv=.05, pdec=4)
    aws_estate(b, C1, ["orders-api", "catalog", "ledger"], extra=True)
    b.ev(b.sel(svc="Lambda"), "p", 1.2)
    truth(b, "Lambda", "Cloud_Service")
    return b


@scenario("rounded-away", B1, "S3 PUT-request price x2 in every application (a request-tier change); per-request price 0.000005 -> 0.00001 is written with 4 decimals (0.0); S3 storage and GET flat")
def s11(i):
    b = Bill(i, D(2026, 6, 23))
    for a in ["media", "events", "telemetry", "ml-feature"]:
        b.add(B1, "AWS", "S3", a, "S3-PUT-Requests", round(b.rng.uniform(3e6, 9e6)), week="req", cv=.05, pdec=4)
        b.add(B1, "AWS", "S3", a, "S3-GET-Requests", round(b.rng.uniform(2e7, 6e7)), week="req", cv=.05, pdec=4)
        b.add(B1, "AWS", "S3", a, "S3-Standard", round(b.rng.uniform(500, 3000)), kind="store", pdec=4)
    fleet(b, B1, "AWS", "EC2", ["media", "events", "telemetry"], ["c6g.4xlarge", "m6i.xlarge"], sizes=(4, 6))
    b.ev(b.sel(fam="S3-PUT-Requests"), "p", 2.0)
    truth(b, "S3-PUT-Requests", "Instance_Family")
    return b


@scenario("rounded-away", Z1, "Azure prices +10% on every line; the export writes Price ($/hr) with 2 decimals, so the per-unit SKUs (Functions GB-s, Hot LRS per GB) read 0.0 before and after and VM/SQL prices move by a cent or two")
def s12(i):
    b = Bill(i, D(2026, 11, 10), after=2, partial_last=.45)
    for a in ["orders-api", "billing-svc", "chat"]:
        b.add(Z1, "Azure", "Virtual Machines", a, "D4s_v5", b.rng.choice((3, 5)), pdec=2)
        b.add(Z1, "Azure", "Virtual Machines", a, "B2s", b.rng.choice((10, 20, 30)), pdec=2)
    b.add(Z1, "Azure", "Functions", "events", "Functions-GB-s", 2.4e6, week="req", cv=.06, pdec=2)
    b.add(Z1, "Azure", "Functions", "chat", "Functions-GB-s", 1.1e6, week="req", cv=.06, pdec=2)
    b.add(Z1, "Azure", "Storage", "media", "Hot-LRS-GB", 1.9e6, kind="store", pdec=2)
    b.add(Z1, "Azure", "Azure SQL Database", "billing-svc", "GP_Gen5_4", 2, kind="db", pdec=2)
    b.ev(b.sel(acct=Z1, csp="Azure"), "p", 1.10)
    truth(b, "Azure", "CSP")
    return b


# ============================================================ D: usage changes on the day of a price change
@scenario("price+usage", B2, "EC2 on-demand price +25% in every application; the same day reporting's fleet is scaled down 35% (planned), so its EC2 line falls")
def s13(i):
    b = Bill(i, D(2026, 1, 20))
    aws_estate(b, B2, ["orders-api", "catalog", "auth", "reporting", "events"], weeks=("flat",))
    b.ev(b.sel(svc="EC2"), "p", 1.25)
    b.ev(b.sel(svc="EC2", app="reporting"), "n", .65)
    b.decoys.append("reporting EC2 x0.65 instances the same day")
    truth(b, "EC2", "Cloud_Service")
    return b


@scenario("price+usage", C1, "c7i.2xlarge price cut -20% in every application (new savings plan rate) and the same day c7i.2xlarge x3 instances in ml-feature: the only rise is ml-feature's c7i.2xlarge")
def s14(i):
    b = Bill(i, D(2026, 4, 7))
    for a in ["ml-feature", "search-indexer", "recs"]:
        b.add(C1, "AWS", "EC2", a, "c7i.2xlarge", b.rng.choice((4, 6)))
    aws_estate(b, C1, ["orders-api", "auth", "search-indexer", "recs"])
    b.ev(b.sel(fam="c7i.2xlarge"), "p", .8)
    b.ev(b.sel(fam="c7i.2xlarge", app="ml-feature"), "n", 3.0)
    b.decoys.append("c7i.2xlarge -20% in search-indexer and recs")
    truth(b, "c7i.2xlarge", "Instance_Family")
    return b


@scenario("price+usage", G1, "GCP prices +12% on every line; the same day search-indexer's GKE nodes drop 30% (index rebuild finished)")
def s15(i):
    b = Bill(i, D(2026, 7, 28))
    fleet(b, G1, "GCP", "GKE", ["catalog", "search-indexer", "recs", "chat"], ["n2-standard-8", "e2-standard-8", "t2d-standard-8"],
          sizes=(4, 6, 8), per_app=2)
    b.add(G1, "GCP", "Cloud SQL", "catalog", "db-custom-8-32768", 2, kind="db")
    b.add(G1, "GCP", "Memorystore", "recs", "redis-standard-m4", 3, kind="db")
    b.add(G1, "GCP", "Cloud Storage", "search-indexer", "GCS-Standard", 4200, kind="store")
    b.add(G1, "GCP", "BigQuery", "reporting", "BQ-Analysis-TiB", 1.6, week="office", cv=.09)
    b.ev(b.sel(csp="GCP"), "p", 1.12)
    b.ev(b.sel(svc="GKE", app="search-indexer"), "n", .7)
    b.decoys.append("search-indexer GKE x0.7 instances the same day")
    truth(b, "GCP", "CSP")
    return b


@scenario("price+usage", G1, "two causes on one day: Cloud SQL price +30% on every database, and n2-highcpu-16 x3 in events' GKE pool")
def s16(i):
    b = Bill(i, D(2026, 9, 15))
    for a in ["orders-api", "catalog", "ledger", "kyc"]:
        b.add(G1, "GCP", "Cloud SQL", a, b.rng.choice(["db-custom-4-16384", "db-custom-8-32768"]), b.rng.choice((1, 2)), kind="db")
    fleet(b, G1, "GCP", "GKE", ["catalog", "recs", "chat"], ["n2-standard-8", "e2-standard-8"], sizes=(4, 6))
    b.add(G1, "GCP", "GKE", "events", "n2-highcpu-16", 4)
    b.add(G1, "GCP", "GKE", "events", "n2-standard-4", 6)
    b.add(G1, "GCP", "Cloud Run", "mobile-bff", "CloudRun-vCPU-s", 1.5e5, week="req", cv=.06, pdec=6)
    b.ev(b.sel(svc="Cloud SQL"), "p", 1.3)
    b.ev(b.sel(fam="n2-highcpu-16"), "n", 3.0)
    truth(b, "Cloud SQL", "Cloud_Service")
    truth(b, "n2-highcpu-16", "Instance_Family")
    return b


# ============================================================ E: wide rises beside lines that kept their price
@scenario("wide-beside-kept", A_USE1, "AWS list prices +10%; RI-covered capacity keeps its contract price: 3 fleets fully covered (unchanged), others partly covered (blended rise 3-8%), the rest on demand (+10%)")
def s17(i):
    b = Bill(i, D(2026, 3, 31))
    aws_estate(b, A_USE1, ["orders-api", "catalog", "auth", "events", "ledger", "media"])
    ec2 = b.sel(svc="EC2")
    for k, l in enumerate(ec2):
        if k % 3 == 0:        # fully covered
            l.cover, l.cover_price = l.n * 3, l.price * .62
        elif k % 3 == 1:      # partly covered
            l.cover, l.cover_price = max(1, int(l.n * .6)), l.price * .62
    for l in b.sel(svc="RDS")[:2]:
        l.cover, l.cover_price = l.n, l.price * .66
    b.fee(A_USE1, "AWS", "Support", "Business-Support", 240.0)
    b.ev(b.sel(csp="AWS"), "p", 1.10)
    truth(b, "AWS", "CSP")
    return b


@scenario("wide-beside-kept", C1, "RDS price +25% on every database except the two reserved ones (orders-api, ledger), which keep their contract price")
def s18(i):
    b = Bill(i, D(2026, 5, 5))
    dbs = []
    for a in ["orders-api", "ledger", "auth", "kyc", "billing-svc", "reporting"]:
        dbs.append(b.add(C1, "AWS", "RDS", a, b.rng.choice(["db.r6g.large", "db.m6g.large", "db.t4g.medium"]),
                         b.rng.choice((1, 2)), kind="db"))
    for l in dbs[:2]:
        l.cover, l.cover_price = l.n, l.price * .6
    aws_estate(b, C1, ["orders-api", "catalog", "events", "search-indexer"], storage=False)
    b.ev(b.sel(svc="RDS"), "p", 1.25)
    truth(b, "RDS", "Cloud_Service")
    return b


@scenario("wide-beside-kept", G1, "GCP prices +15%; a Marketplace subscription, a BigQuery slot commitment and Premium Support are fixed daily amounts that do not move")
def s19(i):
    b = Bill(i, D(2026, 8, 4))
    fleet(b, G1, "GCP", "GKE", ["catalog", "recs", "chat", "search-indexer"], ["n2-standard-8", "e2-standard-8"], sizes=(3, 5, 7))
    fleet(b, G1, "GCP", "Compute Engine", ["reporting", "events"], ["c3-standard-4", "n2-standard-4"], sizes=(2, 4), weeks=("office",))
    b.add(G1, "GCP", "Cloud SQL", "catalog", "db-custom-8-32768", 1, kind="db")
    b.add(G1, "GCP", "Cloud Storage", "recs", "GCS-Standard", 3100, kind="store")
    b.fee(G1, "GCP", "Marketplace", "Elastic-Cloud-Subscription", 410.0)
    b.fee(G1, "GCP", "BigQuery", "Slot-Commitment-500", 480.0, app="reporting")
    b.fee(G1, "GCP", "Support", "Premium-Support", 290.0)
    b.ev(b.sel(csp="GCP"), "p", 1.15)
    truth(b, "GCP", "CSP")
    return b


@scenario("wide-beside-kept", Z1, "Virtual Machines pay-as-you-go prices +20% in every application; the spot lines (D8s_v5-Spot, E8s_v5-Spot) keep their price; other Azure services flat")
def s20(i):
    b = Bill(i, D(2026, 10, 27))
    for a in ["orders-api", "media", "billing-svc", "chat", "ml-feature"]:
        b.add(Z1, "Azure", "Virtual Machines", a, b.rng.choice(["D8s_v5", "E8s_v5", "F8s_v2", "D4s_v5"]), b.rng.choice((2, 4, 6)))
    for a, f in [("media", "D8s_v5-Spot"), ("ml-feature", "E8s_v5-Spot")]:
        b.add(Z1, "Azure", "Virtual Machines", a, f, 14, cv=.08)
    b.add(Z1, "Azure", "Azure SQL Database", "billing-svc", "GP_Gen5_4", 2, kind="db")
    b.add(Z1, "Azure", "Managed Disks", "media", "Premium-SSD-P30", 20, kind="db")
    b.add(Z1, "Azure", "AKS", "chat", "B2s", 8)
    b.ev([l for l in b.sel(svc="Virtual Machines") if not l.fam.endswith("-Spot")], "p", 1.2)
    truth(b, "Virtual Machines", "Cloud_Service")
    return b


@scenario("wide-beside-kept", B2, "CloudFront egress and request prices +30% in every application except media, whose private-pricing contract keeps its rate")
def s21(i):
    b = Bill(i, D(2026, 12, 8))
    cf = []
    for a, gb in [("media", 2500), ("storefront-apac", 700), ("mobile-bff", 900), ("catalog", 600)]:
        cf.append(b.add(B2, "AWS", "CloudFront", a, "CloudFront-Egress-GB", gb, week="req", cv=.05))
        cf.append(b.add(B2, "AWS", "CloudFront", a, "CloudFront-Requests", gb * 900, week="req", cv=.05, pdec=7))
    aws_estate(b, B2, ["catalog", "mobile-bff", "media", "auth"])
    b.ev([l for l in cf if l.app != "media"], "p", 1.3)
    truth(b, "CloudFront", "Cloud_Service")
    return b


# ============================================================ F: resource-level controls
@scenario("control", A_USE1, "c6g.4xlarge x3 instances in search-indexer (reindex fan-out); the family elsewhere unchanged")
def s22(i):
    b = Bill(i, D(2026, 2, 11))
    aws_estate(b, A_USE1, ["orders-api", "catalog", "auth", "events"])
    b.add(A_USE1, "AWS", "EC2", "search-indexer", "c6g.4xlarge", 5)
    b.add(A_USE1, "AWS", "EC2", "search-indexer", "r6i.xlarge", 3)
    b.ev(b.sel(app="search-indexer", fam="c6g.4xlarge"), "n", 3.0)
    aws_estate(b, A_EUW1, ["orders-api", "kyc"])
    truth(b, "c6g.4xlarge", "Instance_Family")
    return b


@scenario("control", B1, "new p5.48xlarge GPU fleet (2 instances) in ml-feature from the day on; everything else unchanged; one day after the anomaly, partial")
def s23(i):
    b = Bill(i, D(2026, 5, 19), after=2, partial_last=.4)
    aws_estate(b, B1, ["orders-api", "catalog", "ml-feature", "recs", "events"])
    g = b.add(B1, "AWS", "EC2", "ml-feature", "p5.48xlarge", 2, cv=.0)
    g.start = b.anomaly
    truth(b, "p5.48xlarge", "Instance_Family")
    return b


@scenario("control", C1, "r7i.2xlarge (only in kyc) loses its spot capacity: billed on demand, unit price x2.8, instance count unchanged; the AWS price list otherwise unchanged")
def s24(i):
    b = Bill(i, D(2026, 7, 15))
    aws_estate(b, C1, ["orders-api", "catalog", "kyc", "auth", "ledger"])
    l = b.add(C1, "AWS", "EC2", "kyc", "r7i.2xlarge", 14, price=PRICE["r7i.2xlarge"] / 2.8)
    b.ev([l], "p", 2.8)
    truth(b, "r7i.2xlarge", "Instance_Family")
    return b


@scenario("control", G1, "recs doubles on every line (two GKE node pools, Memorystore, Cloud Run): a launch; other applications flat")
def s25(i):
    b = Bill(i, D(2026, 9, 30))
    fleet(b, G1, "GCP", "GKE", ["catalog", "chat", "search-indexer"], ["n2-standard-8", "e2-standard-8"], sizes=(4, 6))
    b.add(G1, "GCP", "GKE", "recs", "n2-standard-8", 5)
    b.add(G1, "GCP", "GKE", "recs", "c3-standard-4", 4)
    b.add(G1, "GCP", "Memorystore", "recs", "redis-standard-m4", 2, kind="db")
    b.add(G1, "GCP", "Cloud Run", "recs", "CloudRun-vCPU-s", 9.0e4, week="req", cv=.05, pdec=6)
    b.add(G1, "GCP", "Cloud SQL", "catalog", "db-custom-4-16384", 2, kind="db")
    b.ev(b.sel(app="recs"), "n", 2.0)
    truth(b, "recs", "Application")
    return b


@scenario("control", Z1, "E8s_v5 x2.5 in ledger on a Sunday (month-end close started early); a weekly Sunday reindex (x1.9) on search-indexer is the usual habit")
def s26(i):
    b = Bill(i, D(2026, 11, 29))
    for a in ["orders-api", "billing-svc", "chat"]:
        b.add(Z1, "Azure", "Virtual Machines", a, b.rng.choice(["D8s_v5", "D4s_v5", "F8s_v2"]), b.rng.choice((3, 5)))
    b.add(Z1, "Azure", "Virtual Machines", "ledger", "E8s_v5", 4)
    b.add(Z1, "Azure", "Virtual Machines", "ledger", "D4s_v5", 3)
    b.add(Z1, "Azure", "Virtual Machines", "search-indexer", "F8s_v2", 6, week="sun")
    b.add(Z1, "Azure", "Azure SQL Database", "ledger", "GP_Gen5_4", 2, kind="db")
    b.ev(b.sel(app="ledger", fam="E8s_v5"), "n", 2.5)
    b.decoys.append("weekly Sunday x1.9 on search-indexer/F8s_v2")
    truth(b, "E8s_v5", "Instance_Family")
    return b


# ------------------------------------------------------------ output
COLS = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family", "Price ($/hr)",
        "Num_Instances", "unblended_cost"]


def difficulty(rows, acct, anomaly):
    tot = {}
    for d, l, _, _, c in rows:
        if l.acct == acct:
            tot[d] = tot.get(d, 0.0) + c
    same = sorted(x for x in (tot.get(anomaly - dt.timedelta(days=7 * k)) for k in range(1, 5)) if x)
    med = (same[len(same) // 2] + same[(len(same) - 1) // 2]) / 2
    wow = sorted(abs(tot[d] / tot[d - dt.timedelta(days=7)] - 1) for d in tot
                 if d < anomaly and (d - dt.timedelta(days=7)) in tot)
    noise = 1.4826 * wow[len(wow) // 2] if wow else 0
    rel = tot[anomaly] / med - 1
    return rel, (rel / noise if noise else float("inf"))


def fmt(x):
    s = repr(x)
    if "e" in s:
        s = f"{x:.10f}".rstrip("0").rstrip(".")
        if s in ("", "-0"):
            s = "0.0"
    return s


def main(out):
    os.makedirs(out, exist_ok=True)
    table = []
    for i, (cat, acct, cause, fn) in enumerate(S, 1):
        b = fn(i)
        rows = b.rows()
        rows.sort(key=lambda r: (r[0], r[1].acct, r[1].csp, r[1].svc, r[1].app, r[1].fam))
        if i % 6 == 4:
            random.Random(i).shuffle(rows)
        d = os.path.join(out, f"Scenario-{i}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "data.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(COLS)
            for day, l, p, n, c in rows:
                w.writerow([day.isoformat(), l.acct, l.csp, l.svc, l.app, l.fam, fmt(p), fmt(n), fmt(c)])
        with open(os.path.join(d, "anomaly.json"), "w") as f:
            json.dump({"date": b.anomaly.isoformat(), "account_id": acct}, f)
            f.write("\n")
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            f.write("resource:\n")
            for t in b.truth:
                f.write(f"  - name: \"{t['name']}\"\n    type: {t['type']}\n")
        rel, z = difficulty(rows, acct, b.anomaly)
        table.append({"scenario": f"Scenario-{i}", "category": cat, "account": acct, "date": b.anomaly.isoformat(),
                      "weekday": b.anomaly.strftime("%a"), "truth": b.truth, "cause": cause, "decoys": b.decoys,
                      "rows": len(rows), "rel": round(rel, 4), "z": round(z, 1)})
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    for t in table:
        tr = "; ".join(f"{x['name']} ({x['type']})" for x in t["truth"])
        print(f"| {t['scenario']} | {t['category']} | {tr} | {t['date']} {t['weekday']} | {t['cause']} | "
              f"{'; '.join(t['decoys']) or '—'} | {t['rel']:+.1%} | {t['z']} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
