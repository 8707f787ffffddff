#!/usr/bin/env python3
"""finops-set21: held-out FinOps billing scenarios (stdlib only, deterministic).

usage: python gen.py OUT
Writes OUT/Scenario-<N>/{data.csv|focus.csv, anomaly.json, ground_truth.yaml, scenario.json}.
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

LITE_COLS = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
             "Price ($/hr)", "Num_Instances", "unblended_cost"]

FOCUS_COLS = ["BillingAccountId", "BillingAccountName", "BillingCurrency", "BillingPeriodStart",
              "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd", "ChargeCategory",
              "ChargeClass", "ChargeDescription", "ChargeFrequency", "ProviderName", "PublisherName",
              "InvoiceIssuerName", "ServiceCategory", "ServiceName", "SubAccountId",
              "SubAccountName", "RegionId", "RegionName", "AvailabilityZone", "ResourceId",
              "ResourceName", "ResourceType", "SkuId", "PricingCategory", "ConsumedQuantity",
              "ConsumedUnit", "PricingQuantity", "PricingUnit", "ListUnitPrice", "ListCost",
              "ContractedCost", "BilledCost", "EffectiveCost", "CommitmentDiscountId",
              "CommitmentDiscountType", "Tags"]

SCEN = []  # list of (builder function)


def scenario(fn):
    SCEN.append(fn)
    return fn


def days(start, n):
    return [start + ONE * i for i in range(n)]


def month_end(d):
    return (d + ONE).day == 1


def bp(d):
    s = d.replace(day=1)
    e = (s + dt.timedelta(days=32)).replace(day=1)
    return s, e


def fmt(x, nd=6):
    return f"{x:.{nd}f}"


# --------------------------------------------------------------------------------------------
# ITBench-Lite writer
# --------------------------------------------------------------------------------------------

def lite_rows(acct, start, n, lines, rng, shuffle=False):
    """lines: list of dicts csp, svc, app, fam, price, num(i, d)->int, hours(i,d)->float."""
    rows = []
    for i, d in enumerate(days(start, n)):
        for ln in lines:
            num = ln["num"](i, d)
            if num is None:
                continue
            price = ln["price"](i, d) if callable(ln["price"]) else ln["price"]
            hrs = ln.get("hours", lambda i, d: 24.0)(i, d)
            cost = price * num * hrs
            rows.append([d.isoformat(), acct, ln["csp"], ln["svc"], ln["app"], ln["fam"],
                         f"{price:.4f}", str(num), f"{cost:.4f}"])
    if shuffle:
        rng.shuffle(rows)
    return rows


def jitter(rng, base, pct):
    return max(0, int(round(base * (1 + rng.uniform(-pct, pct)))))


# --------------------------------------------------------------------------------------------
# FOCUS writer
# --------------------------------------------------------------------------------------------

class Focus:
    def __init__(self, acct, acct_name, currency="USD", extra_cols=()):
        self.acct, self.acct_name, self.cur = acct, acct_name, currency
        self.cols = FOCUS_COLS + list(extra_cols)
        self.rows = []

    def add(self, start, end, cost, *, provider, service, category, region, resource,
            sub="", subname="", qty=None, unit="Hours", desc="", charge="Usage", sku="",
            rtype="", rname="", tags=None, list_cost=None, effective=None, freq="Usage-Based",
            pcat="Standard", publisher=None, extra=None, cdid="", cdtype="", region_name="",
            az="", charge_class=""):
        s, e = bp(start.date() if isinstance(start, dt.datetime) else start)
        r = {
            "BillingAccountId": self.acct, "BillingAccountName": self.acct_name,
            "BillingCurrency": self.cur,
            "BillingPeriodStart": f"{s} 00:00:00", "BillingPeriodEnd": f"{e} 00:00:00",
            "ChargePeriodStart": tsfmt(start), "ChargePeriodEnd": tsfmt(end),
            "ChargeCategory": charge, "ChargeClass": charge_class, "ChargeDescription": desc,
            "ChargeFrequency": freq, "ProviderName": provider,
            "PublisherName": publisher or provider, "InvoiceIssuerName": provider,
            "ServiceCategory": category, "ServiceName": service, "SubAccountId": sub,
            "SubAccountName": subname, "RegionId": region, "RegionName": region_name,
            "AvailabilityZone": az, "ResourceId": resource, "ResourceName": rname,
            "ResourceType": rtype, "SkuId": sku, "PricingCategory": pcat,
            "ConsumedQuantity": "" if qty is None else fmt(qty),
            "ConsumedUnit": unit if qty is not None else "",
            "PricingQuantity": "" if qty is None else fmt(qty),
            "PricingUnit": unit if qty is not None else "",
            "ListUnitPrice": "" if not qty else fmt((list_cost if list_cost is not None else cost) / qty, 8),
            "ListCost": fmt(list_cost if list_cost is not None else cost, 8),
            "ContractedCost": fmt(cost, 8), "BilledCost": fmt(cost, 8),
            "EffectiveCost": fmt(effective if effective is not None else cost, 8),
            "CommitmentDiscountId": cdid, "CommitmentDiscountType": cdtype,
            "Tags": json.dumps(tags, sort_keys=True) if tags else "",
        }
        for k, v in (extra or {}).items():
            r[k] = v
        self.rows.append(r)

    def text(self, rng=None, shuffle=False):
        rows = list(self.rows)
        if shuffle and rng:
            rng.shuffle(rows)
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=self.cols, lineterminator="\n", restval="")
        w.writeheader()
        for r in rows:
            w.writerow(r)
        return out.getvalue()


def tsfmt(t):
    if isinstance(t, dt.datetime):
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")
    return f"{t.isoformat()} 00:00:00"


# --------------------------------------------------------------------------------------------
# scenario writer
# --------------------------------------------------------------------------------------------

def write(out, idx, *, kind, files, alert, acct, truth, meta):
    d = os.path.join(out, f"Scenario-{idx}")
    os.makedirs(d, exist_ok=True)
    for name, txt in files.items():
        with open(os.path.join(d, name), "w", newline="") as f:
            f.write(txt)
    with open(os.path.join(d, "anomaly.json"), "w") as f:
        f.write(json.dumps({"date": alert.isoformat(), "account_id": str(acct)}) + "\n")
    with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
        if truth:
            f.write("resource:\n")
            for name, typ in truth:
                f.write(f"- name: {yq(name)}\n  type: {typ}\n")
        else:
            f.write("resource: []\n")
    meta = dict(meta)
    meta["generator"] = "finops-set21"
    with open(os.path.join(d, "scenario.json"), "w") as f:
        f.write(json.dumps(meta, indent=2, sort_keys=True) + "\n")


def yq(s):
    return json.dumps(s)  # JSON string is valid YAML


def lite_text(rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(LITE_COLS)
    w.writerows(rows)
    return out.getvalue()


WEEK_BIZ = [1.0, 1.02, 1.03, 1.01, 0.97, 0.62, 0.58]  # Mon..Sun


def wk(d, prof=WEEK_BIZ):
    return prof[d.weekday()]


# ============================================================================================
# ITBench-Lite bills
# ============================================================================================

@scenario
def s_lite_asg_runaway(rng):
    """catalogue / Instance_Family: autoscaling group stuck at max after a bad scaling policy."""
    acct = "418266103597"
    start, n = D(2025, 1, 6), 140
    ev = start + ONE * 118
    lines = []
    specs = [
        ("EC2", "checkout", "c6i.2xlarge", 0.340, 11, True),
        ("EC2", "checkout", "m6i.large", 0.096, 6, False),
        ("EC2", "catalog-api", "m6i.xlarge", 0.192, 9, True),
        ("EC2", "catalog-api", "r6i.large", 0.126, 4, False),
        ("RDS", "checkout", "db.r6g.2xlarge", 0.899, 2, False),
        ("RDS", "catalog-api", "db.r6g.xlarge", 0.450, 2, False),
        ("EKS", "batch-etl", "m6a.4xlarge", 0.691, 5, True),
        ("ElastiCache", "checkout", "cache.r6g.large", 0.206, 3, False),
    ]
    for svc, app, fam, price, base, weekly in specs:
        def num(i, d, base=base, weekly=weekly, fam=fam):
            b = base * (wk(d) if weekly else 1.0)
            if fam == "c6i.2xlarge" and d >= ev:
                return jitter(rng, 38, 0.03)
            return jitter(rng, b, 0.08) if weekly else base
        lines.append(dict(csp="AWS", svc=svc, app=app, fam=fam, price=price, num=num))
    rows = lite_rows(acct, start, n, lines, rng)
    return dict(kind="lite", files={"data.csv": lite_text(rows)}, alert=ev, acct=acct,
                truth=[("c6i.2xlarge", "Instance_Family")],
                meta={"half": "catalogue", "level": "Instance_Family", "alert": "first day"})


@scenario
def s_lite_forgotten_gpu(rng):
    """catalogue / Instance_Family: GPU training pool left up after an experiment."""
    acct = "gcp-billing-01A7C3-55E2F9"
    start, n = D(2024, 10, 1), 92
    ev = start + ONE * 74
    lines = []
    specs = [
        ("ComputeEngine", "ml-research", "n2-standard-8", 0.389, 6),
        ("ComputeEngine", "ml-research", "a2-highgpu-1g", 3.673, 0),
        ("ComputeEngine", "web-frontend", "e2-standard-4", 0.134, 14),
        ("GKE", "web-frontend", "e2-standard-8", 0.268, 9),
        ("GKE", "recommendations", "n2-highmem-8", 0.524, 5),
        ("CloudSQL", "web-frontend", "db-custom-8-32768", 0.718, 2),
        ("ComputeEngine", "recommendations", "c2-standard-16", 0.835, 3),
    ]
    for svc, app, fam, price, base in specs:
        def num(i, d, base=base, fam=fam, app=app):
            if fam == "a2-highgpu-1g":
                # a two-day sanctioned run in November, then the one left running
                if D(2024, 11, 12) <= d <= D(2024, 11, 13):
                    return 4
                if d >= ev:
                    return 8
                return None
            if app == "recommendations" and month_end(d):
                return base * 3  # month-end model retrain, every month
            return jitter(rng, base, 0.1)
        lines.append(dict(csp="GCP", svc=svc, app=app, fam=fam, price=price, num=num))
    rows = lite_rows(acct, start, n, lines, rng)
    return dict(kind="lite", files={"data.csv": lite_text(rows)}, alert=ev + ONE * 3, acct=acct,
                truth=[("a2-highgpu-1g", "Instance_Family")],
                meta={"half": "catalogue", "level": "Instance_Family",
                      "alert": "3 days late, still present"})


@scenario
def s_lite_windows_image(rng):
    """novel / Instance_Family: VM scale set rebuilt from a Windows licence-included image."""
    acct = "7d3e21c0-5b8a-4f0e-9d61-2c4a8e9b1f07"
    start, n = D(2025, 3, 1), 75
    ev = start + ONE * 61
    lines = []
    specs = [
        ("VirtualMachines", "erp", "D4s_v5", 0.192, 10),
        ("VirtualMachines", "erp", "E8s_v5", 0.504, 4),
        ("VirtualMachines", "intranet", "B2ms", 0.083, 7),
        ("AKS", "intranet", "D2s_v5", 0.096, 12),
        ("SQLDatabase", "erp", "GP_Gen5_8", 2.016, 1),
        ("AKS", "partner-portal", "D8s_v5", 0.384, 3),
    ]
    for svc, app, fam, price, base in specs:
        def pr(i, d, price=price, fam=fam):
            if fam == "D4s_v5" and d >= ev:
                return 0.376  # Windows Server licence now included in the hourly rate
            return price
        def num(i, d, base=base, fam=fam):
            if fam in ("D2s_v5",):
                return jitter(rng, base * wk(d), 0.06)
            return base
        lines.append(dict(csp="Azure", svc=svc, app=app, fam=fam, price=pr, num=num))
    rows = lite_rows(acct, start, n, lines, rng)
    return dict(kind="lite", files={"data.csv": lite_text(rows)}, alert=ev + ONE * 2, acct=acct,
                truth=[("D4s_v5", "Instance_Family")],
                meta={"half": "novel", "level": "Instance_Family",
                      "alert": "2 days late, still present (same instance count, higher rate)"})


@scenario
def s_lite_reindex_app(rng):
    """catalogue / Application: full search reindex scaled the whole application."""
    acct = "602941177358"
    start, n = D(2024, 5, 13), 210
    ev = start + ONE * 188
    lines = []
    specs = [
        ("EC2", "search", "r6g.2xlarge", 0.403, 6),
        ("EC2", "search", "i4i.xlarge", 0.343, 4),
        ("OpenSearch", "search", "r6g.large.search", 0.167, 6),
        ("EC2", "storefront", "c7g.xlarge", 0.145, 10),
        ("EC2", "storefront", "m7g.large", 0.082, 8),
        ("OpenSearch", "logging", "r6g.large.search", 0.167, 4),
        ("EC2", "logging", "m7g.large", 0.082, 3),
        ("RDS", "storefront", "db.m6g.xlarge", 0.336, 2),
    ]
    for svc, app, fam, price, base in specs:
        def num(i, d, base=base, app=app, svc=svc):
            if app == "search" and d >= ev:
                return jitter(rng, base * 2.6, 0.05)
            if app == "storefront" and svc == "EC2":
                # Black-Friday-ish peak from last year is not in history; normal weekly shape
                return jitter(rng, base * (1.25 if d.weekday() in (5, 6) else 1.0), 0.07)
            return base
        lines.append(dict(csp="AWS", svc=svc, app=app, fam=fam, price=price, num=num))
    rows = lite_rows(acct, start, n, lines, rng)
    return dict(kind="lite", files={"data.csv": lite_text(rows)}, alert=ev, acct=acct,
                truth=[("search", "Application")],
                meta={"half": "catalogue", "level": "Application", "alert": "first day"})


@scenario
def s_lite_cron_hourly(rng):
    """novel / Application: a report job's schedule edited from daily to hourly; its workers
    ramp across two services as the backlog of catch-up runs grows."""
    acct = "339105822416"
    start, n = D(2025, 6, 2), 96
    ev = start + ONE * 80
    lines = []
    specs = [
        ("EKS", "report-builder", "m6i.xlarge", 0.192, 2),
        ("EC2", "report-builder", "c6i.large", 0.085, 1),
        ("EKS", "billing-api", "m6i.xlarge", 0.192, 6),
        ("EKS", "billing-api", "m6i.2xlarge", 0.384, 2),
        ("EC2", "bastion", "t3.small", 0.0208, 1),
        ("EC2", "billing-api", "c6i.xlarge", 0.17, 4),
        ("RDS", "billing-api", "db.r6i.xlarge", 0.50, 2),
    ]
    for svc, app, fam, price, base in specs:
        def num(i, d, base=base, app=app):
            if app == "report-builder" and d >= ev:
                k = (d - ev).days
                return int(round(base * min(1 + 1.3 * (k + 1), 7.5)))
            if app == "billing-api":
                return jitter(rng, base * wk(d), 0.05)
            return base
        lines.append(dict(csp="AWS", svc=svc, app=app, fam=fam, price=price, num=num))
    rows = lite_rows(acct, start, n, lines, rng)
    return dict(kind="lite", files={"data.csv": lite_text(rows)}, alert=ev + ONE * 4, acct=acct,
                truth=[("report-builder", "Application")],
                meta={"half": "novel", "level": "Application", "alert": "4 days late, a ramp"})


@scenario
def s_lite_azure_discount(rng):
    """catalogue / CSP: Azure enterprise agreement discount lapsed at renewal; every Azure line
    is re-rated while AWS and GCP lines of the same apps stay put."""
    acct = "880214553106"
    start, n = D(2024, 11, 1), 120
    ev = D(2025, 2, 20)
    lines = []
    specs = [
        ("AWS", "EC2", "payments", "m6i.xlarge", 0.192, 8),
        ("AWS", "EKS", "payments", "c6i.2xlarge", 0.34, 5),
        ("AWS", "RDS", "payments", "db.r6g.xlarge", 0.45, 2),
        ("Azure", "VirtualMachines", "identity", "D4s_v5", 0.154, 12),
        ("Azure", "AKS", "identity", "D8s_v5", 0.307, 9),
        ("Azure", "SQLDatabase", "crm", "GP_Gen5_4", 0.806, 3),
        ("Azure", "VirtualMachines", "crm", "E4s_v5", 0.202, 6),
        ("GCP", "GKE", "analytics", "n2-standard-8", 0.389, 5),
        ("GCP", "BigQuery", "analytics", "slots-100", 4.0, 1),
    ]
    for csp, svc, app, fam, price, base in specs:
        def pr(i, d, price=price, csp=csp):
            return price * 1.45 if (csp == "Azure" and d >= ev) else price
        def num(i, d, base=base, csp=csp, svc=svc):
            if svc in ("EKS", "AKS", "GKE"):
                return jitter(rng, base * wk(d), 0.08)
            return base
        lines.append(dict(csp=csp, svc=svc, app=app, fam=fam, price=pr, num=num))
    rows = lite_rows(acct, start, n, lines, rng)
    return dict(kind="lite", files={"data.csv": lite_text(rows)}, alert=ev, acct=acct,
                truth=[("Azure", "CSP")],
                meta={"half": "catalogue", "level": "CSP", "alert": "first day"})


@scenario
def s_lite_eks_autoscaler(rng):
    """catalogue / Cloud_Service: shared EKS cluster's autoscaler scale-down disabled; every
    node group of every team grows; EC2 outside the cluster unchanged."""
    acct = "275630918844"
    start, n = D(2025, 2, 3), 100
    ev = start + ONE * 85
    lines = []
    specs = [
        ("EKS", "orders", "m6i.xlarge", 0.192, 8),
        ("EKS", "orders", "c6i.xlarge", 0.17, 4),
        ("EKS", "notifications", "m6i.large", 0.096, 6),
        ("EKS", "search", "r6i.xlarge", 0.252, 5),
        ("EC2", "orders", "m6i.xlarge", 0.192, 4),
        ("EC2", "search", "r6i.xlarge", 0.252, 3),
        ("EC2", "vpn", "t3.medium", 0.0416, 2),
        ("RDS", "orders", "db.r6g.large", 0.225, 2),
    ]
    for svc, app, fam, price, base in specs:
        def num(i, d, base=base, svc=svc):
            if svc == "EKS":
                if d >= ev:
                    return jitter(rng, base * 2.1, 0.04)
                return jitter(rng, base * wk(d), 0.08)
            return base
        lines.append(dict(csp="AWS", svc=svc, app=app, fam=fam, price=price, num=num))
    rows = lite_rows(acct, start, n, lines, rng)
    return dict(kind="lite", files={"data.csv": lite_text(rows)}, alert=ev, acct=acct,
                truth=[("EKS", "Cloud_Service")],
                meta={"half": "catalogue", "level": "Cloud_Service", "alert": "first day"})


@scenario
def s_lite_quiet_monthend(rng):
    """catalogue / quiet: month-end close batch every month; alert on a month-end day."""
    acct = "514077290163"
    start, n = D(2024, 7, 1), 184
    lines = []
    specs = [
        ("EC2", "ledger", "r6i.2xlarge", 0.504, 4),
        ("EMR", "ledger", "m5.4xlarge", 0.768, 2),
        ("EC2", "portal", "m6i.large", 0.096, 10),
        ("RDS", "ledger", "db.r6i.2xlarge", 1.008, 1),
        ("EC2", "portal", "c6i.xlarge", 0.17, 3),
    ]
    for svc, app, fam, price, base in specs:
        def num(i, d, base=base, svc=svc, app=app):
            if svc == "EMR":
                # close runs on the last 3 calendar days of each month
                dl = ((d.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - d).days
                if dl <= 3:
                    return base * 9 + (2 if dl == 1 else 0)
                return base
            if app == "portal":
                return jitter(rng, base * wk(d), 0.08)
            return base
        lines.append(dict(csp="AWS", svc=svc, app=app, fam=fam, price=price, num=num))
    rows = lite_rows(acct, start, n, lines, rng)
    return dict(kind="lite", files={"data.csv": lite_text(rows)}, alert=D(2024, 12, 29),
                acct=acct, truth=[],
                meta={"half": "catalogue", "level": None,
                      "alert": "3rd-last day of December: the month-end EMR close, seen 5 times before"})


@scenario
def s_lite_quiet_holiday(rng):
    """novel / quiet: dev/test fleet runs weekdays only; a bank-holiday Monday then Tuesday back."""
    acct = "746210085529"
    start, n = D(2025, 3, 3), 98
    hol = D(2025, 5, 26)  # Memorial Day
    lines = []
    specs = [
        ("EC2", "dev-sandbox", "m6i.xlarge", 0.192, 14),
        ("EC2", "qa-runners", "c6i.2xlarge", 0.34, 9),
        ("EKS", "dev-sandbox", "m6i.large", 0.096, 10),
        ("RDS", "qa-runners", "db.t4g.large", 0.129, 3),
        ("EC2", "ci-cache", "r6g.large", 0.101, 2),
    ]
    for svc, app, fam, price, base in specs:
        def num(i, d, base=base, svc=svc, app=app):
            if svc == "RDS" or app == "ci-cache":
                return base
            if d.weekday() >= 5 or d in (hol, D(2025, 4, 18)):
                return max(1, base // 7)
            return jitter(rng, base, 0.05)
        def hrs(i, d, app=app):
            return 24.0
        lines.append(dict(csp="AWS", svc=svc, app=app, fam=fam, price=price, num=num, hours=hrs))
    rows = lite_rows(acct, start, n, lines, rng, shuffle=True)
    return dict(kind="lite", files={"data.csv": lite_text(rows)}, alert=hol + ONE, acct=acct,
                truth=[],
                meta={"half": "novel", "level": None,
                      "alert": "Tuesday after Memorial Day: weekday fleet back after 3 quiet days"})


# ============================================================================================
# FOCUS bills
# ============================================================================================

def noise(rng, x, pct=0.05):
    return x * (1 + rng.uniform(-pct, pct))


def fmeta(half, level, alert, levels, cost="BilledCost"):
    return {"half": half, "level": level, "alert": alert, "levels": levels, "cost_column": cost}


AWS_LEVELS = ["BillingAccountId", "ProviderName", "ServiceName", "RegionId", "ResourceId"]


@scenario
def s_focus_google_cud(rng):
    """catalogue / ProviderName: Google committed use discounts ended (not renewed); every
    Google line re-rated; AWS and Microsoft unchanged."""
    acct = "FIN-CONSOL-0042"
    f = Focus(acct, "Northwind Consolidated")
    start, n = D(2025, 4, 1), 150
    ev = D(2025, 8, 14)
    res = [
        ("AWS", "Amazon Elastic Compute Cloud", "Compute", "us-east-1", "i-0a7c1e55f0b2d9e31", 310),
        ("AWS", "Amazon Relational Database Service", "Databases", "us-east-1", "arn:aws:rds:us-east-1:558812340071:db:orders-prod", 140),
        ("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1", "northwind-lake-raw", 55),
        ("Microsoft", "Virtual Machines", "Compute", "westeurope", "/subscriptions/3f1a/resourceGroups/rg-crm/providers/Microsoft.Compute/virtualMachineScaleSets/vmss-crm", 180),
        ("Microsoft", "Azure Cosmos DB", "Databases", "westeurope", "/subscriptions/3f1a/resourceGroups/rg-crm/providers/Microsoft.DocumentDB/databaseAccounts/crm-cosmos", 95),
        ("Google Cloud", "Compute Engine", "Compute", "us-central1", "projects/nw-analytics/zones/us-central1-a/instances/spark-worker-pool", 260),
        ("Google Cloud", "Compute Engine", "Compute", "europe-west1", "projects/nw-analytics/zones/europe-west1-b/instances/etl-runner", 120),
        ("Google Cloud", "Cloud SQL", "Databases", "us-central1", "projects/nw-analytics/instances/pg-warehouse", 85),
        ("Google Cloud", "Kubernetes Engine", "Compute", "us-central1", "projects/nw-analytics/locations/us-central1/clusters/gke-analytics", 150),
    ]
    for d in days(start, n):
        for prov, svc, cat, reg, rid, base in res:
            lst = noise(rng, base * (1.0 if cat != "Compute" or prov != "AWS" else wk(d, [1, 1, 1, 1, 1, .8, .8])), 0.04)
            disc = 0.63 if prov == "Google Cloud" and svc in ("Compute Engine", "Kubernetes Engine", "Cloud SQL") and d < ev else 1.0
            if prov == "AWS" and svc == "Amazon Elastic Compute Cloud":
                disc = 0.72  # Savings Plan covered, continuing
            c = lst * disc
            f.add(d, d + ONE, c, provider=prov, service=svc, category=cat, region=reg, resource=rid,
                  sub={"AWS": "558812340071", "Microsoft": "3f1a9e02-sub", "Google Cloud": "nw-analytics"}[prov],
                  qty=24.0, list_cost=lst, desc=f"{svc} usage", pcat="Committed" if disc < 1 else "Standard")
        if d.day == 1:
            f.add(d, bp(d)[1], 1200.0, provider="AWS", service="AWS Support (Business)", category="Management and Governance",
                  region="", resource="", sub="558812340071", charge="Purchase", freq="Recurring",
                  desc="Business support plan, monthly")
    levels = ["BillingAccountId", "ProviderName", "ServiceName", "ResourceId"]
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=ev + ONE * 3, acct=acct,
                truth=[("Google Cloud", "ProviderName")],
                meta=fmeta("catalogue", "ProviderName", "3 days late, still present", levels))


@scenario
def s_focus_oci_overage(rng):
    """novel / ProviderName: Oracle Universal Credits commitment used up; OCI usage across all
    services now billed at pay-as-you-go overage rate (BilledCost up ~30% at the same usage)."""
    acct = "ACME-FOCUS-7781"
    f = Focus(acct, "Acme Holdings", extra_cols=["x_ContractLine"])
    start, n = D(2025, 1, 1), 240
    ev = D(2025, 8, 19)
    res = [
        ("Oracle", "Compute", "Compute", "us-ashburn-1", "ocid1.instance.oc1.iad.aaaa7q2", 140, "Hours"),
        ("Oracle", "Autonomous Database", "Databases", "us-ashburn-1", "ocid1.autonomousdatabase.oc1.iad.abuw4k", 220, "OCPU Hours"),
        ("Oracle", "Object Storage", "Storage", "us-ashburn-1", "ocid1.bucket.oc1.iad.ledger-archive", 40, "GB-Month"),
        ("Oracle", "Block Volume", "Storage", "us-phoenix-1", "ocid1.volume.oc1.phx.abyh2m", 25, "GB-Month"),
        ("AWS", "Amazon Elastic Compute Cloud", "Compute", "us-east-2", "i-03f5d1c0b7a92e604", 260, "Hours"),
        ("AWS", "Amazon CloudFront", "Networking", "global", "E2QWRUHAPOMQZL", 60, "GB"),
        ("AWS", "Amazon Simple Storage Service", "Storage", "us-east-2", "acme-web-assets", 30, "GB-Month"),
    ]
    for d in days(start, n):
        for prov, svc, cat, reg, rid, base, unit in res:
            grow = 1 + 0.0006 * (d - start).days if unit.startswith("GB-M") else 1.0
            lst = noise(rng, base * grow * (wk(d) if svc in ("Amazon CloudFront",) else 1.0), 0.05)
            if prov == "Oracle":
                c = lst * (0.66 if d < ev else 1.0)
                line = "UC-2024-ANNUAL" if d < ev else "PAYG-OVERAGE"
            else:
                c, line = lst, ""
            f.add(d, d + ONE, c, provider=prov, service=svc, category=cat, region=reg, resource=rid,
                  qty=lst / 0.05, unit=unit, list_cost=lst, extra={"x_ContractLine": line},
                  pcat="Committed" if line.startswith("UC") else "Standard")
        if d.day == 1:
            f.add(d, bp(d)[1], -150.0, provider="AWS", service="AWS Credits", category="Other",
                  region="", resource="", charge="Credit", freq="One-Time", desc="Activate credits")
    levels = ["BillingAccountId", "ProviderName", "ServiceName", "RegionId", "ResourceId"]
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=ev, acct=acct,
                truth=[("Oracle", "ProviderName")],
                meta=fmeta("novel", "ProviderName", "first day", levels))


@scenario
def s_focus_cw_logs(rng):
    """catalogue / ServiceName: a shared logging library released with DEBUG on; CloudWatch Logs
    ingestion up on every log group of all three accounts."""
    acct = "310944172588"
    f = Focus(acct, "Payments Org")
    start, n = D(2025, 7, 1), 75
    ev = D(2025, 9, 4)
    subs = [("310944172588", "payments-prod"), ("421733905126", "payments-stage"), ("995102347718", "shared-svcs")]
    groups = ["/aws/lambda/authorize", "/aws/eks/pay-cluster/application", "/ecs/ledger-writer", "/aws/apigateway/public"]
    for d in days(start, n):
        for si, (sid, sname) in enumerate(subs):
            for gi, g in enumerate(groups):
                gb = noise(rng, (30 - 8 * si) * (gi + 1) / 2.0 * wk(d, [1, 1, 1, 1, 1, .7, .65]), 0.08)
                if d >= ev:
                    gb *= 4.5 + 0.3 * gi
                f.add(d, d + ONE, gb * 0.50, provider="AWS", service="AmazonCloudWatch",
                      category="Management and Governance", region="us-east-1",
                      resource=f"arn:aws:logs:us-east-1:{sid}:log-group:{g}", sub=sid, subname=sname,
                      qty=gb, unit="GB", desc="$0.50 per GB custom log data ingested", sku="USE1-DataProcessing-Bytes")
            for svc, cat, base, rid in [
                ("Amazon Elastic Kubernetes Service", "Compute", 72 - si * 20, f"arn:aws:eks:us-east-1:{sid}:cluster/pay-cluster"),
                ("Amazon Elastic Compute Cloud", "Compute", 610 - si * 180, f"arn:aws:ec2:us-east-1:{sid}:nodegroup/pay-ng"),
                ("AWS Lambda", "Compute", 44 - si * 10, f"arn:aws:lambda:us-east-1:{sid}:function:authorize"),
                ("Amazon DynamoDB", "Databases", 120 - si * 35, f"arn:aws:dynamodb:us-east-1:{sid}:table/ledger"),
            ]:
                f.add(d, d + ONE, noise(rng, base * wk(d, [1, 1, 1, 1, 1, .8, .75]), 0.05), provider="AWS",
                      service=svc, category=cat, region="us-east-1", resource=rid, sub=sid, subname=sname, qty=24.0)
            f.add(d, d + ONE, noise(rng, 6.0, 0.03), provider="AWS", service="AmazonCloudWatch",
                  category="Management and Governance", region="us-east-1", resource="", sub=sid, subname=sname,
                  qty=200.0, unit="Metrics", desc="$0.30 per metric-month, first 10,000 metrics")
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=ev, acct=acct,
                truth=[("AmazonCloudWatch", "ServiceName")],
                meta=fmeta("catalogue", "ServiceName", "first day",
                           ["BillingAccountId", "SubAccountId", "ServiceName", "ResourceId"]))


@scenario
def s_focus_config_churn(rng):
    """novel / ServiceName: AWS Config recorded a configuration-item storm in every region (a
    controller churning ENIs/security groups); two days, fixed; alert after it was over."""
    acct = "667012398451"
    f = Focus(acct, "Retail Platform")
    start, n = D(2025, 5, 1), 130
    ev = D(2025, 8, 27)
    regs = ["us-east-1", "us-west-2", "eu-central-1"]
    for d in days(start, n):
        for ri, r in enumerate(regs):
            items = noise(rng, 9000 - 2500 * ri, 0.1)
            if ev <= d <= ev + ONE:
                items *= 22 if d == ev else 17
            f.add(d, d + ONE, items * 0.003, provider="AWS", service="AWS Config",
                  category="Management and Governance", region=r, resource="", qty=items,
                  unit="ConfigurationItemRecorded", desc="$0.003 per Configuration Item recorded")
            for svc, cat, base, rid in [
                ("Amazon Elastic Compute Cloud", "Compute", 900 - 250 * ri, f"arn:aws:ec2:{r}:667012398451:fleet/web"),
                ("Amazon Virtual Private Cloud", "Networking", 85 - 20 * ri, f"arn:aws:ec2:{r}:667012398451:natgateway/nat-{ri}a"),
                ("Amazon Relational Database Service", "Databases", 300 - 80 * ri, f"arn:aws:rds:{r}:667012398451:cluster:core"),
            ]:
                f.add(d, d + ONE, noise(rng, base * wk(d, [1, 1, 1, 1, 1.05, 1.2, 1.15]), 0.05), provider="AWS",
                      service=svc, category=cat, region=r, resource=rid, qty=24.0)
        if d.day == 1:
            f.add(d, bp(d)[1], 0.0, provider="AWS", service="Tax", category="Other", region="",
                  resource="", charge="Tax", desc="Sales tax (exempt)", freq="Recurring")
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=ev + ONE * 3, acct=acct,
                truth=[("AWS Config", "ServiceName")],
                meta=fmeta("novel", "ServiceName", "3 days late: the 2-day storm is already over",
                           ["BillingAccountId", "ServiceName", "RegionId", "ResourceId"]))


@scenario
def s_focus_dr_region(rng):
    """novel / RegionId: failover drill to westus2; primary came back but the warm standby region
    stayed scaled up (VMSS, SQL replicas, storage) afterwards."""
    acct = "EA-55120987"
    f = Focus(acct, "Contoso Enterprise", currency="EUR")
    start, n = D(2025, 2, 1), 200
    drill = D(2025, 8, 9)  # Saturday
    specs = [
        ("Virtual Machines", "Compute", "vmss-web", 420, 40),
        ("Azure SQL Database", "Databases", "sql-core", 260, 70),
        ("Storage", "Storage", "stcontosodata", 90, 30),
        ("Azure Kubernetes Service", "Compute", "aks-api", 310, 25),
    ]
    for d in days(start, n):
        for reg in ("eastus", "westus2"):
            for svc, cat, name, prim, standby in specs:
                if reg == "eastus":
                    base = prim * (0.15 if drill <= d <= drill + ONE else 1.0)
                else:
                    base = standby
                    if d >= drill:
                        base = prim * 0.92
                c = noise(rng, base, 0.04)
                f.add(d, d + ONE, c, provider="Microsoft", service=svc, category=cat, region=reg,
                      resource=f"/subscriptions/9b7e/resourceGroups/rg-{reg}/providers/x/{name}-{reg}",
                      sub="9b7e-prod", subname="Prod", qty=24.0, rname=f"{name}-{reg}")
        f.add(d, d + ONE, noise(rng, 18, 0.02), provider="Microsoft", service="Azure Monitor",
              category="Management and Governance", region="global", resource="", sub="9b7e-prod", qty=1.0)
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=drill + ONE * 4, acct=acct,
                truth=[("westus2", "RegionId")],
                meta=fmeta("novel", "RegionId", "4 days late; the drill itself is over, the standby region stayed up",
                           ["BillingAccountId", "RegionId", "ServiceName", "ResourceId"]))


@scenario
def s_focus_new_region(rng):
    """catalogue / RegionId: ap-southeast-2 stood up for an Australian launch (new lines in EC2,
    RDS, ELB, S3 at once)."""
    acct = "209876543216"
    f = Focus(acct, "Globex")
    start, n = D(2025, 3, 10), 160
    ev = D(2025, 8, 11)
    svcs = [("Amazon Elastic Compute Cloud", "Compute", 700, "i-fleet"),
            ("Amazon Relational Database Service", "Databases", 260, "db:app"),
            ("Elastic Load Balancing", "Networking", 45, "loadbalancer/app/edge"),
            ("Amazon Simple Storage Service", "Storage", 35, "bucket")]
    for d in days(start, n):
        for reg, scale in (("us-east-1", 1.0), ("eu-west-1", 0.55), ("ap-southeast-2", 0.6)):
            if reg == "ap-southeast-2" and d < ev:
                continue
            for svc, cat, base, rid in svcs:
                f.add(d, d + ONE, noise(rng, base * scale * wk(d, [1, 1, 1, 1, 1, .85, .8]), 0.05),
                      provider="AWS", service=svc, category=cat, region=reg,
                      resource=f"arn:aws:{cat.lower()}:{reg}:209876543216:{rid}-{reg}", qty=24.0)
        if d.day == 1:
            f.add(d, bp(d)[1], noise(rng, 410, 0.01), provider="AWS", service="Tax", category="Other",
                  region="", resource="", charge="Tax", freq="Recurring", desc="VAT")
    return dict(kind="focus", files={"focus.csv": f.text(rng, shuffle=True)}, alert=ev, acct=acct,
                truth=[("ap-southeast-2", "RegionId")],
                meta=fmeta("catalogue", "RegionId", "first day", AWS_LEVELS))


@scenario
def s_focus_gclb_region(rng):
    """novel / RegionId: global load balancer's traffic policy pinned to us-central1; every
    service in that region scales (backends, Memorystore, Cloud SQL replicas, egress)."""
    acct = "01B2C3-D4E5F6-778899"
    f = Focus(acct, "Initech Cloud")
    start, n = D(2025, 6, 1), 110
    ev = D(2025, 9, 5)
    svcs = [("Compute Engine", "Compute", 380, "instanceGroups/web-mig"),
            ("Cloud SQL", "Databases", 150, "instances/pg-replica"),
            ("Cloud Memorystore for Redis", "Databases", 60, "instances/session-cache"),
            ("Networking", "Networking", 70, "egress")]
    for d in days(start, n):
        for reg in ("us-central1", "europe-west1", "asia-east1"):
            for svc, cat, base, rid in svcs:
                m = 1.0
                if reg == "us-central1" and d >= ev:
                    m = 1.95
                f.add(d, d + ONE, noise(rng, base * m * wk(d, [1, 1, 1, 1, 1, .9, .9]), 0.05),
                      provider="Google Cloud", service=svc, category=cat, region=reg,
                      resource=f"projects/initech-web/regions/{reg}/{rid}", sub="initech-web", qty=24.0,
                      tags={"env": "prod", "team": "web"})
        f.add(d, d + ONE, noise(rng, 22, 0.05), provider="Google Cloud", service="BigQuery",
              category="Analytics", region="US", resource="projects/initech-bi/datasets/web_logs",
              sub="initech-bi", qty=1.0, unit="TiB")
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=ev + ONE * 2, acct=acct,
                truth=[("us-central1", "RegionId")],
                meta=fmeta("novel", "RegionId", "2 days late, still present",
                           ["BillingAccountId", "RegionId", "ServiceName", "ResourceId"]))


@scenario
def s_focus_forgotten_instance(rng):
    """catalogue / ResourceId: a p4d benchmark instance launched and never stopped."""
    acct = "733119204456"
    f = Focus(acct, "Helix Research")
    start, n = D(2025, 6, 15), 95
    ev = D(2025, 9, 2)
    insts = [("i-0b11e2a7c4d9f0a13", "m6i.2xlarge", 9.2), ("i-07c3d9e1f5a2b8c40", "m6i.2xlarge", 9.2),
             ("i-0e4f8a2b6c1d3e957", "r6i.4xlarge", 24.2), ("i-0a9d3c7e5b1f2468a", "c6i.xlarge", 4.1)]
    for d in days(start, n):
        for rid, typ, base in insts:
            f.add(d, d + ONE, noise(rng, base, 0.01), provider="AWS", service="Amazon Elastic Compute Cloud",
                  category="Compute", region="us-west-2", resource=rid, qty=24.0, sku=typ,
                  desc=f"On Demand Linux {typ} Instance Hour", rname=typ)
        # short, sanctioned GPU job in July on another id
        if D(2025, 7, 21) <= d <= D(2025, 7, 22):
            f.add(d, d + ONE, 32.77 * 10, provider="AWS", service="Amazon Elastic Compute Cloud", category="Compute",
                  region="us-west-2", resource="i-0f2a6b8c4d0e1f357", qty=10.0, sku="p4d.24xlarge")
        if d >= ev:
            hrs = 24.0 if d > ev else 13.0
            f.add(d, d + ONE, 32.77 * hrs, provider="AWS", service="Amazon Elastic Compute Cloud", category="Compute",
                  region="us-west-2", resource="i-03d7e9f1a5b2c4680", qty=hrs, sku="p4d.24xlarge",
                  desc="On Demand Linux p4d.24xlarge Instance Hour", tags={"owner": "benchmark-team"})
        for svc, cat, base, rid in [("Amazon Simple Storage Service", "Storage", 40, "helix-genomes"),
                                    ("Amazon Elastic Block Store", "Storage", 28, "vol-0c1d2e3f4a5b6c7d8"),
                                    ("Amazon SageMaker", "AI and Machine Learning", 65, "notebook/helix-lab")]:
            f.add(d, d + ONE, noise(rng, base * wk(d), 0.06), provider="AWS", service=svc, category=cat,
                  region="us-west-2", resource=rid, qty=1.0)
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=ev + ONE * 5, acct=acct,
                truth=[("i-03d7e9f1a5b2c4680", "ResourceId")],
                meta=fmeta("catalogue", "ResourceId", "5 days late, still present (partial first day)", AWS_LEVELS))


@scenario
def s_focus_ultra_disk(rng):
    """novel / ResourceId (hourly): an Azure Ultra Disk's provisioned IOPS raised to the maximum on
    one disk during a performance test and never lowered."""
    acct = "EA-78124409"
    f = Focus(acct, "Fabrikam", currency="GBP")
    start = dt.datetime(2025, 9, 1, 0, 0)
    hours = 24 * 61
    ev = dt.datetime(2025, 10, 24, 9, 0)
    disks = [("ultra-sqlprod-data01", 2.9), ("ultra-sqlprod-data02", 2.9), ("ultra-sqlprod-log01", 1.4)]
    for h in range(hours):
        t = start + dt.timedelta(hours=h)
        t2 = t + dt.timedelta(hours=1)
        for name, base in disks:
            c = base
            if name == "ultra-sqlprod-data02" and t >= ev:
                c = base * 5.3
            f.add(t, t2, c, provider="Microsoft", service="Storage", category="Storage", region="uksouth",
                  resource=f"/subscriptions/c0ffee/resourceGroups/rg-sql/providers/Microsoft.Compute/disks/{name}",
                  rname=name, sub="c0ffee-prod", qty=1.0, unit="Hours", desc="Ultra Disk provisioned IOPS/throughput")
        bh = 1.0 if 7 <= t.hour <= 19 and t.weekday() < 5 else 0.55
        for svc, cat, base, rid in [("Virtual Machines", "Compute", 6.8, "vm-sqlprod-01"),
                                    ("Virtual Machines", "Compute", 6.8, "vm-sqlprod-02"),
                                    ("Azure App Service", "Compute", 1.9, "asp-portal"),
                                    ("Bandwidth", "Networking", 0.6, "")]:
            val = noise(rng, base * (bh if svc != "Virtual Machines" else 1.0), 0.04)
            f.add(t, t2, val, provider="Microsoft", service=svc, category=cat, region="uksouth",
                  resource=f"/subscriptions/c0ffee/resourceGroups/rg-sql/providers/x/{rid}" if rid else "",
                  sub="c0ffee-prod", qty=1.0)
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=ev.date(), acct=acct,
                truth=[("/subscriptions/c0ffee/resourceGroups/rg-sql/providers/Microsoft.Compute/disks/ultra-sqlprod-data02", "ResourceId")],
                meta=fmeta("novel", "ResourceId", "first day (change at 09:00 UTC, hourly rows)",
                           ["BillingAccountId", "ServiceName", "ResourceId"]))


@scenario
def s_focus_x_app(rng):
    """novel / x_Application: the clickstream producers retry-loop; Kinesis shards, Lambda and S3
    PUT requests of that application rise together, other applications on the same services flat."""
    acct = "845500321977"
    f = Focus(acct, "Streamly", extra_cols=["x_Application", "x_Environment"])
    start, n = D(2025, 4, 20), 150
    ev = D(2025, 9, 3)
    apps = {
        "clickstream": [("Amazon Kinesis", "Analytics", 120, "stream/clicks"),
                        ("AWS Lambda", "Compute", 45, "function:click-enricher"),
                        ("Amazon Simple Storage Service", "Storage", 30, "streamly-clicks-raw")],
        "recsys": [("Amazon Kinesis", "Analytics", 60, "stream/recs-events"),
                   ("AWS Lambda", "Compute", 30, "function:rec-scorer"),
                   ("Amazon SageMaker", "AI and Machine Learning", 210, "endpoint/recs")],
        "catalog": [("AWS Lambda", "Compute", 25, "function:catalog-sync"),
                    ("Amazon Simple Storage Service", "Storage", 55, "streamly-catalog"),
                    ("Amazon DynamoDB", "Databases", 140, "table/catalog")],
    }
    for d in days(start, n):
        for app, lines in apps.items():
            for svc, cat, base, rid in lines:
                m = 1.0
                if app == "clickstream" and d >= ev:
                    m = 3.4
                f.add(d, d + ONE, noise(rng, base * m * wk(d, [1, 1, 1, 1, 1.1, 1.25, 1.2]), 0.05),
                      provider="AWS", service=svc, category=cat, region="us-east-1",
                      resource=f"arn:aws:{svc.split()[-1].lower()}:us-east-1:845500321977:{rid}", qty=1.0,
                      extra={"x_Application": app, "x_Environment": "prod"})
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=ev, acct=acct,
                truth=[("clickstream", "x_Application")],
                meta=fmeta("novel", "x_Application", "first day",
                           ["BillingAccountId", "x_Application", "ServiceName", "ResourceId"]))


# ------------------------------- quiet FOCUS bills ----------------------------------------

@scenario
def s_focus_quiet_first_of_month(rng):
    """catalogue / quiet: support plan, tax and a marketplace subscription land on the 1st,
    credits on the 3rd; alert on the 1st of a month."""
    acct = "452187690023"
    f = Focus(acct, "Umbrella Labs")
    start, n = D(2025, 2, 1), 182
    for d in days(start, n):
        for svc, cat, base in [("Amazon Elastic Compute Cloud", "Compute", 520), ("Amazon Relational Database Service", "Databases", 180),
                               ("Amazon Simple Storage Service", "Storage", 60), ("AWS Lambda", "Compute", 25)]:
            f.add(d, d + ONE, noise(rng, base * wk(d, [1, 1, 1, 1, 1, .82, .78]), 0.05), provider="AWS", service=svc,
                  category=cat, region="eu-west-1", resource=f"arn:aws:{cat.lower()}:eu-west-1:452187690023:{svc[:10]}", qty=24.0)
        if d.day == 1:
            f.add(d, bp(d)[1], 1850.0, provider="AWS", service="AWS Support (Enterprise On-Ramp)",
                  category="Management and Governance", region="", resource="", charge="Purchase",
                  freq="Recurring", desc="Enterprise On-Ramp support, monthly minimum")
            f.add(d, bp(d)[1], 2400.0, provider="AWS", publisher="Datadog, Inc.", service="Datadog Pro (Annual, billed monthly)",
                  category="Management and Governance", region="", resource="", charge="Purchase", freq="Recurring",
                  pcat="Committed", desc="AWS Marketplace subscription")
            f.add(d, bp(d)[1], noise(rng, 760, 0.03), provider="AWS", service="Tax", category="Other",
                  region="", resource="", charge="Tax", freq="Recurring", desc="VAT 20%")
        if d.day == 3:
            f.add(d, d + ONE, -300.0, provider="AWS", service="AWS Credits", category="Other", region="",
                  resource="", charge="Credit", freq="One-Time", desc="Migration Acceleration Program credit")
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=D(2025, 8, 1), acct=acct, truth=[],
                meta=fmeta("catalogue", None, "1st of August: monthly support/marketplace/tax, same as 6 earlier months", AWS_LEVELS))


@scenario
def s_focus_quiet_monday(rng):
    """catalogue / quiet: business-hours workloads with scheduled weekend shutdown; alert Monday,
    whose cost is 2.5x Sunday's and equal to other Mondays."""
    acct = "MS-EA-33019"
    f = Focus(acct, "Wayne Logistics", currency="EUR")
    start, n = D(2025, 3, 3), 140
    for d in days(start, n):
        we = d.weekday() >= 5
        for svc, cat, base, sched in [("Virtual Machines", "Compute", 380, True), ("Azure Kubernetes Service", "Compute", 210, True),
                                      ("Azure Database for PostgreSQL", "Databases", 95, False), ("Storage", "Storage", 44, False),
                                      ("Azure Monitor", "Management and Governance", 30, True)]:
            b = base * (0.25 if we and sched else 1.0)
            f.add(d, d + ONE, noise(rng, b, 0.04), provider="Microsoft", service=svc, category=cat, region="germanywestcentral",
                  resource=f"/subscriptions/aa01/resourceGroups/rg-tms/providers/x/{svc.replace(' ', '').lower()}",
                  sub="aa01-tms", qty=24.0)
        if d.weekday() == 0:
            f.add(d, d + ONE, -45.0, provider="Microsoft", service="Azure Hybrid Benefit", category="Compute",
                  region="germanywestcentral", resource="", charge="Credit", desc="AHB adjustment, weekly")
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=D(2025, 7, 14), acct=acct, truth=[],
                meta=fmeta("catalogue", None, "a Monday: weekday level after a scheduled weekend shutdown",
                           ["BillingAccountId", "ServiceName", "ResourceId"]))


@scenario
def s_focus_quiet_sud(rng):
    """novel / quiet: legacy N1 VMs with sustained-use discounts: within each month the daily net
    cost falls as the discount tier rises, and jumps back on the 1st. Alert on the 1st."""
    acct = "0A1B2C-3D4E5F-6A7B8C"
    f = Focus(acct, "Soylent Research")
    start, n = D(2025, 1, 1), 243
    for d in days(start, n):
        frac = (d.day - 1) / 30.0
        disc = 1.0 if frac < 0.25 else (0.8 if frac < 0.5 else (0.6 if frac < 0.75 else 0.4))
        for vm, base in [("n1-standard-16-hpc-01", 18.3), ("n1-standard-16-hpc-02", 18.3), ("n1-highmem-8-db", 11.4)]:
            lst = base
            c = lst * disc
            f.add(d, d + ONE, c, provider="Google Cloud", service="Compute Engine", category="Compute", region="us-east1",
                  resource=f"projects/soylent/zones/us-east1-b/instances/{vm}", sub="soylent", qty=24.0,
                  list_cost=lst, desc="N1 Predefined Instance Core (sustained use discount applied)")
        for svc, cat, base in [("Cloud Storage", "Storage", 9.0), ("BigQuery", "Analytics", 14.0)]:
            f.add(d, d + ONE, noise(rng, base * wk(d), 0.06), provider="Google Cloud", service=svc, category=cat,
                  region="us-east1" if svc == "Cloud Storage" else "US", resource="", sub="soylent", qty=1.0)
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=D(2025, 8, 1), acct=acct, truth=[],
                meta=fmeta("novel", None, "1st of August: sustained-use discount resets every month",
                           ["BillingAccountId", "ServiceName", "ResourceId"]))


@scenario
def s_focus_quiet_ri_renewal(rng):
    """novel / quiet: a 1-year all-upfront RDS reservation renewed on expiry. The Purchase row carries
    the whole upfront in BilledCost; EffectiveCost (the bill's cost column) amortises it daily and is
    unchanged. Alert on the renewal day."""
    acct = "190023456781"
    f = Focus(acct, "Cyberdyne Retail")
    start, n = D(2025, 5, 1), 150
    ren = D(2025, 9, 12)
    daily_amort = 61.37
    for d in days(start, n):
        cd = "arn:aws:rds:us-east-1:190023456781:ri:core-2024" if d < ren else "arn:aws:rds:us-east-1:190023456781:ri:core-2025"
        f.add(d, d + ONE, 0.0, provider="AWS", service="Amazon Relational Database Service", category="Databases",
              region="us-east-1", resource="arn:aws:rds:us-east-1:190023456781:db:core-primary", qty=24.0,
              list_cost=96.0, effective=daily_amort, cdid=cd, cdtype="Reservation", pcat="Committed",
              desc="RDS db.r6g.4xlarge reserved instance usage")
        for svc, cat, base in [("Amazon Elastic Compute Cloud", "Compute", 330), ("Amazon ElastiCache", "Databases", 48),
                               ("Amazon CloudFront", "Networking", 35)]:
            c = noise(rng, base * wk(d, [1, 1, 1, 1, 1.08, 1.3, 1.25]), 0.05)
            f.add(d, d + ONE, c, provider="AWS", service=svc, category=cat, region="us-east-1" if svc != "Amazon CloudFront" else "global",
                  resource=f"arn:aws:{cat.lower()}:us-east-1:190023456781:{svc[7:15].strip().lower()}", qty=24.0)
        if d == ren:
            f.add(d, d + dt.timedelta(days=365), 22400.05, provider="AWS", service="Amazon Relational Database Service",
                  category="Databases", region="us-east-1", resource="", charge="Purchase", freq="One-Time",
                  effective=0.0, cdid="arn:aws:rds:us-east-1:190023456781:ri:core-2025", cdtype="Reservation",
                  pcat="Committed", desc="1 yr All Upfront db.r6g.4xlarge reservation")
    return dict(kind="focus", files={"focus.csv": f.text()}, alert=ren, acct=acct, truth=[],
                meta=fmeta("novel", None, "renewal day: upfront in BilledCost, EffectiveCost flat", AWS_LEVELS,
                           cost="EffectiveCost"))


# --------------------------------------------------------------------------------------------

def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    order = list(range(len(SCEN)))
    random.Random(2121).shuffle(order)  # mix Lite/FOCUS, anomaly/quiet
    for idx, k in enumerate(order, 1):
        fn = SCEN[k]
        rng = random.Random(1000 + k)
        s = fn(rng)
        meta = dict(s["meta"])
        meta["name"] = fn.__name__
        write(out, idx, kind=s["kind"], files=s["files"], alert=s["alert"], acct=s["acct"],
              truth=s["truth"], meta=meta)
    print(f"wrote {len(SCEN)} scenarios under {out}")


if __name__ == "__main__":
    main()
