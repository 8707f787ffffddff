#!/usr/bin/env python3
"""finops-set20: held-out FinOps billing scenarios (stdlib only, deterministic).

python gen.py OUT  -> OUT/Scenario-<N>/{data.csv|focus.csv, anomaly.json, ground_truth.yaml, scenario.json}
"""
import csv
import datetime as dt
import io
import json
import math
import os
import random
import sys

D = dt.date
ONE = dt.timedelta(days=1)


def drange(start, n):
    return [start + ONE * i for i in range(n)]


def fmt(x, nd=4):
    s = f"{x:.{nd}f}"
    if s.startswith("-") and float(s) == 0:
        s = s[1:]
    return s


def write_csv(path, header, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow(r)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(buf.getvalue())


def write_truth(sdir, truth):
    lines = ["resource:"] if truth else ["resource: []"]
    for name, typ in truth:
        lines.append(f"- name: {json.dumps(name)}")
        lines.append(f"  type: {typ}")
    with open(os.path.join(sdir, "ground_truth.yaml"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def write_meta(sdir, alert, account, meta):
    with open(os.path.join(sdir, "anomaly.json"), "w", encoding="utf-8") as f:
        json.dump({"date": alert.isoformat(), "account_id": account}, f)
    with open(os.path.join(sdir, "scenario.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2, sort_keys=True)
        f.write("\n")


# ----------------------------------------------------------------------------------------------
# ITBench-Lite data.csv
# ----------------------------------------------------------------------------------------------
LITE_HEADER = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
               "Price ($/hr)", "Num_Instances", "unblended_cost"]


class LiteLine:
    def __init__(self, csp, svc, app, fam, price, n, weekend=1.0, noise=0.06, start=None, end=None,
                 monthend=1.0, hours=24):
        self.csp, self.svc, self.app, self.fam = csp, svc, app, fam
        self.price, self.n, self.weekend, self.noise = price, n, weekend, noise
        self.start, self.end, self.monthend, self.hours = start, end, monthend, hours
        self.price_fn = None  # date -> price
        self.n_fn = None      # (date, n) -> n


def last_days_of_month(d, k):
    nxt = (d.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return (nxt - d).days <= k


def lite_rows(rng, account, lines, days):
    rows = []
    for d in days:
        for ln in lines:
            if ln.start and d < ln.start:
                continue
            if ln.end and d > ln.end:
                continue
            n = ln.n
            if d.weekday() >= 5:
                n *= ln.weekend
            if ln.monthend != 1.0 and last_days_of_month(d, 2):
                n *= ln.monthend
            if ln.n_fn:
                n = ln.n_fn(d, n)
            n = n * (1 + rng.uniform(-ln.noise, ln.noise))
            n = max(0, int(round(n)))
            price = ln.price_fn(d) if ln.price_fn else ln.price
            cost = price * n * ln.hours
            rows.append([d.isoformat(), account, ln.csp, ln.svc, ln.app, ln.fam, fmt(price),
                         str(n), fmt(cost)])
    return rows


# ----------------------------------------------------------------------------------------------
# FOCUS-like export
# ----------------------------------------------------------------------------------------------
FOCUS_BASE = ["BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency",
              "BillingPeriodStart", "BillingPeriodEnd", "ChargeCategory", "ChargeClass",
              "ChargeDescription", "ChargeFrequency", "ChargePeriodStart", "ChargePeriodEnd",
              "CommitmentDiscountId", "CommitmentDiscountType", "ConsumedQuantity", "ConsumedUnit",
              "EffectiveCost", "InvoiceIssuerName", "ListCost", "PricingCategory", "PricingQuantity",
              "PricingUnit", "ProviderName", "PublisherName", "RegionId", "RegionName",
              "AvailabilityZone", "ResourceId", "ResourceName", "ResourceType", "ServiceCategory",
              "ServiceName", "SkuId", "SubAccountId", "SubAccountName", "Tags"]


class FLine:
    """A recurring FOCUS charge line.  cost(d, h) gives the base cost of one period."""

    def __init__(self, **kw):
        self.a = dict(kw.pop("attrs"))
        self.base = kw.pop("base")          # per-day cost
        self.unit_price = kw.pop("unit_price", None)
        self.weekend = kw.pop("weekend", 1.0)
        self.noise = kw.pop("noise", 0.05)
        self.start = kw.pop("start", None)
        self.end = kw.pop("end", None)
        self.mult = kw.pop("mult", None)    # date -> multiplier (anomaly / habit)
        self.profile = kw.pop("profile", None)  # hour -> weight (hourly bills)
        self.freq = kw.pop("freq", "Usage-Based")
        self.cat = kw.pop("cat", "Usage")
        self.on_day = kw.pop("on_day", None)  # date -> bool (one-time/recurring fees)
        self.list_ratio = kw.pop("list_ratio", 1.0)
        self.effective_ratio = kw.pop("effective_ratio", 1.0)
        self.attr_fn = kw.pop("attr_fn", None)  # date -> dict overrides
        assert not kw, kw


def month_bounds(d):
    s = d.replace(day=1)
    e = (s + dt.timedelta(days=32)).replace(day=1)
    return s, e


def focus_rows(rng, fixed, lines, days, hourly=False, first_hour=0, last_hour=24, cols=None,
               nd=6, ts_fmt="%Y-%m-%d %H:%M:%S", last_frac=1.0):
    cols = cols or FOCUS_BASE
    rows = []
    rid = 0
    for di, d in enumerate(days):
        hours = [None]
        if hourly:
            lo = first_hour if di == 0 else 0
            hi = last_hour if di == len(days) - 1 else 24
            hours = list(range(lo, hi))
        for h in hours:
            for ln in lines:
                if ln.start and d < ln.start:
                    continue
                if ln.end and d > ln.end:
                    continue
                if ln.on_day and not ln.on_day(d):
                    continue
                if ln.on_day and hourly and h != 0:
                    continue
                c = ln.base
                if d.weekday() >= 5:
                    c *= ln.weekend
                if ln.mult:
                    c *= ln.mult(d)
                if hourly and not ln.on_day:
                    w = ln.profile[h] if ln.profile else 1 / 24
                    c *= w
                if not hourly and not ln.on_day and di == len(days) - 1:
                    c *= last_frac  # the export was cut part-way through its last day
                if ln.noise:
                    c *= 1 + rng.uniform(-ln.noise, ln.noise)
                if abs(c) < 1e-9:
                    c = 0.0
                a = dict(fixed)
                a.update(ln.a)
                if ln.attr_fn:
                    a.update(ln.attr_fn(d))
                if hourly and h is not None:
                    s = dt.datetime(d.year, d.month, d.day, h)
                    e = s + dt.timedelta(hours=1)
                else:
                    s = dt.datetime(d.year, d.month, d.day)
                    e = s + ONE
                if ln.on_day and ln.freq != "Usage-Based":
                    s = dt.datetime(d.year, d.month, d.day)
                    ms, me = month_bounds(d)
                    e = dt.datetime(me.year, me.month, me.day) if ln.freq == "Recurring" else s + ONE
                bs, be = month_bounds(d)
                a["BilledCost"] = fmt(c, nd)
                a["EffectiveCost"] = fmt(c * ln.effective_ratio, nd)
                a["ListCost"] = fmt(c * ln.list_ratio, nd)
                a["ChargeCategory"] = ln.cat
                a["ChargeFrequency"] = ln.freq
                a["ChargePeriodStart"] = s.strftime(ts_fmt)
                a["ChargePeriodEnd"] = e.strftime(ts_fmt)
                a["BillingPeriodStart"] = dt.datetime(bs.year, bs.month, 1).strftime(ts_fmt)
                a["BillingPeriodEnd"] = dt.datetime(be.year, be.month, 1).strftime(ts_fmt)
                if ln.unit_price:
                    q = c / ln.unit_price if ln.unit_price else 0
                    a["ConsumedQuantity"] = fmt(q, 6)
                    a["PricingQuantity"] = fmt(q, 6)
                rid += 1
                if "x_RowId" in cols:
                    a["x_RowId"] = str(rid)
                rows.append([a.get(k, "") for k in cols])
    return rows


def aws_region_name(r):
    return {
        "us-east-1": "US East (N. Virginia)", "us-east-2": "US East (Ohio)",
        "us-west-2": "US West (Oregon)", "eu-west-1": "Europe (Ireland)",
        "eu-central-1": "Europe (Frankfurt)", "ap-southeast-2": "Asia Pacific (Sydney)",
        "ap-northeast-1": "Asia Pacific (Tokyo)", "eu-west-2": "Europe (London)",
        "sa-east-1": "South America (Sao Paulo)",
    }.get(r, r)


def tags(**kw):
    return json.dumps(kw, sort_keys=False) if kw else ""


def ramp(start, days, top, end=None):
    """multiplier 1 before start, rising linearly to `top` over `days` days, optional end date."""
    def f(d):
        if d < start or (end and d > end):
            return 1.0
        k = (d - start).days + 1
        return 1.0 + (top - 1.0) * min(1.0, k / days)
    return f


def step(start, factor, end=None):
    def f(d):
        if d >= start and (end is None or d <= end):
            return factor
        return 1.0
    return f


def combine(*fs):
    def f(d):
        m = 1.0
        for g in fs:
            m *= g(d)
        return m
    return f


# ==============================================================================================
# Scenarios
# ==============================================================================================
SCEN = []


def scenario(fn):
    SCEN.append(fn)
    return fn


# S01 catalogue, family, first day: forgotten p4d training box -------------------------------
@scenario
def s01(sdir, rng):
    acct = "318840027465"
    days = drange(D(2024, 4, 22), 150)
    X = D(2024, 8, 19)
    L = [
        LiteLine("AWS", "EKS", "recsys", "m6i.2xlarge", 0.384, 14),
        LiteLine("AWS", "EKS", "recsys", "r6i.xlarge", 0.252, 6),
        LiteLine("AWS", "EC2", "web-frontend", "c6i.xlarge", 0.170, 14, weekend=0.6),
        LiteLine("AWS", "EC2", "web-frontend", "t3.medium", 0.0416, 6, noise=0.0),
        LiteLine("AWS", "EMR", "data-lake", "r5.2xlarge", 0.504, 8, noise=0.12),
        LiteLine("AWS", "EC2", "ml-research", "g5.xlarge", 1.006, 2, noise=0.0),
        LiteLine("AWS", "SageMaker", "ml-research", "ml.m5.xlarge", 0.23, 3, noise=0.0),
        LiteLine("AWS", "RDS", "recsys", "db.r6g.xlarge", 0.48, 2, noise=0.0),
    ]
    # the experiment box: two p4d.24xlarge launched for a run and never stopped
    L.append(LiteLine("AWS", "EC2", "ml-research", "p4d.24xlarge", 32.7726, 2, noise=0.0, start=X))
    # a one-off earlier experiment that WAS stopped (history distractor)
    L.append(LiteLine("AWS", "EC2", "ml-research", "g5.12xlarge", 5.672, 1, noise=0.0,
                      start=D(2024, 6, 10), end=D(2024, 6, 12)))
    rows = lite_rows(rng, acct, L, days)
    write_csv(os.path.join(sdir, "data.csv"), LITE_HEADER, rows)
    return X, acct, [("p4d.24xlarge", "Instance_Family")], {}


# S02 catalogue, application, late +3: HPA/cluster-autoscaler runaway for checkout-api --------
@scenario
def s02(sdir, rng):
    acct = "a7e1c2d4-58f0-4b8e-9d3c-0f6a21b7c911"
    days = drange(D(2024, 1, 8), 200)
    X = D(2024, 6, 11)
    r = ramp(X, 5, 3.1)
    L = [
        LiteLine("Azure", "AKS", "checkout-api", "D4s_v5", 0.192, 12, weekend=0.75),
        LiteLine("Azure", "AKS", "checkout-api", "D8s_v5", 0.384, 4, weekend=0.75),
        LiteLine("Azure", "AKS", "catalog", "D4s_v5", 0.192, 9, weekend=0.8),
        LiteLine("Azure", "AKS", "catalog", "E4s_v5", 0.252, 3),
        LiteLine("Azure", "VirtualMachines", "reporting", "E8s_v5", 0.504, 3, noise=0.0),
        LiteLine("Azure", "AppService", "identity", "P1v3", 0.169, 4, noise=0.0),
        LiteLine("Azure", "VirtualMachines", "build-agents", "F8s_v2", 0.338, 10, weekend=0.2,
                 noise=0.15),
    ]
    L[0].n_fn = lambda d, n: n * r(d)
    L[1].n_fn = lambda d, n: n * r(d)
    rows = lite_rows(rng, acct, L, days)
    write_csv(os.path.join(sdir, "data.csv"), LITE_HEADER, rows)
    return X + 3 * ONE, acct, [("checkout-api", "Application")], {}


# S03 catalogue, provider, late +2: GCP list-price rise on the 1st, multi-cloud Lite ---------
@scenario
def s03(sdir, rng):
    acct = "604418239011"
    days = drange(D(2024, 2, 1), 190)
    X = D(2024, 7, 1)
    up = step(X, 1.17)
    L = [
        LiteLine("GCP", "GKE", "search", "n2-standard-8", 0.3885, 18),
        LiteLine("GCP", "GKE", "search", "e2-standard-4", 0.134, 10),
        LiteLine("GCP", "ComputeEngine", "etl", "c2-standard-16", 0.8352, 4, noise=0.1),
        LiteLine("GCP", "CloudSQL", "billing-db", "db-custom-8-32768", 0.5880, 2, noise=0.0),
        LiteLine("AWS", "EC2", "storefront", "m7g.large", 0.0816, 40, weekend=1.2),
        LiteLine("AWS", "EKS", "storefront", "c7g.2xlarge", 0.289, 12, weekend=1.2),
        LiteLine("AWS", "EC2", "finance-batch", "r6i.4xlarge", 1.008, 2, monthend=4.0, noise=0.0),
        LiteLine("Azure", "VirtualMachines", "sap-gateway", "E16s_v5", 1.008, 2, noise=0.0),
    ]
    for ln in L:
        if ln.csp == "GCP":
            p = ln.price
            ln.price_fn = (lambda p: (lambda d: round(p * up(d), 4)))(p)
    rows = lite_rows(rng, acct, L, days)
    write_csv(os.path.join(sdir, "data.csv"), LITE_HEADER, rows)
    return X + 2 * ONE, acct, [("GCP", "CSP")], {}


def aws_fixed(acct, name, cur="USD"):
    return {"BillingAccountId": acct, "BillingAccountName": name, "BillingCurrency": cur,
            "InvoiceIssuerName": "Amazon Web Services, Inc.", "ProviderName": "AWS",
            "PublisherName": "Amazon Web Services, Inc.", "PricingCategory": "Standard"}


def aws_line(acct_sub, subname, region, svc, cat, rid, rtype, base, desc, unit, up, tg=None,
             **kw):
    attrs = {"SubAccountId": acct_sub, "SubAccountName": subname, "RegionId": region,
             "RegionName": aws_region_name(region), "ServiceName": svc, "ServiceCategory": cat,
             "ResourceId": rid, "ResourceName": rid.rsplit("/", 1)[-1].rsplit(":", 1)[-1] if rid else "",
             "ResourceType": rtype, "ChargeDescription": desc, "ConsumedUnit": unit,
             "PricingUnit": unit, "SkuId": kw.pop("sku", ""), "Tags": tg or ""}
    attrs.update(kw.pop("extra", {}))
    return FLine(attrs=attrs, base=base, unit_price=up, **kw)


# S04 catalogue, service, first day: origin egress after CDN bypass ---------------------------
@scenario
def s04(sdir, rng):
    acct = "771204583310"
    days = drange(D(2024, 8, 1), 95)
    X = D(2024, 10, 9)
    sub = "771204583310"
    egress = step(X, 4.2)
    L = []
    # web tier
    for i, (rid, base) in enumerate([("i-0a41c9e2b7d5f6031", 46.1), ("i-0c93be7d12a4e5f88", 46.1),
                                     ("i-07f2d81ac93b6e4d2", 46.1)]):
        arn = f"arn:aws:ec2:us-east-1:{sub}:instance/{rid}"
        L.append(aws_line(sub, "media-prod", "us-east-1", "Amazon Elastic Compute Cloud", "Compute",
                          arn, "Instance", base, "$1.92 per On Demand Linux m6i.8xlarge Instance Hour",
                          "Hours", 1.92, tags(app="media-origin", env="prod"), noise=0.0))
        # internet egress charged to each origin instance
        L.append(aws_line(sub, "media-prod", "us-east-1", "AWS Data Transfer", "Networking", arn,
                          "Instance", 31.0 + 4 * i, "$0.05 per GB - first 150 TB / month data transfer out beyond the global free tier",
                          "GB", 0.05, tags(app="media-origin", env="prod"), mult=egress, noise=0.1))
    # S3 origin bucket egress
    b = "arn:aws:s3:::media-prod-renditions"
    L.append(aws_line(sub, "media-prod", "us-east-1", "Amazon Simple Storage Service", "Storage", b,
                      "Bucket", 88.0, "$0.021 per GB-Month of storage used in Standard", "GB-Mo",
                      0.021 / 30, tags(app="media-origin"), mult=lambda d: 1 + (d - D(2024, 8, 1)).days * 0.002, noise=0.01))
    L.append(aws_line(sub, "media-prod", "us-east-1", "AWS Data Transfer", "Networking", b, "Bucket",
                      52.0, "$0.05 per GB - first 150 TB / month data transfer out beyond the global free tier",
                      "GB", 0.05, tags(app="media-origin"), mult=egress, noise=0.1))
    # CloudFront: traffic falls away when clients go straight to origin
    L.append(aws_line(sub, "media-prod", "global", "Amazon CloudFront", "Networking",
                      f"arn:aws:cloudfront::{sub}:distribution/E2QW8LKD0M1ZTX", "Distribution", 610.0,
                      "$0.020 per GB - data transfer out of North America", "GB", 0.02,
                      tags(app="media-origin"), mult=step(X, 0.45), noise=0.07, weekend=1.25,
                      extra={"RegionName": "Global"}))
    L.append(aws_line(sub, "media-prod", "us-east-1", "Elastic Load Balancing", "Networking",
                      f"arn:aws:elasticloadbalancing:us-east-1:{sub}:loadbalancer/app/media-origin/5e2f0b6a1c9d7e34",
                      "LoadBalancer", 19.4, "$0.0225 per Application LoadBalancer-hour (or partial hour)",
                      "Hours", 0.0225, tags(app="media-origin"), noise=0.03))
    L.append(aws_line(sub, "media-prod", "us-east-1", "Amazon Relational Database Service", "Databases",
                      f"arn:aws:rds:us-east-1:{sub}:db:catalog-pg", "DBInstance", 62.4,
                      "$2.60 per RDS db.r6g.4xlarge Multi-AZ instance hour running PostgreSQL",
                      "Hours", 2.6, tags(app="catalog"), noise=0.0))
    L.append(aws_line(sub, "media-prod", "us-east-1", "AWS Support (Business)", "Management and Governance",
                      "", "", 0, "AWS Support (Business)", "Dollar", None, on_day=lambda d: d.day == 1,
                      freq="Recurring", noise=0.0))
    # support fee computed from previous month; approximate fixed
    L[-1].base = 1480.0
    rows = focus_rows(rng, aws_fixed(acct, "Northwind Media"), L, days)
    write_csv(os.path.join(sdir, "focus.csv"), FOCUS_BASE, rows)
    return X, acct, [("AWS Data Transfer", "ServiceName")], {
        "levels": ["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "RegionId",
                   "ResourceId"], "cost_column": "BilledCost"}


# S05 catalogue, resource, late +5: backup vault lifecycle rule removed -----------------------
@scenario
def s05(sdir, rng):
    acct = "209955172640"
    days = drange(D(2024, 3, 1), 130)
    X = D(2024, 6, 3)
    sub = "488120937415"

    def grow(d):
        if d < X:
            return 1.0
        return 1.0 + 0.21 * ((d - X).days + 1)
    vault = f"arn:aws:backup:eu-west-1:{sub}:backup-vault:prod-rds-vault"
    L = [
        aws_line(sub, "core-prod", "eu-west-1", "AWS Backup", "Storage", vault, "BackupVault", 41.0,
                 "$0.095 per GB-Month of RDS backup warm storage", "GB-Mo", 0.095 / 30,
                 tags(team="platform", env="prod"), mult=grow, noise=0.01),
        aws_line(sub, "core-prod", "eu-west-1", "AWS Backup", "Storage",
                 f"arn:aws:backup:eu-west-1:{sub}:backup-vault:prod-efs-vault", "BackupVault", 23.5,
                 "$0.05 per GB-Month of EFS backup warm storage", "GB-Mo", 0.05 / 30,
                 tags(team="platform", env="prod"), noise=0.02),
        aws_line(sub, "core-prod", "eu-west-1", "AWS Backup", "Storage",
                 f"arn:aws:backup:eu-west-1:{sub}:backup-vault:prod-ebs-vault", "BackupVault", 17.0,
                 "$0.05 per GB-Month of EBS snapshot backup storage", "GB-Mo", 0.05 / 30,
                 tags(team="platform", env="prod"),
                 # weekly full backup pattern: saw-tooth rises mid-week and pruned Sunday
                 mult=lambda d: 1 + 0.06 * d.weekday(), noise=0.01),
        aws_line(sub, "core-prod", "eu-west-1", "Amazon Relational Database Service", "Databases",
                 f"arn:aws:rds:eu-west-1:{sub}:db:orders-prod", "DBInstance", 148.8,
                 "$6.20 per RDS db.r6i.8xlarge Multi-AZ instance hour running MySQL", "Hours", 6.2,
                 tags(team="orders", env="prod"), noise=0.0),
        aws_line(sub, "core-prod", "eu-west-1", "Amazon Relational Database Service", "Storage",
                 f"arn:aws:rds:eu-west-1:{sub}:db:orders-prod", "DBInstance", 30.7,
                 "$0.276 per GB-month of provisioned gp3 storage running MySQL Multi-AZ", "GB-Mo",
                 0.276 / 30, tags(team="orders", env="prod"), noise=0.0),
        aws_line(sub, "core-prod", "eu-west-1", "Amazon Elastic Compute Cloud", "Compute",
                 f"arn:aws:ec2:eu-west-1:{sub}:instance/i-04b7d2c9e1f0a3b65", "Instance", 92.2,
                 "$0.384 per On Demand Linux m6i.2xlarge Instance Hour x10 (ASG)", "Hours", 0.384,
                 tags(team="orders", env="prod"), weekend=0.7, noise=0.08),
        aws_line(sub, "core-prod", "eu-west-1", "Amazon Elastic Block Store", "Storage",
                 f"arn:aws:ec2:eu-west-1:{sub}:volume/vol-0e2a9c71f4d5b8360", "Volume", 13.3,
                 "$0.088 per GB-month of General Purpose (gp3) provisioned storage", "GB-Mo",
                 0.088 / 30, tags(team="orders", env="prod"), noise=0.0),
    ]
    # a second account whose own backups are fine
    sub2 = "488120937999"
    L.append(aws_line(sub2, "analytics-prod", "eu-west-1", "AWS Backup", "Storage",
                      f"arn:aws:backup:eu-west-1:{sub2}:backup-vault:analytics-vault", "BackupVault",
                      12.0, "$0.05 per GB-Month of EBS snapshot backup storage", "GB-Mo", 0.05 / 30,
                      tags(team="data"), noise=0.03))
    L.append(aws_line(sub2, "analytics-prod", "eu-west-1", "Amazon Redshift", "Analytics",
                      f"arn:aws:redshift:eu-west-1:{sub2}:namespace:dwh", "Namespace", 211.0,
                      "$0.375 per RPU hour for Redshift Serverless", "RPU-Hours", 0.375,
                      tags(team="data"), weekend=0.35, noise=0.18))
    cols = [c for c in FOCUS_BASE if c not in ("AvailabilityZone", "ChargeClass",
                                                "CommitmentDiscountType")] + ["x_UsageType"]
    for ln in L:
        ln.a["x_UsageType"] = {"AWS Backup": "EU-WarmStorage-ByteHrs",
                               "Amazon Relational Database Service": "EU-InstanceUsage",
                               }.get(ln.a["ServiceName"], "EU-Usage")
    rows = focus_rows(rng, aws_fixed(acct, "Kestrel Logistics"), L, days, cols=cols)
    write_csv(os.path.join(sdir, "focus.csv"), cols, rows)
    return X + 5 * ONE, acct, [(vault, "ResourceId")], {
        "levels": ["BillingAccountId", "SubAccountId", "ServiceName", "ResourceId"],
        "cost_column": "BilledCost"}


def az_fixed(acct, name, cur="EUR"):
    return {"BillingAccountId": acct, "BillingAccountName": name, "BillingCurrency": cur,
            "InvoiceIssuerName": "Microsoft", "ProviderName": "Microsoft",
            "PublisherName": "Microsoft", "PricingCategory": "Standard"}


def az_line(subid, subname, region, svc, cat, rid, rtype, base, desc, unit, up, tg="", **kw):
    attrs = {"SubAccountId": subid, "SubAccountName": subname, "RegionId": region,
             "RegionName": {"westeurope": "West Europe", "northeurope": "North Europe",
                            "germanywestcentral": "Germany West Central",
                            "eastus2": "East US 2", "uksouth": "UK South"}.get(region, region),
             "ServiceName": svc, "ServiceCategory": cat, "ResourceId": rid,
             "ResourceName": rid.rsplit("/", 1)[-1] if rid else "", "ResourceType": rtype,
             "ChargeDescription": desc, "ConsumedUnit": unit, "PricingUnit": unit, "Tags": tg}
    attrs.update(kw.pop("extra", {}))
    return FLine(attrs=attrs, base=base, unit_price=up, **kw)


def az_rid(sub, rg, prov, name):
    return f"/subscriptions/{sub}/resourcegroups/{rg}/providers/{prov}/{name}"


# S06 catalogue, service, first day: diagnostic-settings policy floods Log Analytics ---------
@scenario
def s06(sdir, rng):
    acct = "7730112"
    days = drange(D(2024, 9, 2), 88)
    X = D(2024, 11, 5)
    subs = [("5b1d9f3e-2c47-4a8e-b0d6-91e3c7a2f104", "sub-prod"),
            ("c0a4e8b2-7d19-4f63-8e25-3b6f0d9a1c77", "sub-staging"),
            ("e91f3a6d-0b52-4c8e-a7d4-2f8b6c1e9035", "sub-shared")]
    L = []
    flood = step(X, 3.6)
    for (sid, sname), base in zip(subs, [58.0, 21.0, 34.0]):
        L.append(az_line(sid, sname, "westeurope", "Log Analytics", "Management and Governance",
                         az_rid(sid, f"rg-{sname}-mon", "microsoft.operationalinsights/workspaces", f"law-{sname}"),
                         "Log Analytics workspace", base, "Analytics Logs Data Ingestion", "GB",
                         2.76, tags(env=sname[4:]), mult=flood, noise=0.08))
        L.append(az_line(sid, sname, "westeurope", "Virtual Machines", "Compute",
                         az_rid(sid, f"rg-{sname}-app", "microsoft.compute/virtualmachinescalesets", f"vmss-{sname}-web"),
                         "Virtual machine scale set", base * 5.1, "D4s v5", "1 Hour", 0.211,
                         tags(env=sname[4:]), weekend=0.8 if sname != "sub-shared" else 1.0, noise=0.06))
        L.append(az_line(sid, sname, "westeurope", "Storage", "Storage",
                         az_rid(sid, f"rg-{sname}-data", "microsoft.storage/storageaccounts", f"st{sname.replace('-', '')}01"),
                         "Storage account", base * 0.6, "Hot LRS Data Stored", "1 GB/Month", 0.0196 / 30,
                         tags(env=sname[4:]), noise=0.02))
    # Azure Monitor (metrics/alerts) is a different service and stays flat
    L.append(az_line(subs[0][0], subs[0][1], "westeurope", "Azure Monitor", "Management and Governance",
                     az_rid(subs[0][0], "rg-sub-prod-mon", "microsoft.insights/metricalerts", "alerts-prod"),
                     "Metric alert rule", 4.1, "Alerts Metrics Monitored", "1 Month", None, noise=0.0))
    L.append(az_line(subs[0][0], subs[0][1], "westeurope", "Azure Database for PostgreSQL", "Databases",
                     az_rid(subs[0][0], "rg-sub-prod-data", "microsoft.dbforpostgresql/flexibleservers", "pg-prod-01"),
                     "PostgreSQL flexible server", 96.0, "General Purpose Dsv5 Series Compute, 8 vCore",
                     "1 Hour", 0.5, noise=0.0))
    rows = focus_rows(rng, az_fixed(acct, "Contoso Retail BV"), L, days, nd=5)
    cols = FOCUS_BASE
    write_csv(os.path.join(sdir, "focus.csv"), cols, rows)
    return X, acct, [("Log Analytics", "ServiceName")], {
        "levels": ["BillingAccountId", "SubAccountId", "ServiceCategory", "ServiceName", "ResourceId"],
        "cost_column": "BilledCost"}


# S07 catalogue, region, late +2: eu-central-1 brought up for a German customer ---------------
@scenario
def s07(sdir, rng):
    acct = "583301947726"
    days = drange(D(2024, 5, 15), 120)
    X = D(2024, 8, 26)
    sub = "583301947726"
    L = []

    def std(region, svc, cat, rid, rtype, base, desc, unit, up, **kw):
        return aws_line(sub, "saas-platform", region, svc, cat, rid, rtype, base, desc, unit, up,
                        kw.pop("tg", tags(product="ledger")), **kw)
    for region, scale in [("us-east-1", 1.0), ("eu-west-2", 0.55)]:
        for k in range(3):
            L.append(std(region, "Amazon Elastic Compute Cloud", "Compute",
                         f"arn:aws:ec2:{region}:{sub}:instance/i-0{region[:2]}{k}7c1e9a4b2d{k}f3", "Instance",
                         36.9 * scale, "On Demand Linux m6i.4xlarge Instance Hour", "Hours", 0.768,
                         weekend=0.85, noise=0.05))
        L.append(std(region, "Amazon Relational Database Service", "Databases",
                     f"arn:aws:rds:{region}:{sub}:db:ledger-{region}", "DBInstance", 87.6 * scale,
                     "RDS db.r6g.2xlarge Multi-AZ PostgreSQL", "Hours", 1.83, noise=0.0))
        L.append(std(region, "Elastic Load Balancing", "Networking",
                     f"arn:aws:elasticloadbalancing:{region}:{sub}:loadbalancer/app/ledger/{k}a9e{scale}",
                     "LoadBalancer", 14.0 * scale, "Application LoadBalancer-hour and LCU", "Hours",
                     0.0225, noise=0.08))
        L.append(std(region, "Amazon Simple Storage Service", "Storage",
                     f"arn:aws:s3:::ledger-docs-{region}", "Bucket", 22.0 * scale,
                     "Standard storage and requests", "GB-Mo", 0.023 / 30, noise=0.02))
    # small pre-existing footprint in Frankfurt: a log-archive bucket (region exists before)
    L.append(std("eu-central-1", "Amazon Simple Storage Service", "Storage",
                 f"arn:aws:s3:::ledger-audit-archive-fra", "Bucket", 3.1,
                 "Glacier Deep Archive storage", "GB-Mo", 0.0018 / 30, noise=0.01))
    # Frankfurt go-live: new stack
    for k in range(4):
        L.append(std("eu-central-1", "Amazon Elastic Compute Cloud", "Compute",
                     f"arn:aws:ec2:eu-central-1:{sub}:instance/i-0fa{k}3b8d27c5e91{k}", "Instance",
                     42.6, "On Demand Linux m6i.4xlarge Instance Hour", "Hours", 0.888,
                     start=X, weekend=0.85, noise=0.05))
    L.append(std("eu-central-1", "Amazon Relational Database Service", "Databases",
                 f"arn:aws:rds:eu-central-1:{sub}:db:ledger-eu-central-1", "DBInstance", 101.2,
                 "RDS db.r6g.2xlarge Multi-AZ PostgreSQL", "Hours", 2.11, start=X, noise=0.0))
    L.append(std("eu-central-1", "Elastic Load Balancing", "Networking",
                 f"arn:aws:elasticloadbalancing:eu-central-1:{sub}:loadbalancer/app/ledger/9fe1",
                 "LoadBalancer", 11.0, "Application LoadBalancer-hour and LCU", "Hours", 0.027,
                 start=X, noise=0.08))
    L.append(std("eu-central-1", "Amazon Simple Storage Service", "Storage",
                 f"arn:aws:s3:::ledger-docs-eu-central-1", "Bucket", 6.0,
                 "Standard storage and requests", "GB-Mo", 0.0245 / 30, start=X,
                 mult=lambda d: 1 + max(0, (d - X).days) * 0.04, noise=0.02))
    # global: Route 53 and a monthly Savings Plan fee on the 1st
    L.append(std("global", "Amazon Route 53", "Networking", f"arn:aws:route53:::hostedzone/Z03817262Q1TQW0LEDG",
                 "HostedZone", 1.9, "DNS queries", "Queries", 0.0000004, noise=0.1,
                 extra={"RegionName": "Global"}))
    sp = std("", "Savings Plans for AWS Compute usage", "Compute", "", "", 2190.0,
             "1 year No Upfront Compute Savings Plan recurring fee", "Dollar", None,
             on_day=lambda d: d.day == 1, freq="Recurring", noise=0.0,
             extra={"CommitmentDiscountId": f"arn:aws:savingsplans::{sub}:savingsplan/2b7e91c4-5d0a-4f38-9c61-7a3e0f2d8b45",
                    "CommitmentDiscountType": "Compute Savings Plan", "RegionName": ""})
    sp.cat = "Purchase"
    L.append(sp)
    rows = focus_rows(rng, aws_fixed(acct, "Ledgerly Inc"), L, days, last_frac=0.375)
    write_csv(os.path.join(sdir, "focus.csv"), FOCUS_BASE, rows)
    return X + 2 * ONE, acct, [("eu-central-1", "RegionId")], {
        "levels": ["BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId"],
        "cost_column": "BilledCost"}


# S08 catalogue, family, first day: a reserved-instance term ends mid-month --------------------
@scenario
def s08(sdir, rng):
    acct = "112093855470"
    days = drange(D(2024, 6, 1), 170)
    X = D(2024, 10, 15)
    L = [
        LiteLine("AWS", "EC2", "claims-portal", "m6i.xlarge", 0.121, 16, weekend=0.7),
        LiteLine("AWS", "EKS", "fraud-scoring", "m6i.xlarge", 0.121, 22),
        LiteLine("AWS", "EC2", "document-ocr", "m6i.xlarge", 0.121, 8, noise=0.12),
        LiteLine("AWS", "EC2", "claims-portal", "c6i.2xlarge", 0.34, 6, weekend=0.7),
        LiteLine("AWS", "EKS", "fraud-scoring", "r6i.2xlarge", 0.504, 5),
        LiteLine("AWS", "RDS", "claims-portal", "db.m6i.2xlarge", 0.418, 2, noise=0.0),
        LiteLine("AWS", "OpenSearch", "fraud-scoring", "r6g.large.search", 0.167, 6, noise=0.0),
    ]
    for ln in L[:3]:
        ln.price_fn = lambda d: 0.192 if d >= X else 0.121
    # distractor: a c6i reservation purchased the month before lowers that family's rate
    L[3].price_fn = lambda d: 0.214 if d >= D(2024, 9, 1) else 0.34
    rows = lite_rows(rng, acct, L, days)
    write_csv(os.path.join(sdir, "data.csv"), LITE_HEADER, rows)
    return X, acct, [("m6i.xlarge", "Instance_Family")], {}


def oci_fixed(acct, name):
    return {"BillingAccountId": acct, "BillingAccountName": name, "BillingCurrency": "USD",
            "PricingCategory": "Standard"}


# S09 novel, provider, late +1: OCI promotional credits run out (multi-provider FOCUS) ---------
@scenario
def s09(sdir, rng):
    acct = "FIN-OPS-00417"
    days = drange(D(2024, 7, 1), 110)
    X = D(2024, 9, 23)
    L = []
    prov = {
        "AWS": ("Amazon Web Services, Inc.", "AWS"),
        "Oracle": ("Oracle America, Inc.", "Oracle"),
        "Microsoft": ("Microsoft", "Microsoft"),
    }

    def ln(p, sub, region, svc, scat, rid, base, **kw):
        inv, pub = prov[p]
        a = {"ProviderName": p, "InvoiceIssuerName": inv, "PublisherName": pub, "SubAccountId": sub,
             "SubAccountName": sub.split(".")[-1][:12], "RegionId": region, "RegionName": region,
             "ServiceName": svc, "ServiceCategory": scat, "ResourceId": rid, "ResourceName": rid.rsplit(".", 1)[-1][-10:] if rid else "",
             "ChargeDescription": kw.pop("desc", svc), "ConsumedUnit": kw.pop("unit", "Hours"),
             "PricingUnit": "Hours"}
        a.update(kw.pop("extra", {}))
        return FLine(attrs=a, base=base, **kw)
    oc = "ocid1.compartment.oc1..aaaaaaaa7hq2analytics"
    oci_services = [
        ("Compute", "Compute", "ocid1.instance.oc1.iad.anuwcljt4x2oqbatch01", 182.0),
        ("Compute", "Compute", "ocid1.instance.oc1.iad.anuwcljt4x2oqbatch02", 182.0),
        ("Autonomous Database", "Databases", "ocid1.autonomousdatabase.oc1.iad.anuwcljradw01", 264.0),
        ("Object Storage", "Storage", "ocid1.bucket.oc1.iad.lakehouse-raw", 41.0),
        ("Block Storage", "Storage", "ocid1.volume.oc1.iad.abuwcljtbv01", 18.0),
        ("Networking", "Networking", "ocid1.loadbalancer.oc1.iad.aaaaaalb01", 9.5),
    ]
    credit_end = X
    for svc, cat, rid, base in oci_services:
        L.append(ln("Oracle", oc, "us-ashburn-1", svc, cat, rid, base, noise=0.04, weekend=0.9))
        # promotional credit applied per service line until the pool is exhausted
        cr = ln("Oracle", oc, "us-ashburn-1", svc, cat, rid, -base * 0.9,
                desc="Oracle Universal Credits - promotional credit", unit="Credits",
                end=credit_end - ONE, noise=0.04, weekend=0.9, cat="Credit")
        L.append(cr)
    aw = "360811992407"
    for k, (svc, cat, base) in enumerate([("Amazon Elastic Compute Cloud", "Compute", 610.0),
                                          ("Amazon Simple Storage Service", "Storage", 122.0),
                                          ("Amazon DynamoDB", "Databases", 88.0),
                                          ("Amazon CloudFront", "Networking", 140.0)]):
        L.append(ln("AWS", aw, "us-east-1", svc, cat, f"arn:aws:{svc.split()[-1].lower()}:us-east-1:{aw}:res-{k}",
                    base, noise=0.07, weekend=0.8 if k == 0 else 1.1))
    azs = "8d2f61c0-4e7a-49b3-a5d1-0c9e3f7b2a68"
    for k, (svc, cat, base) in enumerate([("Virtual Machines", "Compute", 233.0),
                                          ("Azure Cosmos DB", "Databases", 97.0),
                                          ("Microsoft Defender for Cloud", "Security", 31.0)]):
        L.append(ln("Microsoft", azs, "eastus2", svc, cat,
                    f"/subscriptions/{azs}/resourcegroups/rg-core/providers/x/res{k}", base,
                    noise=0.05))
    # an AWS Marketplace charge each month (different publisher) as a distractor
    L.append(ln("AWS", aw, "global", "Datadog Pro (AWS Marketplace)", "Management and Governance", "",
                1910.0, on_day=lambda d: d.day == 1, freq="Recurring", noise=0.0, cat="Purchase",
                extra={"PublisherName": "Datadog, Inc."}))
    cols = ["BillingAccountId", "BillingAccountName", "ProviderName", "PublisherName",
            "InvoiceIssuerName", "SubAccountId", "SubAccountName", "ServiceCategory", "ServiceName",
            "RegionId", "RegionName", "ResourceId", "ResourceName", "ChargeCategory",
            "ChargeDescription", "ChargeFrequency", "ChargePeriodStart", "ChargePeriodEnd",
            "BillingPeriodStart", "BillingPeriodEnd", "BilledCost", "EffectiveCost", "ListCost",
            "BillingCurrency", "ConsumedUnit", "PricingUnit", "x_RowId"]
    rows = focus_rows(rng, oci_fixed(acct, "Helix Analytics (consolidated)"), L, days, cols=cols,
                      ts_fmt="%Y-%m-%dT%H:%M:%SZ")
    write_csv(os.path.join(sdir, "focus.csv"), cols, rows)
    return X + ONE, acct, [("Oracle", "ProviderName")], {
        "levels": ["BillingAccountId", "ProviderName", "SubAccountId", "ServiceName", "ResourceId"],
        "cost_column": "BilledCost"}


# S10 novel, service, first day: AWS Config records every ephemeral EKS node -----------------
@scenario
def s10(sdir, rng):
    acct = "845512093376"
    days = drange(D(2024, 10, 1), 75)
    X = D(2024, 11, 28)
    L = []
    accounts = [("845512093376", "mgmt"), ("220934871165", "prod"), ("330918274400", "staging"),
                ("441027736522", "data")]
    churn = step(X, 11.0)
    for sid, sname in accounts:
        for region, w in [("us-east-1", 1.0), ("us-west-2", 0.45)]:
            L.append(aws_line(sid, sname, region, "AWS Config", "Management and Governance",
                              f"arn:aws:config:{region}:{sid}:config-recorder/default", "ConfigurationRecorder",
                              (3.2 if sname != "prod" else 6.4) * w,
                              "$0.003 per Configuration Item recorded", "ConfigurationItemRecorded",
                              0.003, mult=churn, noise=0.15))
            if sname in ("prod", "staging", "data"):
                L.append(aws_line(sid, sname, region, "Amazon Elastic Kubernetes Service", "Compute",
                                  f"arn:aws:eks:{region}:{sid}:cluster/{sname}-{region}", "Cluster",
                                  2.4, "$0.10 per hour per Amazon EKS cluster", "Hours", 0.1, noise=0.0))
                L.append(aws_line(sid, sname, region, "Amazon Elastic Compute Cloud", "Compute",
                                  f"arn:aws:ec2:{region}:{sid}:fleet/karpenter-{sname}", "Fleet",
                                  (410.0 if sname == "prod" else 120.0) * w,
                                  "Spot Linux m7i/m6i mixed instance hours", "Hours", 0.09,
                                  weekend=0.7, noise=0.09))
            L.append(aws_line(sid, sname, region, "AWS CloudTrail", "Management and Governance",
                              f"arn:aws:cloudtrail:{region}:{sid}:trail/org-trail", "Trail",
                              1.3 * w, "$0.10 per 100,000 data events recorded", "Events", 0.000001,
                              noise=0.1))
            L.append(aws_line(sid, sname, region, "AWS Security Hub", "Security", "", "",
                              2.1 * w, "$0.0010 per security check", "Checks", 0.001, noise=0.05))
    # Karpenter consolidation also changes EC2 slightly down on the same day (distractor)
    for l in L:
        if l.a["ServiceName"] == "Amazon Elastic Compute Cloud":
            l.mult = step(X, 0.93)
    rows = focus_rows(rng, aws_fixed(acct, "Quanta Health"), L, days)
    write_csv(os.path.join(sdir, "focus.csv"), FOCUS_BASE, rows)
    return X, acct, [("AWS Config", "ServiceName")], {
        "levels": ["BillingAccountId", "SubAccountId", "RegionId", "ServiceName", "ResourceId"],
        "cost_column": "BilledCost"}


# S11 novel, family, late +3: t3 unlimited CPU-credit surcharge after an agent upgrade ----------
@scenario
def s11(sdir, rng):
    acct = "927310084452"
    days = drange(D(2024, 3, 4), 95)
    X = D(2024, 5, 21)

    def price(base, surplus):
        def f(d):
            if d < X:
                return base
            k = min(3, (d - X).days + 1)
            return round(base + surplus * k / 3, 4)
        return f
    L = [
        LiteLine("AWS", "EC2", "intranet", "t3.large", 0.0832, 24, weekend=1.0, noise=0.02),
        LiteLine("AWS", "EKS", "ci-runners", "t3.large", 0.0832, 30, weekend=0.4, noise=0.1),
        LiteLine("AWS", "EC2", "jumphosts", "t3.large", 0.0832, 4, noise=0.0),
        LiteLine("AWS", "EC2", "intranet", "t3.medium", 0.0416, 12, noise=0.02),
        LiteLine("AWS", "EC2", "intranet", "m6i.large", 0.096, 10, noise=0.03),
        LiteLine("AWS", "EKS", "ci-runners", "c6i.2xlarge", 0.34, 8, weekend=0.3, noise=0.15),
        LiteLine("AWS", "RDS", "intranet", "db.t3.large", 0.136, 2, noise=0.0),
    ]
    for ln in L[:3]:
        ln.price_fn = price(0.0832, 0.096)  # 2 vCPU * $0.05/vCPU-h surplus at ~96% average
    # t3.medium runs a lighter agent profile and stays within its baseline credits
    rows = lite_rows(rng, acct, L, days)
    write_csv(os.path.join(sdir, "data.csv"), LITE_HEADER, rows)
    return X + 3 * ONE, acct, [("t3.large", "Instance_Family")], {}


# S12 novel, region, first day (hourly): MirrorMaker pointed at the wrong cluster in Sydney --------
@scenario
def s12(sdir, rng):
    acct = "660214738851"
    days = drange(D(2024, 6, 3), 62)
    X = D(2024, 7, 22)
    sub = "660214738851"
    diurnal = [0.6, 0.55, 0.5, 0.5, 0.55, 0.65, 0.8, 1.0, 1.2, 1.35, 1.4, 1.4, 1.35, 1.35, 1.3, 1.3,
               1.25, 1.2, 1.1, 1.0, 0.9, 0.8, 0.7, 0.65]
    s = sum(diurnal)
    diurnal = [x / s for x in diurnal]
    flat = [1 / 24] * 24
    storm = step(X, 3.4)
    MM = {"ap-southeast-2": "i-0c41e9d2a7b35f018", "ap-northeast-1": "i-06b2f8a1d94c3e775",
          "us-west-2": "i-0e7d35c0b1a9f4626"}
    L = []
    for region, w in [("ap-southeast-2", 0.8), ("ap-northeast-1", 1.0), ("us-west-2", 0.7)]:
        L.append(aws_line(sub, "streaming", region, "Amazon Managed Streaming for Apache Kafka",
                          "Analytics", f"arn:aws:kafka:{region}:{sub}:cluster/events-{region}/3f1c",
                          "Cluster", 140.0 * w, "kafka.m5.2xlarge broker hours", "Hours", 0.84,
                          profile=flat, noise=0.0,
                          mult=storm if region == "ap-southeast-2" else None))
        L.append(aws_line(sub, "streaming", region, "Amazon Managed Streaming for Apache Kafka",
                          "Storage", f"arn:aws:kafka:{region}:{sub}:cluster/events-{region}/3f1c",
                          "Cluster", 24.0 * w, "Broker storage GB-month", "GB-Mo", 0.1 / 720,
                          profile=flat, noise=0.01,
                          mult=ramp(X, 10, 2.2) if region == "ap-southeast-2" else None))
        L.append(aws_line(sub, "streaming", region, "AWS Data Transfer", "Networking",
                          f"arn:aws:ec2:{region}:{sub}:instance/{MM[region]}",
                          "Instance", 36.0 * w, f"$0.02 per GB - {aws_region_name(region)} data transfer to other regions",
                          "GB", 0.02, profile=diurnal, noise=0.1,
                          mult=storm if region == "ap-southeast-2" else None))
        L.append(aws_line(sub, "streaming", region, "Amazon Elastic Compute Cloud", "Compute",
                          f"arn:aws:ec2:{region}:{sub}:instance/{MM[region]}",
                          "Instance", 18.4 * w, "On Demand Linux m6i.xlarge (MirrorMaker 2 workers)", "Hours",
                          0.192, profile=flat, noise=0.0,
                          mult=step(X, 2.0) if region == "ap-southeast-2" else None))
        L.append(aws_line(sub, "streaming", region, "Amazon Elastic Compute Cloud", "Compute",
                          f"arn:aws:ec2:{region}:{sub}:fleet/consumers-{region}", "Fleet",
                          96.0 * w, "On Demand Linux c6i.2xlarge consumer fleet", "Hours", 0.34,
                          profile=diurnal, noise=0.06))
    rows = focus_rows(rng, aws_fixed(acct, "Tidewave Payments"), L, days, hourly=True,
                      first_hour=9, last_hour=15, nd=7)
    write_csv(os.path.join(sdir, "focus.csv"), FOCUS_BASE, rows)
    return X, acct, [("ap-southeast-2", "RegionId")], {
        "levels": ["BillingAccountId", "RegionId", "ServiceName", "ResourceId"],
        "cost_column": "BilledCost"}


def gcp_fixed(acct, name, cur="USD"):
    return {"BillingAccountId": acct, "BillingAccountName": name, "BillingCurrency": cur,
            "InvoiceIssuerName": "Google", "ProviderName": "Google Cloud",
            "PublisherName": "Google Cloud", "PricingCategory": "Standard"}


def gcp_line(proj, region, svc, scat, rid, base, desc, unit, up, tg="", **kw):
    attrs = {"SubAccountId": proj, "SubAccountName": proj, "RegionId": region,
             "RegionName": region, "ServiceName": svc, "ServiceCategory": scat,
             "ResourceId": rid, "ResourceName": rid.rsplit("/", 1)[-1] if rid else "",
             "ChargeDescription": desc, "ConsumedUnit": unit, "PricingUnit": unit, "Tags": tg}
    attrs.update(kw.pop("extra", {}))
    return FLine(attrs=attrs, base=base, unit_price=up, **kw)


# S13 catalogue, region, late +4: a DR drill in europe-west4 never scaled back ------------------
@scenario
def s13(sdir, rng):
    acct = "01A7F3-9C22E1-5BD640"
    days = drange(D(2024, 1, 2), 160)
    X = D(2024, 5, 14)
    proj = "ticketing-prod-4471"
    dr = step(X, 4.0)
    L = []
    for region, w, m in [("europe-west1", 1.0, None), ("europe-west4", 0.25, dr),
                         ("us-central1", 0.4, None)]:
        L.append(gcp_line(proj, region, "Kubernetes Engine", "Compute",
                          f"//container.googleapis.com/projects/{proj}/locations/{region}/clusters/tix-{region}/nodePools/default",
                          410.0 * w, "N2 Instance Core running in " + region, "hour", 0.0316,
                          tags(env="prod" if region != "europe-west4" else "dr"), mult=m,
                          weekend=0.85, noise=0.05))
        L.append(gcp_line(proj, region, "Cloud SQL", "Databases",
                          f"//cloudsql.googleapis.com/projects/{proj}/instances/tix-db-{region}",
                          (190.0 if region != "europe-west4" else 52.0), "Cloud SQL for PostgreSQL: Regional - vCPU",
                          "hour", 0.0826, tags(env="prod"), noise=0.0,
                          mult=step(X, 3.0) if region == "europe-west4" else None))
        L.append(gcp_line(proj, region, "Compute Engine", "Storage",
                          f"//compute.googleapis.com/projects/{proj}/zones/{region}-b/disks/tix-pd-{region}",
                          48.0 * w, "Balanced PD Capacity", "gibibyte month", 0.1 / 30, noise=0.01,
                          mult=step(X, 2.5) if region == "europe-west4" else None))
        L.append(gcp_line(proj, region, "Cloud Load Balancing", "Networking",
                          f"//compute.googleapis.com/projects/{proj}/global/forwardingRules/tix-{region}",
                          12.0 * w + 3, "Network Load Balancing: Forwarding Rule", "hour", 0.025,
                          noise=0.03, mult=step(X, 1.6) if region == "europe-west4" else None))
    # BigQuery: monthly flat-rate reservation, and ticket-sale spikes on announced on-sale days
    onsale = {D(2024, 2, 9), D(2024, 3, 15), D(2024, 4, 19), D(2024, 5, 17), D(2024, 6, 7)}
    L.append(gcp_line(proj, "europe-west1", "BigQuery", "Analytics", "", 55.0, "Analysis (on-demand)",
                      "tebibyte", 6.25, mult=lambda d: 3.0 if d in onsale else 1.0, noise=0.2))
    L.append(gcp_line(proj, "europe-west1", "Compute Engine", "Compute",
                      f"//compute.googleapis.com/projects/{proj}/zones/europe-west1-b/instances/tix-onsale-burst",
                      0.0, "N2 Instance Core (burst fleet)", "hour", 0.0316,
                      mult=lambda d: 1.0, noise=0.0, start=D(2024, 1, 2)))
    L[-1].base = 0.0  # zero-cost rows: stopped burst VM keeps a line
    cols = [c for c in FOCUS_BASE if c not in ("CommitmentDiscountId", "CommitmentDiscountType",
                                                "AvailabilityZone", "ResourceType")]
    rows = focus_rows(rng, gcp_fixed(acct, "Ticketa Europe GmbH", "EUR"), L, days, cols=cols,
                      last_frac=0.52)
    write_csv(os.path.join(sdir, "focus.csv"), cols, rows)
    return X + 4 * ONE, acct, [("europe-west4", "RegionId")], {
        "levels": ["BillingAccountId", "SubAccountId", "RegionId", "ServiceName", "ResourceId"],
        "cost_column": "BilledCost"}


# S14 catalogue, application, first day: blue fleet not drained after a blue/green deploy ---------
@scenario
def s14(sdir, rng):
    acct = "503377210948"
    days = drange(D(2023, 11, 1), 300)
    X = D(2024, 8, 6)
    dbl = step(X, 2.0)
    L = [
        LiteLine("AWS", "EKS", "payments-gateway", "c6i.2xlarge", 0.34, 10, weekend=0.9),
        LiteLine("AWS", "EC2", "payments-gateway", "m6i.xlarge", 0.192, 6),
        LiteLine("AWS", "EKS", "merchant-portal", "c6i.2xlarge", 0.34, 7, weekend=0.6),
        LiteLine("AWS", "EC2", "merchant-portal", "m6i.xlarge", 0.192, 4, weekend=0.6),
        LiteLine("AWS", "EKS", "risk-engine", "r6i.2xlarge", 0.504, 9),
        LiteLine("AWS", "RDS", "payments-gateway", "db.r6i.4xlarge", 2.016, 2, noise=0.0),
        LiteLine("AWS", "ElastiCache", "risk-engine", "cache.r6g.xlarge", 0.411, 3, noise=0.0),
        LiteLine("AWS", "EC2", "settlement-batch", "c6i.4xlarge", 0.68, 5, monthend=3.0, noise=0.1),
    ]
    L[0].n_fn = lambda d, n: n * dbl(d)
    L[1].n_fn = lambda d, n: n * dbl(d)
    # Black-Friday style peak last November for merchant-portal (seasonal history)
    L[2].n_fn = lambda d, n: n * (1.8 if D(2023, 11, 22) <= d <= D(2023, 11, 28) else 1.0)
    rows = lite_rows(rng, acct, L, days)
    write_csv(os.path.join(sdir, "data.csv"), LITE_HEADER, rows)
    return X, acct, [("payments-gateway", "Application")], {}


# S15 novel, application, late +2: Istio traffic mirroring left on for search-ranker ------------
@scenario
def s15(sdir, rng):
    acct = "019A42-77BE10-C3D5F8"
    days = drange(D(2024, 8, 12), 80)
    X = D(2024, 10, 17)
    mirror = step(X, 1.75)
    L = [
        LiteLine("GCP", "GKE", "search-ranker", "n2-standard-8", 0.3885, 16, weekend=0.8),
        LiteLine("GCP", "VertexAI", "search-ranker", "g2-standard-8", 0.854, 4),
        LiteLine("GCP", "GKE", "search-api", "n2-standard-8", 0.3885, 12, weekend=0.8),
        LiteLine("GCP", "GKE", "indexer", "n2-highmem-8", 0.524, 6, noise=0.12),
        LiteLine("GCP", "VertexAI", "embeddings", "g2-standard-8", 0.854, 3),
        LiteLine("GCP", "ComputeEngine", "newsletter", "e2-standard-16", 0.536, 20, hours=24,
                 noise=0.0),
        LiteLine("GCP", "CloudSQL", "search-api", "db-custom-4-16384", 0.2940, 2, noise=0.0),
    ]
    L[0].n_fn = lambda d, n: n * mirror(d)
    L[1].n_fn = lambda d, n: n * mirror(d)
    # weekly newsletter render: only Tuesdays
    L[5].n_fn = lambda d, n: n if d.weekday() == 1 else 0
    rows = lite_rows(rng, acct, L, days)
    write_csv(os.path.join(sdir, "data.csv"), LITE_HEADER, rows)
    return X + 2 * ONE, acct, [("search-ranker", "Application")], {}


# S16 novel, resource, late +4 (spike over): io2 IOPS raised for a benchmark, then reverted -------
@scenario
def s16(sdir, rng):
    acct = "390177264018"
    days = drange(D(2024, 2, 5), 100)
    X = D(2024, 4, 22)
    sub = "390177264018"
    bench = f"arn:aws:rds:us-east-2:{sub}:db:inventory-replica-2"
    L = []
    for name, base in [("inventory-primary", 141.0), ("inventory-replica-1", 70.5),
                       ("inventory-replica-2", 70.5), ("pricing-db", 55.2)]:
        arn = f"arn:aws:rds:us-east-2:{sub}:db:{name}"
        L.append(aws_line(sub, "retail-core", "us-east-2", "Amazon Relational Database Service", "Databases",
                          arn, "DBInstance", base, "RDS db.r6i.2xlarge instance hour running PostgreSQL",
                          "Hours", 0.98, tags(app="inventory" if "inv" in name else "pricing"), noise=0.0))
        piops = 18.0 if name != "pricing-db" else 9.0
        L.append(aws_line(sub, "retail-core", "us-east-2", "Amazon Relational Database Service", "Storage",
                          arn, "DBInstance", piops,
                          "$0.10 per IOPS-month of Provisioned IOPS (io2)", "IOPS-Mo", 0.1 / 30,
                          tags(app="inventory" if "inv" in name else "pricing"), noise=0.0,
                          mult=step(X, 23.7, X + 2 * ONE) if arn == bench else None))
    L.append(aws_line(sub, "retail-core", "us-east-2", "Amazon Elastic Compute Cloud", "Compute",
                      f"arn:aws:ec2:us-east-2:{sub}:autoScalingGroup:inventory-api", "AutoScalingGroup",
                      260.0, "On Demand Linux c7i.2xlarge", "Hours", 0.357, weekend=0.75, noise=0.07))
    # the load generator used for the benchmark (small, visible on the same days)
    L.append(aws_line(sub, "retail-core", "us-east-2", "Amazon Elastic Compute Cloud", "Compute",
                      f"arn:aws:ec2:us-east-2:{sub}:instance/i-0be7c4a19d3f2e580", "Instance",
                      8.2, "On Demand Linux c7i.xlarge (pgbench load generator)", "Hours", 0.1785,
                      start=X, end=X + 2 * ONE, noise=0.0))
    L.append(aws_line(sub, "retail-core", "us-east-2", "Amazon CloudWatch", "Management and Governance",
                      "", "", 6.6, "Metrics and dashboards", "Metrics", 0.3 / 30, noise=0.05))
    # monthly tax on the 1st
    tax = aws_line(sub, "retail-core", "", "Tax", "Other", "", "", 0, "US sales tax (Ohio)", "",
                   None, on_day=lambda d: d.day == 1, freq="One-Time", noise=0.0)
    tax.cat = "Tax"
    tax.base = 1190.0
    L.append(tax)
    rows = focus_rows(rng, aws_fixed(acct, "Brightmart"), L, days)
    write_csv(os.path.join(sdir, "focus.csv"), FOCUS_BASE, rows)
    return X + 4 * ONE, acct, [(bench, "ResourceId")], {
        "levels": ["BillingAccountId", "ServiceCategory", "ServiceName", "ResourceId"],
        "cost_column": "BilledCost"}


# S17 novel, provider, first day: Azure Hybrid Benefit unassigned tenant-wide after a billing move --
@scenario
def s17(sdir, rng):
    acct = "BA-20931-MULTI"
    days = drange(D(2024, 4, 1), 140)
    X = D(2024, 7, 16)
    L = []

    def mk(p, inv, sub, region, svc, cat, rid, base, **kw):
        a = {"ProviderName": p, "InvoiceIssuerName": inv, "PublisherName": inv, "SubAccountId": sub,
             "SubAccountName": sub[:8], "RegionId": region, "RegionName": region, "ServiceName": svc,
             "ServiceCategory": cat, "ResourceId": rid, "ResourceName": rid.rsplit("/", 1)[-1],
             "ChargeDescription": kw.pop("desc", svc), "ConsumedUnit": "Hours", "PricingUnit": "Hours"}
        return FLine(attrs=a, base=base, **kw)
    ahb = step(X, 1.42)
    for sub, w in [("2f9c1d7a-0e6b-4a35-8c24-b1d07e5f9a33", 1.0), ("71b0e4c8-3d2a-4f19-96e5-c8a2f03b7d61", 0.6)]:
        for svc, cat, rid, base, m in [
            ("Virtual Machines", "Compute", "vm-erp-app", 420.0, ahb),
            ("Virtual Machines", "Compute", "vm-citrix-hosts", 260.0, ahb),
            ("SQL Database", "Databases", "sqldb-erp", 310.0, step(X, 1.38)),
            ("SQL Managed Instance", "Databases", "sqlmi-reporting", 180.0, step(X, 1.45)),
            ("Storage", "Storage", "sterpbackup", 44.0, None),
        ]:
            L.append(mk("Microsoft", "Microsoft", sub, "westeurope", svc, cat,
                        f"/subscriptions/{sub}/resourceGroups/rg-erp/providers/x/{rid}", base * w,
                        mult=m, noise=0.04, weekend=0.92))
    for svc, cat, base in [("Amazon Elastic Compute Cloud", "Compute", 980.0),
                           ("Amazon Relational Database Service", "Databases", 340.0),
                           ("Amazon Simple Storage Service", "Storage", 75.0)]:
        L.append(mk("AWS", "Amazon Web Services, Inc.", "118274650913", "eu-west-1", svc, cat,
                    f"arn:aws:{svc.split()[-1].lower()}:eu-west-1:118274650913:prod/{cat.lower()}", base,
                    noise=0.06, weekend=0.85))
    # AWS price list: a 3% rise on EC2 the same month on the 1st (distractor)
    L[-3].mult = step(D(2024, 7, 1), 1.03)
    cols = ["ChargePeriodStart", "ChargePeriodEnd", "BillingPeriodStart", "BillingPeriodEnd",
            "BillingAccountId", "BillingAccountName", "ProviderName", "InvoiceIssuerName",
            "PublisherName", "SubAccountId", "SubAccountName", "ServiceCategory", "ServiceName",
            "RegionId", "RegionName", "ResourceId", "ResourceName", "ChargeCategory",
            "ChargeFrequency", "ChargeDescription", "BilledCost", "EffectiveCost", "ListCost",
            "BillingCurrency", "ConsumedUnit", "PricingUnit"]
    rows = focus_rows(rng, oci_fixed(acct, "Vantor Manufacturing"), L, days, cols=cols)
    write_csv(os.path.join(sdir, "focus.csv"), cols, rows)
    return X, acct, [("Microsoft", "ProviderName")], {
        "levels": ["BillingAccountId", "ProviderName", "SubAccountId", "ServiceName", "ResourceId"],
        "cost_column": "BilledCost"}


# ---------------------------------------------------------------------------------------------
# Quiet bills
# ---------------------------------------------------------------------------------------------

# Q1 catalogue, Lite: month-end close batch, alert on the last day of the month ------------------
@scenario
def q1(sdir, rng):
    acct = "774920013386"
    days = drange(D(2024, 1, 1), 250)
    L = [
        LiteLine("AWS", "EC2", "gl-close", "r6i.8xlarge", 2.016, 1, noise=0.0),
        LiteLine("AWS", "EMR", "gl-close", "r5.4xlarge", 1.008, 3, noise=0.0),
        LiteLine("AWS", "EKS", "treasury-api", "m6i.xlarge", 0.192, 10, weekend=0.7),
        LiteLine("AWS", "EC2", "treasury-api", "c6i.xlarge", 0.17, 6, weekend=0.7),
        LiteLine("AWS", "RDS", "ledger", "db.r6i.2xlarge", 1.008, 2, noise=0.0),
        LiteLine("Azure", "VirtualMachines", "payroll", "D8s_v5", 0.384, 4, noise=0.0),
    ]

    def close(d, n):
        # business-day close: last 2 calendar days + first business day; heavier at quarter end
        nxt = (d.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        left = (nxt - d).days
        q = d.month in (3, 6, 9, 12)
        if left <= 2:
            return n * (14 if q else 9)
        if d.day == 1 or (d.day <= 3 and d.weekday() == 0):
            return n * 4
        return n
    L[0].n_fn = close
    L[1].n_fn = close
    L[5].n_fn = lambda d, n: n * (3 if d.day in (14, 15, 28, 29, 30) else 1)
    rows = lite_rows(rng, acct, L, days)
    write_csv(os.path.join(sdir, "data.csv"), LITE_HEADER, rows)
    return D(2024, 8, 31), acct, [], {}


# Q2 catalogue, FOCUS: first-of-month fees, tax, credit, amortised RI; alert on the 1st ---------
@scenario
def q2(sdir, rng):
    acct = "612390475512"
    days = drange(D(2024, 5, 1), 153)
    sub = "612390475512"
    L = []
    for k, (svc, cat, base, wk) in enumerate([
            ("Amazon Elastic Compute Cloud", "Compute", 740.0, 0.8),
            ("Amazon Relational Database Service", "Databases", 212.0, 1.0),
            ("Amazon Simple Storage Service", "Storage", 96.0, 1.0),
            ("Amazon CloudFront", "Networking", 133.0, 1.3),
            ("AWS Lambda", "Compute", 18.0, 0.6)]):
        L.append(aws_line(sub, "retail-web", "us-east-1", svc, cat,
                          f"arn:aws:{['ec2','rds','s3','cloudfront','lambda'][k]}:us-east-1:{sub}:main", "",
                          base, svc, "Hours", None, weekend=wk, noise=0.06))
    # amortised RI: BilledCost 0 daily, EffectiveCost carries it (BilledCost lump on the 1st)
    ri = aws_line(sub, "retail-web", "us-east-1", "Amazon Elastic Compute Cloud", "Compute",
                  f"arn:aws:ec2:us-east-1:{sub}:reserved-instances/7c2d9e41-ri", "", 0.0,
                  "m6i.4xlarge reserved instance applied usage", "Hours", None, noise=0.0,
                  extra={"CommitmentDiscountId": f"arn:aws:ec2:us-east-1:{sub}:reserved-instances/7c2d9e41-ri",
                         "CommitmentDiscountType": "Reserved Instance"})
    L.append(ri)
    fee = aws_line(sub, "retail-web", "us-east-1", "Amazon Elastic Compute Cloud", "Compute",
                   f"arn:aws:ec2:us-east-1:{sub}:reserved-instances/7c2d9e41-ri", "", 2803.2,
                   "Reserved Instance recurring monthly fee m6i.4xlarge x5 No Upfront", "Dollar", None,
                   on_day=lambda d: d.day == 1, freq="Recurring", noise=0.0, effective_ratio=0.0,
                   extra={"CommitmentDiscountId": f"arn:aws:ec2:us-east-1:{sub}:reserved-instances/7c2d9e41-ri",
                          "CommitmentDiscountType": "Reserved Instance"})
    fee.cat = "Purchase"
    L.append(fee)
    sup = aws_line(sub, "retail-web", "", "AWS Support (Business)", "Management and Governance", "", "",
                   420.0, "AWS Support (Business) monthly", "Dollar", None,
                   on_day=lambda d: d.day == 1, freq="Recurring", noise=0.0)
    L.append(sup)
    tax = aws_line(sub, "retail-web", "", "Tax", "Other", "", "", 310.0, "VAT (IE) on invoice",
                   "", None, on_day=lambda d: d.day == 1, freq="One-Time", noise=0.03)
    tax.cat = "Tax"
    L.append(tax)
    credit = aws_line(sub, "retail-web", "", "AWS Activate Credits", "Other", "", "", -500.0,
                      "AWS Activate promotional credit", "Dollar", None,
                      on_day=lambda d: d.day == 1, freq="One-Time", noise=0.0)
    credit.cat = "Credit"
    L.append(credit)
    # Route 53 hosted zones billed monthly on the 1st
    L.append(aws_line(sub, "retail-web", "global", "Amazon Route 53", "Networking", "", "", 12.5,
                      "$0.50 per Hosted Zone", "HostedZone", None, on_day=lambda d: d.day == 1,
                      freq="Recurring", noise=0.0))
    rows = focus_rows(rng, aws_fixed(acct, "Pennant Outfitters"), L, days)
    write_csv(os.path.join(sdir, "focus.csv"), FOCUS_BASE, rows)
    # alert on Sep 1 (a Sunday): the monthly lumps land on a low weekend day
    return D(2024, 9, 1), acct, [], {
        "levels": ["BillingAccountId", "ServiceName", "ResourceId"], "cost_column": "BilledCost"}


# Q3 catalogue, Lite: weekday/weekend habit; alert on a Monday after a holiday weekend -----------
@scenario
def q3(sdir, rng):
    acct = "e3b44a92-1c0f-4d7e-8a65-2b9f71d3c048"
    days = drange(D(2024, 3, 4), 120)
    L = [
        LiteLine("Azure", "VirtualMachines", "vdi-pool", "D4as_v5", 0.172, 80, weekend=0.12, noise=0.05),
        LiteLine("Azure", "AVD", "vdi-pool", "D8as_v5", 0.344, 14, weekend=0.2, noise=0.05),
        LiteLine("Azure", "AKS", "crm", "D4s_v5", 0.192, 10, weekend=0.9),
        LiteLine("Azure", "SQLDatabase", "crm", "GP_Gen5_8", 1.5, 1, noise=0.0),
        LiteLine("Azure", "AppService", "intranet", "P2v3", 0.338, 3, noise=0.0),
    ]
    holidays = {D(2024, 5, 27), D(2024, 5, 31)}  # Memorial Day, office closure Friday

    def hol(factor):
        return lambda d, n: n * factor if d in holidays else n
    L[0].n_fn = hol(0.15)
    L[1].n_fn = hol(0.2)
    rows = lite_rows(rng, acct, L, days)
    write_csv(os.path.join(sdir, "data.csv"), LITE_HEADER, rows)
    return D(2024, 6, 3), acct, [], {}


# Q4 novel, FOCUS: SAP HANA reservation exchange (x2idn -> x2iedn same value), cost-neutral -------
@scenario
def q4(sdir, rng):
    acct = "470021983365"
    days = drange(D(2024, 2, 1), 180)
    sub = "470021983365"
    EX = D(2024, 6, 12)
    L = []
    old_ri = f"arn:aws:ec2:eu-central-1:{sub}:reserved-instances/0b91f2c3-x2idn-3yr"
    new_ri = f"arn:aws:ec2:eu-central-1:{sub}:reserved-instances/5e7a04d1-x2iedn-3yr"
    hana_prod = f"arn:aws:ec2:eu-central-1:{sub}:instance/i-0d4c7b1a9e2f36580"
    hana_new = f"arn:aws:ec2:eu-central-1:{sub}:instance/i-07e1a5c3b9d8f2461"

    def hana(which):
        def f(d):
            old = d < EX
            if which == "old":
                return {"CommitmentDiscountId": old_ri, "ResourceId": hana_prod,
                        "ResourceName": "sap-hana-prd-db01",
                        "ChargeDescription": "x2idn.24xlarge Linux reserved instance applied usage"}
            return {}
        return f
    # the HANA host is resized during a maintenance window: old instance ends, new instance starts
    L.append(aws_line(sub, "sap-prod", "eu-central-1", "Amazon Elastic Compute Cloud", "Compute",
                      hana_prod, "Instance", 268.8, "x2idn.24xlarge Linux reserved instance applied usage",
                      "Hours", 11.2, tags(sap_sid="PRD", role="hana"), end=EX - ONE, noise=0.0,
                      extra={"CommitmentDiscountId": old_ri, "CommitmentDiscountType": "Reserved Instance",
                             "ResourceName": "sap-hana-prd-db01"}))
    L.append(aws_line(sub, "sap-prod", "eu-central-1", "Amazon Elastic Compute Cloud", "Compute",
                      hana_new, "Instance", 268.8, "x2iedn.16xlarge Linux reserved instance applied usage (exchanged)",
                      "Hours", 11.2, tags(sap_sid="PRD", role="hana"), start=EX, noise=0.0,
                      extra={"CommitmentDiscountId": new_ri, "CommitmentDiscountType": "Reserved Instance",
                             "ResourceName": "sap-hana-prd-db01"}))
    # a zero-dollar exchange record on the exchange day
    ex = aws_line(sub, "sap-prod", "eu-central-1", "Amazon Elastic Compute Cloud", "Compute",
                  new_ri, "ReservedInstance", 0.0, "Convertible RI exchange 0b91f2c3 -> 5e7a04d1 (true-up $0.00)",
                  "Dollar", None, on_day=lambda d: d == EX, freq="One-Time", noise=0.0,
                  extra={"CommitmentDiscountId": new_ri, "CommitmentDiscountType": "Reserved Instance"})
    ex.cat = "Purchase"
    L.append(ex)
    for rid, name, base, wk in [("i-02a8d3f1c4b7e9560", "sap-app-prd-01", 46.1, 1.0),
                                ("i-0c5e9b2a7d1f48e33", "sap-app-prd-02", 46.1, 1.0),
                                ("i-0f1a2b3c4d5e6f708", "sap-hana-qas-db01", 134.4, 0.0)]:
        L.append(aws_line(sub, "sap-prod", "eu-central-1", "Amazon Elastic Compute Cloud", "Compute",
                          f"arn:aws:ec2:eu-central-1:{sub}:instance/{rid}", "Instance", base,
                          "On Demand Linux instance hour", "Hours", 1.92, tags(sap_sid="PRD" if "prd" in name else "QAS"),
                          weekend=wk, noise=0.0, extra={"ResourceName": name}))
    for vol, base in [("vol-0aa1hanadata", 61.0), ("vol-0aa2hanalog", 22.0), ("vol-0aa3shared", 8.0)]:
        L.append(aws_line(sub, "sap-prod", "eu-central-1", "Amazon Elastic Block Store", "Storage",
                          f"arn:aws:ec2:eu-central-1:{sub}:volume/{vol}", "Volume", base,
                          "io2 / gp3 provisioned storage", "GB-Mo", 0.125 / 30, tags(sap_sid="PRD"),
                          noise=0.0))
    L.append(aws_line(sub, "sap-prod", "eu-central-1", "AWS Backup", "Storage",
                      f"arn:aws:backup:eu-central-1:{sub}:backup-vault:sap", "BackupVault", 14.0,
                      "Warm backup storage", "GB-Mo", 0.05 / 30, noise=0.03))
    rows = focus_rows(rng, aws_fixed(acct, "Hoffmann Maschinenbau AG", "EUR"), L, days)
    write_csv(os.path.join(sdir, "focus.csv"), FOCUS_BASE, rows)
    return EX, acct, [], {"levels": ["BillingAccountId", "ServiceName", "ResourceId"],
                          "cost_column": "BilledCost"}


# Q5 novel, FOCUS: quarterly disaster-recovery/load test, seen twice before, alert on the 3rd -----
@scenario
def q5(sdir, rng):
    acct = "538802176634"
    days = drange(D(2024, 1, 1), 300)
    sub = "538802176634"
    # first Tuesday of Feb, May, Aug (and Nov after the bill ends)
    tests = []
    for m in (2, 5, 8):
        d = D(2024, m, 1)
        while d.weekday() != 1:
            d += ONE
        tests.append(d)
    tset = set(tests)
    L = []
    L.append(aws_line(sub, "loadtest", "us-east-1", "Amazon Elastic Compute Cloud", "Compute",
                      f"arn:aws:ec2:us-east-1:{sub}:fleet/k6-load-generators", "Fleet", 0.0,
                      "Spot Linux c7i.4xlarge load generators", "Hours", 0.25, noise=0.05,
                      on_day=lambda d: d in tset, freq="Usage-Based"))
    L[-1].base = 1350.0
    L.append(aws_line(sub, "loadtest", "us-east-1", "AWS Data Transfer", "Networking",
                      f"arn:aws:ec2:us-east-1:{sub}:fleet/k6-load-generators", "Fleet", 0.0,
                      "$0.01 per GB - regional data transfer in/out", "GB", 0.01, noise=0.05,
                      on_day=lambda d: d in tset, freq="Usage-Based"))
    L[-1].base = 240.0
    for svc, cat, rid, base, wk in [
            ("Amazon Elastic Compute Cloud", "Compute", "autoScalingGroup:shop-web", 520.0, 0.8),
            ("Amazon Relational Database Service", "Databases", "db:shop-aurora", 310.0, 1.0),
            ("Amazon ElastiCache", "Databases", "cluster:shop-redis", 72.0, 1.0),
            ("Elastic Load Balancing", "Networking", "loadbalancer/app/shop/77e1", 28.0, 0.9),
            ("Amazon Simple Storage Service", "Storage", "shop-assets", 41.0, 1.0)]:
        bump = (lambda d: 2.2 if d in tset else 1.0) if cat in ("Compute", "Networking") else \
               (lambda d: 1.5 if d in tset else 1.0)
        L.append(aws_line(sub, "shop-prod", "us-east-1", svc, cat,
                          f"arn:aws:{svc.split()[-1].lower()}:us-east-1:{sub}:{rid}", "", base, svc,
                          "Hours", None, weekend=wk, noise=0.05, mult=bump,
                          extra={"SubAccountId": "538802170001"}))
    rows = focus_rows(rng, aws_fixed(acct, "Shopwell"), L, days)
    write_csv(os.path.join(sdir, "focus.csv"), FOCUS_BASE, rows)
    return tests[2], acct, [], {"levels": ["BillingAccountId", "SubAccountId", "ServiceName", "ResourceId"],
                                "cost_column": "BilledCost"}


# Q6 novel, FOCUS hourly: weekly node-pool rotation (new ResourceIds every Sunday), cost flat ----
@scenario
def q6(sdir, rng):
    acct = "019C77-4AD2E0-88F1B3"
    days = drange(D(2024, 9, 9), 63)
    proj = "edge-gateway-prod"
    L = []
    profile = [0.7, 0.65, 0.6, 0.6, 0.62, 0.7, 0.85, 1.0, 1.15, 1.25, 1.3, 1.3, 1.3, 1.28, 1.25, 1.2,
               1.15, 1.1, 1.05, 1.0, 0.95, 0.9, 0.8, 0.75]
    s = sum(profile)
    profile = [p / s for p in profile]
    flat = [1 / 24] * 24
    start = days[0]

    def gen_of(d):
        # node images rebuilt weekly, rotated in on Sunday
        return ((d - start).days + 1) // 7  # 9 Sep 2024 is a Monday

    for k in range(6):
        def attrs(d, k=k):
            g = gen_of(d)
            name = f"gke-edge-pool-a-{(g * 7919 + k * 104729) % 0xfffff:05x}-{k}"
            return {"ResourceId": f"//compute.googleapis.com/projects/{proj}/zones/europe-west3-{'abc'[k % 3]}/instances/{name}",
                    "ResourceName": name}
        L.append(gcp_line(proj, "europe-west3", "Compute Engine", "Compute", "x", 38.4,
                          "C3 Instance Core running in Frankfurt", "hour", 0.0571,
                          tags(pool="edge-a", image_week="rolling"), profile=flat, noise=0.01,
                          attr_fn=attrs))
    L.append(gcp_line(proj, "europe-west3", "Kubernetes Engine", "Compute",
                      f"//container.googleapis.com/projects/{proj}/locations/europe-west3/clusters/edge",
                      2.4, "Regional cluster management fee", "hour", 0.1, profile=flat, noise=0.0))
    L.append(gcp_line(proj, "europe-west3", "Networking", "Networking",
                      f"//compute.googleapis.com/projects/{proj}/regions/europe-west3/routers/edge-nat",
                      31.0, "Cloud NAT data processing", "gibibyte", 0.045, profile=profile,
                      weekend=0.75, noise=0.08))
    L.append(gcp_line(proj, "europe-west3", "Cloud Storage", "Storage",
                      f"//storage.googleapis.com/projects/_/buckets/edge-gateway-logs",
                      9.0, "Standard Storage Frankfurt", "gibibyte month", 0.023 / 720,
                      profile=flat, noise=0.01, mult=lambda d: 1 + 0.003 * (d - start).days))
    # sustained-use style discount credit row per day (negative)
    cud = gcp_line(proj, "europe-west3", "Compute Engine", "Compute", "", -23.0,
                   "Committed use discount: C3 Cores in Frankfurt", "hour", None, profile=flat,
                   noise=0.0, cat="Credit")
    L.append(cud)
    rows = focus_rows(rng, gcp_fixed(acct, "Kantwerk Edge GmbH", "EUR"), L, days, hourly=True,
                      first_hour=5, last_hour=18, nd=7)
    write_csv(os.path.join(sdir, "focus.csv"), FOCUS_BASE, rows)
    # alert on a Monday right after the Sunday rotation, which was also the month's 1st week
    alert = D(2024, 10, 7)
    return alert, acct, [], {"levels": ["BillingAccountId", "RegionId", "ServiceName", "ResourceId"],
                             "cost_column": "BilledCost"}


# Interleave quiet bills among the anomalies so their position tells nothing.
ORDER = [s01, q3, s02, s09, s03, s12, q1, s04, s14, s05, s10, q4, s06, s11, s07, q2, s13, s15,
         q5, s08, s16, q6, s17]


def main():
    if len(sys.argv) != 2:
        print("usage: gen.py OUT", file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    assert len(ORDER) == len(SCEN) and set(ORDER) == set(SCEN)
    for i, fn in enumerate(ORDER, 1):
        sdir = os.path.join(out, f"Scenario-{i}")
        os.makedirs(sdir, exist_ok=True)
        for f in ("data.csv", "focus.csv"):
            p = os.path.join(sdir, f)
            if os.path.exists(p):
                os.remove(p)
        rng = random.Random(20_000 + i * 7919)
        alert, acct, truth, meta = fn(sdir, rng)
        write_truth(sdir, truth)
        m = {"generator": "finops-set20 (independent measurer)"}
        m.update(meta)
        write_meta(sdir, alert, acct, m)
    print(f"wrote {len(ORDER)} scenarios under {out}")


if __name__ == "__main__":
    main()
