#!/usr/bin/env python3
"""finops-set16: held-out FinOps billing scenarios (stdlib only, deterministic).

usage: python gen.py OUT      -> OUT/Scenario-<N>/{anomaly.json, data.csv|focus.csv, ground_truth.yaml}
"""
import datetime as dt
import json
import math
import os
import random
import sys
import zlib

ONE = dt.timedelta(days=1)

# weekday multipliers, Monday..Sunday
FLAT = [1, 1, 1, 1, 1, 1, 1]
BIZ = [1.02, 1.04, 1.05, 1.03, 0.97, 0.66, 0.63]
BIZ_SOFT = [1.0, 1.01, 1.02, 1.0, 0.98, 0.9, 0.88]
CONSUMER = [0.92, 0.9, 0.91, 0.95, 1.06, 1.16, 1.12]
MONDAY_BATCH = [1.35, 1.0, 1.0, 1.0, 1.0, 0.85, 0.85]


def d(s):
    return dt.date.fromisoformat(s)


def drange(start, n):
    return [start + i * ONE for i in range(n)]


def yaml_truth(items):
    if not items:
        return "resource: []\n"
    out = ["resource:"]
    for name, typ in items:
        out.append("- name: %s" % json.dumps(name))
        out.append("  type: %s" % typ)
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- ITBench-Lite
LITE_HDR = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
            "Price ($/hr)", "Num_Instances", "unblended_cost"]


def L(acct, csp, svc, app, fam, price, n, weekly=FLAT, noise=0.03, start=None, end=None, **kw):
    x = dict(acct=acct, csp=csp, svc=svc, app=app, fam=fam, price=price, n=n, weekly=weekly,
             noise=noise, start=start, end=end)
    x.update(kw)
    return x


def lite_csv(rng, lines, dates, mod=None, fees=(), last_frac=1.0, shuffle=False, zero_rows=True):
    """lines: recurring instance lines. mod(line, date) -> multiplier of Num_Instances.
    fees: (date_predicate, acct, csp, svc, app, fam, amount) fixed-amount rows."""
    rows = []
    for i, day in enumerate(dates):
        frac = last_frac if i == len(dates) - 1 else 1.0
        for ln in lines:
            if ln["start"] and day < ln["start"]:
                continue
            if ln["end"] and day > ln["end"]:
                continue
            m = ln["weekly"][day.weekday()]
            if mod:
                m *= mod(ln, day)
            n = ln["n"] * m * (1 + rng.gauss(0, ln["noise"]))
            n = max(0, int(round(n)))
            if n == 0 and (not zero_rows or m == 0):
                continue
            hours = 24 * frac
            cost = ln["price"] * n * hours
            rows.append([day.isoformat(), ln["acct"], ln["csp"], ln["svc"], ln["app"], ln["fam"],
                         "%.4f" % ln["price"], str(n), "%.4f" % cost])
        for pred, acct, csp, svc, app, fam, amount in fees:
            if pred(day):
                amt = amount(day) if callable(amount) else amount
                rows.append([day.isoformat(), acct, csp, svc, app, fam, "%.4f" % (amt / 24.0), "1",
                             "%.4f" % amt])
    if shuffle:
        rng.shuffle(rows)
    out = [",".join(LITE_HDR)]
    for r in rows:
        out.append(",".join(r))
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- FOCUS
# scenario.json for FOCUS bills whose hierarchy includes the region (the loader reads 'levels')
REGION_LEVELS = json.dumps({"levels": ["BillingAccountId", "ProviderName", "RegionId", "ServiceCategory",
                                       "ServiceName", "ResourceId"], "cost_column": "BilledCost"}, indent=2) + "\n"
FOCUS_HDR = ["AvailabilityZone", "BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency",
             "BillingPeriodEnd", "BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription",
             "ChargeFrequency", "ChargePeriodEnd", "ChargePeriodStart", "CommitmentDiscountCategory",
             "CommitmentDiscountId", "CommitmentDiscountName", "CommitmentDiscountStatus",
             "CommitmentDiscountType", "ConsumedQuantity", "ConsumedUnit", "ContractedCost",
             "ContractedUnitPrice", "EffectiveCost", "InvoiceIssuerName", "ListCost", "ListUnitPrice",
             "PricingCategory", "PricingQuantity", "PricingUnit", "ProviderName", "PublisherName", "RegionId",
             "RegionName", "ResourceId", "ResourceName", "ResourceType", "ServiceCategory", "Id", "ServiceName",
             "SkuId", "SkuPriceId", "SubAccountId", "SubAccountName", "Tags"]

ISSUER = {"AWS": "Amazon Web Services, Inc.", "Google Cloud": "Google LLC", "Microsoft": "Microsoft"}
REGION_NAMES = {
    "us-east-1": "US East (N. Virginia)", "us-east-2": "US East (Ohio)", "us-west-2": "US West (Oregon)",
    "eu-west-1": "Europe (Ireland)", "eu-central-1": "Europe (Frankfurt)", "ap-southeast-2": "Asia Pacific (Sydney)",
    "us-central1": "Iowa", "europe-west4": "Netherlands", "asia-southeast1": "Singapore", "us-east4": "Northern Virginia",
    "westeurope": "West Europe", "northeurope": "North Europe", "germanywestcentral": "Germany West Central",
    "eastus2": "East US 2", "global": "Global",
}


def R(provider, svc, cat, region, rid, rname, rtype, desc, unit, price, q, weekly=FLAT, noise=0.03,
      start=None, end=None, sub=("", ""), tags=None, sku=None, diurnal=None, pricing="Standard", **kw):
    x = dict(provider=provider, svc=svc, cat=cat, region=region, rid=rid, rname=rname, rtype=rtype, desc=desc,
             unit=unit, price=price, q=q, weekly=weekly, noise=noise, start=start, end=end, sub=sub, tags=tags,
             sku=sku, diurnal=diurnal, pricing=pricing)
    x.update(kw)
    return x


def qs(s):
    return '"' + str(s).replace('"', '""') + '"'


def fnum(v, p=10):
    return ("%." + str(p) + "f") % v


class Focus:
    def __init__(self, rng, account, account_name, currency="USD", fx=1.0):
        self.rng = rng
        self.account = account
        self.account_name = account_name
        self.currency = currency
        self.fx = fx
        self.rows = []
        self.next_id = rng.randint(10000, 90000)

    def sku(self, res):
        if not res.get("sku"):
            h = zlib.crc32((res["svc"] + res["desc"]).encode())
            alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
            s = ""
            for _ in range(16):
                s += alphabet[h % len(alphabet)]
                h = (h * 1103515245 + 12345) & 0x7FFFFFFF
            res["sku"] = s
        return res["sku"]

    def row(self, res, start, end, qty, category="Usage", freq="Usage-Based", cost=None, list_cost=None,
            desc=None):
        prov = res["provider"]
        price = res["price"]
        if cost is None:
            cost = qty * price * self.fx
        if list_cost is None:
            list_cost = cost
        bp_start = dt.datetime(start.year, start.month, 1)
        bp_end = dt.datetime(start.year + (start.month == 12), start.month % 12 + 1, 1)
        tags = res.get("tags")
        sub_id, sub_name = res["sub"]
        sku = self.sku(res)
        self.next_id += 1
        vals = [
            res.get("az"), cost, self.account, self.account_name, self.currency,
            bp_end.strftime("%Y-%m-%d %H:%M:%S"), bp_start.strftime("%Y-%m-%d %H:%M:%S"),
            category, None, desc or res["desc"], freq,
            end.strftime("%Y-%m-%d %H:%M:%S"), start.strftime("%Y-%m-%d %H:%M:%S"),
            None, None, None, None, None,
            qty if category == "Usage" else None, res["unit"] if category == "Usage" else None,
            cost, price * self.fx, cost, res.get("issuer") or ISSUER.get(prov, prov), list_cost,
            "%g" % (price * self.fx), res["pricing"] if category == "Usage" else None,
            qty if category == "Usage" else None, res["unit"] if category == "Usage" else None,
            prov, res.get("publisher") or ISSUER.get(prov, prov), res["region"],
            REGION_NAMES.get(res["region"], res["region"]) if res["region"] else None,
            res["rid"], res["rname"], res["rtype"], res["cat"], self.next_id, res["svc"],
            sku, sku + ".JRTCKXETXF" if prov == "AWS" else sku, sub_id or None, sub_name or None,
            json.dumps(tags) if tags else None,
        ]
        out = []
        for v in vals:
            if v is None or v == "":
                out.append("NULL")
            elif isinstance(v, float):
                out.append(fnum(v))
            elif isinstance(v, int):
                out.append(str(v))
            else:
                out.append(qs(v))
        self.rows.append((start, self.next_id, ",".join(out)))

    def usage(self, resources, dates, mod=None, hourly=False, last_hours=24, zero_rows=False):
        rng = self.rng
        for i, day in enumerate(dates):
            hours = last_hours if i == len(dates) - 1 else 24
            for res in resources:
                if res["start"] and day < res["start"]:
                    continue
                if res["end"] and day > res["end"]:
                    continue
                base = res["q"] * res["weekly"][day.weekday()]
                if hourly:
                    shape = res["diurnal"] or [1.0] * 24
                    tot = sum(shape)
                    for h in range(hours):
                        m = mod(res, day, h) if mod else 1.0
                        q = base * shape[h] / tot * m * (1 + rng.gauss(0, res["noise"]))
                        q = max(0.0, q)
                        if q <= 0 and not zero_rows:
                            continue
                        s = dt.datetime(day.year, day.month, day.day, h)
                        self.row(res, s, s + dt.timedelta(hours=1), round(q, 6))
                else:
                    m = mod(res, day, None) if mod else 1.0
                    q = base * m * (1 + rng.gauss(0, res["noise"])) * hours / 24.0
                    q = max(0.0, q)
                    if q <= 0 and not zero_rows:
                        continue
                    s = dt.datetime(day.year, day.month, day.day)
                    self.row(res, s, s + dt.timedelta(days=1), round(q, 6))

    def fixed(self, res, day, amount, category="Purchase", freq="Recurring", desc=None):
        s = dt.datetime(day.year, day.month, day.day)
        a = amount * self.fx
        self.row(res, s, s + dt.timedelta(days=1), None, category=category, freq=freq, cost=a,
                 list_cost=a if amount >= 0 else 0.0, desc=desc)

    def text(self, shuffle=False):
        rows = sorted(self.rows, key=lambda r: (r[0], r[1]))
        body = [r[2] for r in rows]
        if shuffle:
            self.rng.shuffle(body)
        return ",".join(qs(h) for h in FOCUS_HDR) + "\n" + "\n".join(body) + "\n"


def tags(app, env="prod", bu=None, **kw):
    t = {"application": app, "environment": env}
    if bu:
        t["business_unit"] = bu
    t.update(kw)
    return t


def arn(svc, region, acct, rest):
    return "arn:aws:%s:%s:%s:%s" % (svc, region, acct, rest)


# ============================================================================= scenarios
SCEN = []


def scenario(fn):
    SCEN.append(fn)
    return fn


# ---------------------------------------------------------------- 1 OpenSearch UltraWarm (family)
@scenario
def s_ultrawarm(rng):
    A = "318204775961"
    D = d("2025-09-18")
    dates = drange(d("2025-05-01"), (D - d("2025-05-01")).days + 2)
    lines = [
        L(A, "AWS", "EC2", "web-frontend", "m6i.xlarge", 0.192, 24, BIZ_SOFT),
        L(A, "AWS", "EC2", "checkout", "c6i.2xlarge", 0.34, 10, BIZ),
        L(A, "AWS", "EC2", "checkout", "m6i.xlarge", 0.192, 4),
        L(A, "AWS", "RDS", "checkout", "db.r6g.xlarge", 0.48, 2, noise=0),
        L(A, "AWS", "OpenSearch", "product-search", "r6g.large.search", 0.167, 6, noise=0.0),
        L(A, "AWS", "OpenSearch", "product-search", "m6g.large.search", 0.128, 3, noise=0.0),
        L(A, "AWS", "OpenSearch", "app-logs", "r6g.large.search", 0.167, 4, noise=0.05),
        L(A, "AWS", "ElastiCache", "checkout", "cache.r6g.large", 0.206, 3, noise=0),
        L(A, "GCP", "GKE", "analytics", "e2-standard-8", 0.268, 8, BIZ),
        L(A, "GCP", "CloudSQL", "analytics", "db-custom-4-16384", 0.39, 1, noise=0),
        L(A, "AWS", "OpenSearch", "product-search", "ultrawarm1.large.search", 2.68, 2, start=D, noise=0),
    ]
    fees = [(lambda x: x.day == 1, A, "AWS", "Marketplace", "siem-license", "monthly-subscription", 2400.0)]
    csv_ = lite_csv(rng, lines, dates, fees=fees, last_frac=0.375)
    return dict(files={"data.csv": csv_}, anomaly={"date": D.isoformat(), "account_id": A},
                truth=[("ultrawarm1.large.search", "Instance_Family")])


# ---------------------------------------------------------------- 2 Memorystore tier upgrade (family)
@scenario
def s_memorystore(rng):
    A = "gcp-billing-01A7F3-77C2D0"
    D = d("2026-02-10")
    alert = D + 3 * ONE
    start = d("2025-12-01")
    dates = drange(start, (alert - start).days + 1)
    lines = [
        L(A, "GCP", "ComputeEngine", "session-api", "n2-standard-4", 0.194, 12, BIZ_SOFT),
        L(A, "GCP", "ComputeEngine", "catalog", "n2-standard-8", 0.388, 6),
        L(A, "GCP", "ComputeEngine", "catalog", "e2-medium", 0.0335, 20, noise=0.08),
        L(A, "GCP", "Memorystore", "session-api", "redis-basic-m4", 1.05, 2, noise=0, end=D - ONE),
        L(A, "GCP", "Memorystore", "session-api", "redis-standard-m4", 2.10, 2, noise=0, start=D),
        L(A, "GCP", "Memorystore", "catalog", "redis-basic-m2", 0.48, 1, noise=0),
        L(A, "GCP", "CloudSQL", "catalog", "db-custom-8-32768", 0.78, 1, noise=0),
        L(A, "GCP", "GKE", "batch-reports", "e2-standard-16", 0.536, 4, MONDAY_BATCH, noise=0.06),
        L("4f0c9a12-8e3b-47d6-a1c5-92be07d3f6a4", "Azure", "AKS", "partner-gateway", "D4s_v5", 0.192, 6),
    ]
    fees = [(lambda x: x.day == 1, A, "GCP", "Support", "org", "enhanced-support", 500.0),
            (lambda x: x.weekday() == 6, A, "GCP", "Credits", "org", "spend-based-credit", -35.0)]
    csv_ = lite_csv(rng, lines, dates, fees=fees, shuffle=True)
    return dict(files={"data.csv": csv_}, anomaly={"date": alert.isoformat(), "account_id": A},
                truth=[("redis-standard-m4", "Instance_Family")])


# ---------------------------------------------------------------- 3 EBS gp2 -> io2 on one app (family), 2 accounts
@scenario
def s_io2(rng):
    A, B = "552017384190", "552017384207"
    D = d("2025-03-04")
    start = d("2024-12-20")
    dates = drange(start, (D - start).days + 1)
    lines = []
    for acct, scale in ((A, 1.0), (B, 0.6)):
        lines += [
            L(acct, "AWS", "EC2", "ledger", "r6i.2xlarge", 0.504, int(8 * scale)),
            L(acct, "AWS", "EC2", "payments-api", "c6i.xlarge", 0.17, int(14 * scale), BIZ_SOFT),
            L(acct, "AWS", "EBS", "payments-api", "gp3", 0.0110, int(40 * scale), noise=0.01),
            L(acct, "AWS", "EKS", "platform", "control-plane", 0.10, 3, noise=0),
            L(acct, "AWS", "EC2", "platform", "m6i.large", 0.096, int(18 * scale), noise=0.05),
        ]
    # account B already runs io2 for its reporting DB (flat), A's ledger moves gp2 -> io2
    lines += [
        L(B, "AWS", "EBS", "reporting-db", "io2", 0.3950, 2, noise=0),
        L(A, "AWS", "EBS", "ledger", "gp2", 0.0417, 16, noise=0, end=D - ONE),
        L(A, "AWS", "EBS", "ledger", "io2", 0.3950, 16, noise=0, start=D),
        L(A, "AWS", "EBS", "payments-api", "gp2", 0.0139, 10, noise=0),
        # decoy: B scales its platform node group on the same day (planned, small)
        L(B, "AWS", "EC2", "platform", "m6i.large", 0.096, 6, start=D - 2 * ONE),
    ]
    csv_ = lite_csv(rng, lines, dates)
    return dict(files={"data.csv": csv_}, anomaly={"date": D.isoformat(), "account_id": A},
                truth=[("io2", "Instance_Family")])


# ---------------------------------------------------------------- 4 Step Functions express loop (application), spike over
@scenario
def s_sfn_loop(rng):
    A = "704418226530"
    D = d("2026-05-06")
    alert = D + 3 * ONE
    start = d("2026-01-05")
    dates = drange(start, (alert - start).days + 1)
    lines = [
        L(A, "AWS", "StepFunctions", "order-saga", "express-workflow", 0.45, 3, BIZ_SOFT, noise=0.1),
        L(A, "AWS", "StepFunctions", "returns", "standard-workflow", 0.08, 4, noise=0.1),
        L(A, "AWS", "Lambda", "order-saga", "arm64-1024mb", 0.06, 18, BIZ_SOFT, noise=0.06),
        L(A, "AWS", "Lambda", "returns", "arm64-1024mb", 0.06, 9, noise=0.06),
        L(A, "AWS", "Lambda", "image-thumbs", "x86-512mb", 0.03, 30, CONSUMER, noise=0.06),
        L(A, "AWS", "CloudWatch", "order-saga", "logs-ingest", 0.21, 2, noise=0.1),
        L(A, "AWS", "CloudWatch", "returns", "logs-ingest", 0.21, 1, noise=0.1),
        L(A, "AWS", "EC2", "storefront", "m7g.xlarge", 0.1632, 30, CONSUMER),
        L(A, "AWS", "RDS", "storefront", "db.r7g.2xlarge", 0.8544, 2, noise=0),
        L(A, "AWS", "DynamoDB", "order-saga", "provisioned-wcu", 0.00065, 4000, noise=0),
    ]
    spike = {D: 9.0, D + ONE: 11.0}

    def mod(ln, day):
        if ln["app"] == "order-saga" and ln["svc"] in ("StepFunctions", "Lambda", "CloudWatch") and day in spike:
            return spike[day] if ln["svc"] == "StepFunctions" else spike[day] * 0.6
        return 1.0
    csv_ = lite_csv(rng, lines, dates, mod=mod, last_frac=0.5)
    return dict(files={"data.csv": csv_}, anomaly={"date": alert.isoformat(), "account_id": A},
                truth=[("order-saga", "Application")])


# ---------------------------------------------------------------- 5 media-render feature flag (application)
@scenario
def s_media_render(rng):
    A = "9b41c0de-5a7e-4f02-9e1d-2c6a1f3b8e45"
    D = d("2025-11-04")
    start = d("2025-08-11")
    dates = drange(start, (D - start).days + 1 + 2)
    lines = [
        L(A, "Azure", "VirtualMachines", "media-render", "NC4as_T4_v3", 0.526, 4, CONSUMER),
        L(A, "Azure", "VirtualMachines", "media-render", "F8s_v2", 0.338, 6, CONSUMER),
        L(A, "Azure", "VirtualMachines", "web", "F8s_v2", 0.338, 10, CONSUMER),
        L(A, "Azure", "AKS", "web", "D4s_v5", 0.192, 16, CONSUMER),
        L(A, "Azure", "AKS", "media-render", "D4s_v5", 0.192, 4),
        L(A, "Azure", "SQLDatabase", "web", "GP_Gen5_8", 1.51, 1, noise=0),
        L(A, "Azure", "BlobStorage", "media-render", "hot-lrs", 0.9, 3, noise=0.02),
        L(A, "Azure", "VirtualMachines", "ci-runners", "D8s_v5", 0.384, 8, BIZ, noise=0.1),
    ]

    def mod(ln, day):
        if ln["app"] == "media-render" and day >= D and ln["svc"] in ("VirtualMachines", "AKS"):
            return 2.6
        return 1.0
    fees = [(lambda x: x.day == 1, A, "Azure", "Marketplace", "web", "cdn-waf-plan", 310.0)]
    csv_ = lite_csv(rng, lines, dates, mod=mod, fees=fees)
    return dict(files={"data.csv": csv_}, anomaly={"date": D.isoformat(), "account_id": A},
                truth=[("media-render", "Application")])


# ---------------------------------------------------------------- 6 feature-store backfill rerun (application)
@scenario
def s_backfill(rng):
    A = "billing-0143AA-55F2C1-9D0B7E"
    D = d("2026-07-21")
    alert = D + 2 * ONE
    start = d("2026-04-15")
    dates = drange(start, (alert - start).days + 2)
    lines = [
        L(A, "GCP", "Dataflow", "recs-feature-store", "n2-highmem-8", 0.524, 6, noise=0.07),
        L(A, "GCP", "ComputeEngine", "recs-feature-store", "n2-standard-16", 0.777, 3, noise=0.03),
        L(A, "GCP", "Dataflow", "clickstream", "n2-standard-4", 0.194, 10, CONSUMER, noise=0.07),
        L(A, "GCP", "ComputeEngine", "recs-serving", "n2-standard-16", 0.777, 8, CONSUMER),
        L(A, "GCP", "ComputeEngine", "recs-serving", "g2-standard-8", 0.854, 4),
        L(A, "GCP", "GKE", "recs-serving", "e2-standard-8", 0.268, 12, CONSUMER),
        L(A, "GCP", "CloudStorage", "recs-feature-store", "standard-regional", 0.55, 4, noise=0.01),
        L(A, "GCP", "VertexAI", "recs-training", "a2-highgpu-1g", 3.67, 2, MONDAY_BATCH, noise=0.15),
    ]

    def mod(ln, day):
        if ln["app"] == "recs-feature-store" and day >= D and ln["svc"] in ("Dataflow", "ComputeEngine"):
            return 3.2
        return 1.0
    fees = [(lambda x: x.day == 1, A, "GCP", "Marketplace", "recs-serving", "vector-db-subscription", 1450.0)]
    csv_ = lite_csv(rng, lines, dates, mod=mod, fees=fees, last_frac=0.25)
    return dict(files={"data.csv": csv_}, anomaly={"date": alert.isoformat(), "account_id": A},
                truth=[("recs-feature-store", "Application")])


# ---------------------------------------------------------------- 7 Cosmos DB RU/s raised on every app (service)
@scenario
def s_cosmos_service(rng):
    A = "e7d2a4c1-0f3b-49a8-b6c5-71d90e2f4a18"
    D = d("2026-03-16")
    alert = D + 4 * ONE
    start = d("2025-10-01")
    dates = drange(start, (alert - start).days + 1)
    lines = [
        L(A, "Azure", "CosmosDB", "profile", "provisioned-100RU", 0.008, 400, noise=0),
        L(A, "Azure", "CosmosDB", "cart", "provisioned-100RU", 0.008, 600, noise=0),
        L(A, "Azure", "CosmosDB", "notifications", "autoscale-100RU", 0.012, 150, BIZ_SOFT, noise=0.08),
        L(A, "Azure", "AppService", "profile", "P1v3", 0.169, 6),
        L(A, "Azure", "AppService", "cart", "P2v3", 0.338, 6, CONSUMER),
        L(A, "Azure", "AKS", "notifications", "D4s_v5", 0.192, 10),
        L(A, "Azure", "VirtualMachines", "legacy-erp", "E8s_v5", 0.504, 4, noise=0),
        L(A, "Azure", "FunctionApps", "notifications", "EP1", 0.173, 3),
    ]

    def mod(ln, day):
        if ln["svc"] == "CosmosDB" and day >= D:
            return 2.0 if ln["app"] != "notifications" else 2.5
        return 1.0
    fees = [(lambda x: x.day == 1, A, "Azure", "Reservations", "legacy-erp", "E8s_v5-1yr-monthly", 2600.0)]
    csv_ = lite_csv(rng, lines, dates, mod=mod, fees=fees)
    return dict(files={"data.csv": csv_}, anomaly={"date": alert.isoformat(), "account_id": A},
                truth=[("CosmosDB", "Cloud_Service")])


# ---------------------------------------------------------------- 8 Azure DR environment left running (provider)
@scenario
def s_azure_dr(rng):
    A = "431900275518"
    D = d("2025-07-08")
    alert = D + 5 * ONE
    start = d("2025-03-01")
    dates = drange(start, (alert - start).days + 1)
    lines = [
        L(A, "AWS", "EC2", "core-banking", "r6i.4xlarge", 1.008, 12),
        L(A, "AWS", "EC2", "mobile-api", "c6i.2xlarge", 0.34, 20, CONSUMER),
        L(A, "AWS", "RDS", "core-banking", "db.r6i.8xlarge", 4.032, 2, noise=0),
        L(A, "AWS", "EKS", "mobile-api", "m6i.2xlarge", 0.384, 16, CONSUMER),
        L(A, "Azure", "VirtualMachines", "core-banking-dr", "E16s_v5", 1.008, 2, noise=0),
        L(A, "Azure", "SQLManagedInstance", "core-banking-dr", "BC_Gen5_8", 3.62, 1, noise=0),
        L(A, "Azure", "AKS", "mobile-api-dr", "D8s_v5", 0.384, 3, noise=0),
        L(A, "Azure", "StorageAccounts", "core-banking-dr", "grs-hot", 0.41, 6, noise=0.01),
        L(A, "Azure", "VirtualMachines", "identity", "D4s_v5", 0.192, 6),
        L(A, "Azure", "AppService", "payments-dr", "P2v3", 0.338, 2, noise=0),
    ]

    def mod(ln, day):
        if ln["csp"] == "Azure" and ln["app"].endswith("-dr") and day >= D:
            return {"VirtualMachines": 5.0, "SQLManagedInstance": 2.0, "AKS": 5.0,
                    "StorageAccounts": 1.4, "AppService": 5.0}[ln["svc"]]
        return 1.0
    csv_ = lite_csv(rng, lines, dates, mod=mod)
    return dict(files={"data.csv": csv_}, anomaly={"date": alert.isoformat(), "account_id": A},
                truth=[("Azure", "CSP")])


# ---------------------------------------------------------------- 9 Inspector enhanced ECR scanning (service)
@scenario
def s_inspector(rng):
    A = "209876543210"
    D = d("2026-01-27")
    start = d("2025-11-03")
    dates = drange(start, (D - start).days + 1)
    f = Focus(rng, A, "acme-mgmt")
    subs = [("209876543301", "acme-prod"), ("209876543302", "acme-staging"), ("209876543303", "acme-data")]
    res = []
    for sid, sname in subs:
        k = 1.0 if "prod" in sname else 0.45
        res += [
            R("AWS", "Amazon Elastic Compute Cloud", "Compute", "us-east-1",
              arn("ec2", "us-east-1", sid, "instance/i-0%s" % sid[-6:] + "a1b2c3d"), None, "Instance",
              "$0.192 per On Demand Linux m6i.xlarge Instance Hour", "Hrs", 0.192, 24 * 14 * k, BIZ_SOFT,
              sub=(sid, sname), tags=tags("storefront", "prod" if k == 1 else "staging")),
            R("AWS", "Amazon Elastic Container Registry", "Storage", "us-east-1",
              arn("ecr", "us-east-1", sid, "repository/platform/images"), None, "Repository",
              "$0.10 per GB-month of data storage", "GB-Mo", 0.10, 310 * k / 30, noise=0.005, sub=(sid, sname)),
            R("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1",
              arn("s3", "", "", "acme-%s-artifacts" % sname.split("-")[1]), None, "Bucket",
              "$0.023 per GB - first 50 TB / month of storage used", "GB-Mo", 0.023, 48000 * k / 30, noise=0.003,
              sub=(sid, sname)),
            R("AWS", "Amazon Relational Database Service", "Databases", "us-east-1",
              arn("rds", "us-east-1", sid, "db:%s-pg" % sname), None, "DBInstance",
              "USD 0.964 per db.r6g.2xlarge Multi-AZ instance hour running PostgreSQL", "Hrs", 0.964, 24 * k,
              noise=0, sub=(sid, sname)),
            R("AWS", "Amazon GuardDuty", "Security", "us-east-1", None, None, None,
              "USD 1.00 per GB of VPC Flow Log analysed", "GB", 1.0, 6 * k, noise=0.1, sub=(sid, sname)),
        ]
    insp = []
    for sid, sname in subs:
        k = 1.0 if "prod" in sname else 0.7
        insp.append(R("AWS", "Amazon Inspector", "Security", "us-east-1", None, None, None,
                      "USD 0.09 per container image initially scanned", "Images", 0.09, 1, noise=0,
                      start=D, sub=(sid, sname), k=k))
        insp.append(R("AWS", "Amazon Inspector", "Security", "us-east-1", None, None, None,
                      "USD 0.01 per container image rescan", "Images", 0.01, 1, noise=0,
                      start=D, sub=(sid, sname), k=k, rescan=True))
    f.usage(res, dates)
    # initial scan of every stored image on day D, then daily rescans of images pushed/pulled
    for r in insp:
        if r.get("rescan"):
            f.usage([dict(r, q=6000 * r["k"], noise=0.04)], [D])
        else:
            f.usage([dict(r, q=2600 * r["k"], noise=0.02)], [D])
    # tax + monthly credit
    for day in dates:
        if day.day == 1:
            f.fixed(R("AWS", "Tax", None, None, None, None, None, "Sales tax", "", 0, 0), day, 312.55, "Tax",
                    "Recurring", "Tax for the billing period")
    return dict(files={"focus.csv": f.text()}, anomaly={"date": D.isoformat(), "account_id": A},
                truth=[("Amazon Inspector", "ServiceName")])


# ---------------------------------------------------------------- 10 GuardDuty malware protection in one account (service)
@scenario
def s_guardduty(rng):
    A = "880412356781"
    D = d("2025-10-14")
    alert = D + 2 * ONE
    start = d("2025-08-01")
    dates = drange(start, (alert - start).days + 1)
    f = Focus(rng, A, "northwind-payer")
    subs = [("880412356790", "nw-prod-eu"), ("880412356791", "nw-prod-us"), ("880412356792", "nw-dev")]
    res = []
    for sid, sname in subs:
        reg = "eu-central-1" if "eu" in sname else "us-east-2"
        k = 0.3 if "dev" in sname else 1.0
        res += [
            R("AWS", "Amazon Elastic Compute Cloud", "Compute", reg,
              arn("ec2", reg, sid, "instance/i-0b7%s5e1" % sid[-5:]), "app-asg", "Instance",
              "$0.17 per On Demand Linux c6i.xlarge Instance Hour", "Hrs", 0.17, 24 * 30 * k, BIZ_SOFT,
              sub=(sid, sname), tags=tags("orders", "dev" if k < 1 else "prod")),
            R("AWS", "Amazon Elastic Compute Cloud", "Storage", reg,
              arn("ec2", reg, sid, "volume/vol-0c1%s9a" % sid[-5:]), None, "Volume",
              "$0.08 per GB-month of General Purpose (gp3) provisioned storage", "GB-Mo", 0.08, 22000 * k / 30,
              noise=0.004, sub=(sid, sname)),
            R("AWS", "Amazon GuardDuty", "Security", reg, None, None, None,
              "USD 4.00 per million CloudTrail management events analysed", "Events", 0.000004,
              2.4e6 * k, noise=0.06, sub=(sid, sname)),
            R("AWS", "Amazon GuardDuty", "Security", reg, None, None, None,
              "USD 1.00 per GB of VPC Flow Log analysed", "GB", 1.0, 35 * k, BIZ_SOFT, noise=0.07,
              sub=(sid, sname)),
            R("AWS", "Amazon CloudWatch", "Management and Governance", reg, None, None, None,
              "$0.30 per metric-month", "Metrics", 0.30, 4200 * k / 30, noise=0.01, sub=(sid, sname)),
            R("AWS", "Amazon Relational Database Service", "Databases", reg,
              arn("rds", reg, sid, "db:orders-%s" % sname), None, "DBInstance",
              "USD 0.5 per db.r6g.xlarge instance hour running MySQL", "Hrs", 0.5, 24 * k, noise=0,
              sub=(sid, sname)),
        ]
    mal = R("AWS", "Amazon GuardDuty", "Security", "eu-central-1", None, None, None,
            "USD 0.03 per GB of EBS volume data scanned (Malware Protection)", "GB", 0.03, 26000, noise=0.1,
            start=D, sub=subs[0])
    f.usage(res + [mal], dates)
    for day in dates:
        if day.day == 1:
            f.fixed(R("AWS", "AWS Marketplace", None, None, None, None, None, "", "", 0, 0,
                      publisher="Palo Alto Networks", sub=subs[0]), day, 1800.0, "Purchase", "Recurring",
                    "VM-Series Next-Gen Firewall Bundle 2 - monthly")
    return dict(files={"focus.csv": f.text()}, anomaly={"date": alert.isoformat(), "account_id": A},
                truth=[("Amazon GuardDuty", "ServiceName")])


# ---------------------------------------------------------------- 11 GCP projects re-linked into billing account (provider)
@scenario
def s_gcp_relink(rng):
    A = "01A2B3-C4D5E6-F7A8B9"
    D = d("2026-04-14")
    start = d("2026-01-12")
    dates = drange(start, (D - start).days + 1 + 3)
    f = Focus(rng, A, "Contoso multi-cloud")
    res = [
        R("AWS", "Amazon Elastic Compute Cloud", "Compute", "us-east-1",
          arn("ec2", "us-east-1", "611122233344", "instance/i-07e4c1a9d2b3f5a61"), None, "Instance",
          "$0.384 per On Demand Linux m6i.2xlarge Instance Hour", "Hrs", 0.384, 24 * 40, BIZ,
          sub=("611122233344", "contoso-prod")),
        R("AWS", "Amazon Relational Database Service", "Databases", "us-east-1",
          arn("rds", "us-east-1", "611122233344", "db:contoso-core"), None, "DBInstance",
          "USD 1.928 per db.r6g.4xlarge Multi-AZ instance hour running PostgreSQL", "Hrs", 1.928, 24, noise=0,
          sub=("611122233344", "contoso-prod")),
        R("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1",
          arn("s3", "", "", "contoso-datalake-raw"), None, "Bucket",
          "$0.023 per GB - first 50 TB / month of storage used", "GB-Mo", 0.023, 210000 / 30, noise=0.003,
          sub=("611122233344", "contoso-prod")),
    ]
    gprojects = [("contoso-web-prod", 1.0), ("contoso-analytics", 0.8)]
    new_projects = [("fabrikam-retail-prod", 1.1), ("fabrikam-data", 0.7)]

    def gres(pid, k, st=None):
        return [
            R("Google Cloud", "Compute Engine", "Compute", "us-central1",
              "//compute.googleapis.com/projects/%s/zones/us-central1-a/instances/gke-node-pool" % pid, None,
              "Instance", "N2 Instance Core running in Americas", "Hour", 0.031611, 24 * 96 * k, BIZ_SOFT,
              sub=(pid, pid), start=st),
            R("Google Cloud", "Compute Engine", "Compute", "us-central1",
              "//compute.googleapis.com/projects/%s/zones/us-central1-a/instances/gke-node-pool" % pid, None,
              "Instance", "N2 Instance Ram running in Americas", "GiB-Hour", 0.004237, 24 * 384 * k, BIZ_SOFT,
              sub=(pid, pid), start=st),
            R("Google Cloud", "Cloud Storage", "Storage", "us-central1", "projects/_/buckets/%s-assets" % pid, None,
              "Bucket", "Standard Storage US Regional", "GiB-Month", 0.02, 60000 * k / 30, noise=0.004,
              sub=(pid, pid), start=st),
            R("Google Cloud", "BigQuery", "Analytics", "us-central1", None, None, None,
              "Analysis (on-demand)", "TiB", 6.25, 14 * k, BIZ, noise=0.15, sub=(pid, pid), start=st),
            R("Google Cloud", "Cloud SQL", "Databases", "us-central1",
              "//cloudsql.googleapis.com/projects/%s/instances/main-pg" % pid, None, "Instance",
              "Cloud SQL for PostgreSQL: Regional - vCPU in Americas", "Hour", 0.0826, 24 * 8 * k, noise=0,
              sub=(pid, pid), start=st),
        ]
    for pid, k in gprojects:
        res += gres(pid, k)
    for pid, k in new_projects:
        res += gres(pid, k, D)
    f.usage(res, dates, last_hours=9)
    return dict(files={"focus.csv": f.text(shuffle=True)}, anomaly={"date": D.isoformat(), "account_id": A},
                truth=[("Google Cloud", "ProviderName")])


# ---------------------------------------------------------------- 12 staging stack applied into wrong region (region)
@scenario
def s_wrong_region(rng):
    A = "377102948551"
    D = d("2025-12-02")
    alert = D + ONE
    start = d("2025-09-01")
    dates = drange(start, (alert - start).days + 1)
    f = Focus(rng, A, "tidewater-org")
    acct = ("377102948560", "tidewater-staging")
    prod = ("377102948561", "tidewater-prod")

    def stack(region, sub, k, st=None, tag="staging"):
        return [
            R("AWS", "Amazon Elastic Compute Cloud", "Compute", region,
              arn("ec2", region, sub[0], "instance/i-0f3%014x" % zlib.crc32((region + sub[0] + tag).encode())), None,
              "Instance", "$0.096 per On Demand Linux m6i.large Instance Hour", "Hrs", 0.096, 24 * 18 * k,
              sub=sub, start=st, tags=tags("ledger", tag), az=region + "a"),
            R("AWS", "Amazon Relational Database Service", "Databases", region,
              arn("rds", region, sub[0], "db:ledger-%s" % tag), None, "DBInstance",
              "USD 0.48 per db.r6g.xlarge instance hour running PostgreSQL", "Hrs", 0.48, 24 * 2 * k, noise=0,
              sub=sub, start=st, tags=tags("ledger", tag)),
            R("AWS", "Elastic Load Balancing", "Networking", region,
              arn("elasticloadbalancing", region, sub[0], "loadbalancer/app/ledger-%s/9f1e2d" % tag), None,
              "LoadBalancer", "$0.0225 per Application LoadBalancer-hour (or partial hour)", "Hrs", 0.0225,
              24 * 2 * k, noise=0, sub=sub, start=st),
            R("AWS", "Amazon Elastic Compute Cloud", "Storage", region,
              arn("ec2", region, sub[0], "volume/vol-02a%014x" % zlib.crc32((region + sub[0] + tag).encode())), None, "Volume",
              "$0.08 per GB-month of General Purpose (gp3) provisioned storage", "GB-Mo", 0.08, 9000 * k / 30,
              noise=0.002, sub=sub, start=st),
            R("AWS", "Amazon ElastiCache", "Databases", region,
              arn("elasticache", region, sub[0], "cluster:ledger-%s" % tag), None, "Cluster",
              "$0.206 per Redis cache.r6g.large node-hour", "NodeHour", 0.206, 24 * 2 * k, noise=0, sub=sub,
              start=st),
        ]
    res = stack("us-east-1", prod, 3.0, tag="prod") + stack("us-east-1", acct, 1.0)
    res += stack("eu-west-1", prod, 1.2, tag="prod-eu")
    res += stack("us-west-2", acct, 1.0, st=D, tag="staging")
    res.append(R("AWS", "AWS Lambda", "Compute", "us-west-2",
                 arn("lambda", "us-west-2", prod[0], "function:edge-auth"), None, "Function",
                 "AWS Lambda - Total Compute - US West (Oregon)", "Lambda-GB-Second", 0.0000166667,
                 2.2e6, CONSUMER, noise=0.05, sub=prod))
    f.usage(res, dates)
    return dict(files={"focus.csv": f.text(), "scenario.json": REGION_LEVELS}, anomaly={"date": alert.isoformat(), "account_id": A},
                truth=[("us-west-2", "RegionId")])


# ---------------------------------------------------------------- 13 load-balancer misweight sends traffic to one region (region)
@scenario
def s_region_weight(rng):
    A = "0F9E8D-7C6B5A-493827"
    D = d("2026-08-25")
    start = d("2026-06-01")
    dates = drange(start, (D - start).days + 1 + 1)
    f = Focus(rng, A, "lumen-games", "EUR", 1.0)
    regions = [("europe-west4", 1.0), ("us-east4", 1.1), ("asia-southeast1", 0.6)]
    res = []
    for reg, k in regions:
        pid = "lumen-live-" + reg.split("-")[0]
        res += [
            R("Google Cloud", "Compute Engine", "Compute", reg,
              "//compute.googleapis.com/projects/%s/zones/%s-b/instances/game-srv-mig" % (pid, reg), None,
              "Instance", "C3 Instance Core running", "Hour", 0.0348, 24 * 220 * k, CONSUMER, sub=(pid, pid),
              tags=tags("game-server", region=reg)),
            R("Google Cloud", "Compute Engine", "Compute", reg,
              "//compute.googleapis.com/projects/%s/zones/%s-b/instances/game-srv-mig" % (pid, reg), None,
              "Instance", "C3 Instance Ram running", "GiB-Hour", 0.00467, 24 * 880 * k, CONSUMER,
              sub=(pid, pid)),
            R("Google Cloud", "Networking", "Networking", reg, None, None, None,
              "Network Internet Data Transfer Out", "GiB", 0.085, 3100 * k, CONSUMER, noise=0.05, sub=(pid, pid)),
            R("Google Cloud", "Cloud Memorystore for Redis", "Databases", reg,
              "//redis.googleapis.com/projects/%s/locations/%s/instances/lobby" % (pid, reg), None, "Instance",
              "Redis Capacity Standard M3", "GiB-Hour", 0.054, 24 * 26, noise=0, sub=(pid, pid)),
            R("Google Cloud", "Cloud Spanner", "Databases", reg,
              "//spanner.googleapis.com/projects/%s/instances/profiles" % pid, None, "Instance",
              "Spanner Processing Units", "PU-Hour", 0.0009, 24 * 1000, noise=0, sub=(pid, pid)),
        ]
    # global shared
    res.append(R("Google Cloud", "Cloud Load Balancing", "Networking", "global", None, None, None,
                  "Global External HTTP(S) LB forwarding rule", "Hour", 0.025, 24 * 5, noise=0,
                  sub=("lumen-shared", "lumen-shared")))

    def mod(r, day, h):
        if day >= D:
            if r["region"] == "asia-southeast1" and r["svc"] in ("Compute Engine", "Networking"):
                return 3.3
            if r["region"] in ("europe-west4", "us-east4") and r["svc"] in ("Compute Engine", "Networking"):
                return 0.55
        return 1.0
    f.usage(res, dates, mod=mod, last_hours=6)
    return dict(files={"focus.csv": f.text(), "scenario.json": REGION_LEVELS}, anomaly={"date": D.isoformat(), "account_id": A},
                truth=[("asia-southeast1", "RegionId")])


# ---------------------------------------------------------------- 14 Cosmos DB account RU/s raised (resource), EUR
@scenario
def s_cosmos_resource(rng):
    A = "78451230"
    D = d("2025-05-19")
    alert = D
    start = d("2025-02-01")
    dates = drange(start, (alert - start).days + 1)
    f = Focus(rng, A, "Kestrel Logistik GmbH", "EUR", 0.92)
    sub = ("3c1f8a2e-77b4-4d21-9c0e-5b8a6d4e2f10", "kestrel-prod")
    rg = "/subscriptions/%s/resourceGroups/%%s/providers/%%s" % sub[0]
    res = [
        R("Microsoft", "Azure Cosmos DB", "Databases", "westeurope",
          rg % ("rg-tracking", "Microsoft.DocumentDB/databaseAccounts/cosmos-tracking-weu"), "cosmos-tracking-weu",
          "Microsoft.DocumentDB/databaseAccounts", "100 RU/s", "100 RU/s/Hour", 0.008, 24 * 40, noise=0, sub=sub,
          tags=tags("tracking")),
        R("Microsoft", "Azure Cosmos DB", "Databases", "westeurope",
          rg % ("rg-tracking", "Microsoft.DocumentDB/databaseAccounts/cosmos-tracking-weu"), "cosmos-tracking-weu",
          "Microsoft.DocumentDB/databaseAccounts", "Data Stored", "GB/Month", 0.25, 820 / 30, noise=0.004, sub=sub),
        R("Microsoft", "Azure Cosmos DB", "Databases", "westeurope",
          rg % ("rg-fleet", "Microsoft.DocumentDB/databaseAccounts/cosmos-fleet-weu"), "cosmos-fleet-weu",
          "Microsoft.DocumentDB/databaseAccounts", "100 RU/s", "100 RU/s/Hour", 0.008, 24 * 80, noise=0, sub=sub,
          tags=tags("fleet")),
        R("Microsoft", "Azure Cosmos DB", "Databases", "northeurope",
          rg % ("rg-fleet", "Microsoft.DocumentDB/databaseAccounts/cosmos-fleet-neu"), "cosmos-fleet-neu",
          "Microsoft.DocumentDB/databaseAccounts", "100 RU/s", "100 RU/s/Hour", 0.008, 24 * 60, noise=0, sub=sub,
          tags=tags("fleet", "dr")),
        R("Microsoft", "Virtual Machines", "Compute", "westeurope",
          rg % ("rg-fleet", "Microsoft.Compute/virtualMachineScaleSets/vmss-fleet-api"), "vmss-fleet-api",
          "Microsoft.Compute/virtualMachineScaleSets", "D4s v5", "1 Hour", 0.192, 24 * 22, BIZ, sub=sub),
        R("Microsoft", "Azure Kubernetes Service", "Compute", "westeurope",
          rg % ("rg-platform", "Microsoft.ContainerService/managedClusters/aks-platform"), "aks-platform",
          "Microsoft.ContainerService/managedClusters", "Standard Uptime SLA", "1 Hour", 0.10, 24, noise=0,
          sub=sub),
        R("Microsoft", "Storage", "Storage", "westeurope",
          rg % ("rg-tracking", "Microsoft.Storage/storageAccounts/sttrackingarchive"), "sttrackingarchive",
          "Microsoft.Storage/storageAccounts", "Hot LRS Data Stored", "1 GB/Month", 0.0184, 180000 / 30,
          noise=0.003, sub=sub),
        R("Microsoft", "Azure Monitor", "Management and Governance", "westeurope",
          rg % ("rg-platform", "Microsoft.OperationalInsights/workspaces/law-platform"), "law-platform",
          "Microsoft.OperationalInsights/workspaces", "Analytics Logs Data Ingestion", "1 GB", 2.30, 38, BIZ_SOFT,
          noise=0.08, sub=sub),
    ]

    def mod(r, day, h):
        if day >= D and r["rname"] == "cosmos-fleet-weu" and r["desc"] == "100 RU/s":
            return 6.0
        return 1.0
    f.usage(res, dates, mod=mod)
    for day in dates:
        if day.day == 1:
            f.fixed(R("Microsoft", "Azure Support", None, None, None, None, None, "", "", 0, 0, sub=sub), day,
                    100.0 / 0.92, "Purchase", "Recurring", "Standard support plan")
    return dict(files={"focus.csv": f.text(), "scenario.json": REGION_LEVELS},
                anomaly={"date": alert.isoformat(), "account_id": A}, truth=[(res[2]["rid"], "ResourceId")])


# ---------------------------------------------------------------- 15 S3 Intelligent-Tiering on billions of small objects (resource)
@scenario
def s_s3_int(rng):
    A = "613579246802"
    D = d("2026-06-09")
    start = d("2026-03-02")
    dates = drange(start, (D - start).days + 1)
    f = Focus(rng, A, "pixelpost")
    sub = ("613579246811", "pixelpost-prod")
    buckets = [("pixelpost-thumbnails", 250000), ("pixelpost-originals", 620000), ("pixelpost-exports", 40000),
               ("pixelpost-logs-archive", 150000)]
    res = []
    for b, gb in buckets:
        res.append(R("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1", arn("s3", "", "", b), b,
                     "Bucket", "$0.023 per GB - first 50 TB / month of storage used", "GB-Mo", 0.023,
                     gb / 30, noise=0.002, sub=sub, end=(D - ONE) if b == "pixelpost-thumbnails" else None))
        res.append(R("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1", arn("s3", "", "", b), b,
                     "Bucket", "$0.005 per 1,000 PUT, COPY, POST, or LIST requests", "Requests", 0.000005,
                     {"pixelpost-thumbnails": 9e6, "pixelpost-originals": 1.1e6}.get(b, 2e5), CONSUMER,
                     noise=0.06, sub=sub))
    thumbs = arn("s3", "", "", "pixelpost-thumbnails")
    # after D: thumbnails bucket in INT: FA tier storage + monitoring fee on ~1.3 billion objects of
    # 130-400 KB (all above the 128 KB monitoring threshold), lifecycle transitions spread over 4 days
    res.append(R("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1", thumbs, "pixelpost-thumbnails",
                 "Bucket", "$0.023 per GB-Month of storage used in Intelligent-Tiering Frequent Access tier",
                 "GB-Mo", 0.023, 250000 / 30, noise=0.002, sub=sub, start=D))
    res.append(R("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1", thumbs, "pixelpost-thumbnails",
                 "Bucket", "$0.0025 per 1,000 objects monitored in Intelligent-Tiering", "Objects", 0.0000025,
                 1.3e9 / 30, noise=0.001, sub=sub, start=D))
    res.append(R("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1", thumbs, "pixelpost-thumbnails",
                 "Bucket", "$0.01 per 1,000 lifecycle transition requests into Intelligent-Tiering", "Requests",
                 0.00001, 3.25e8, noise=0.01, sub=sub, start=D, end=D + 3 * ONE))
    res += [
        R("AWS", "Amazon CloudFront", "Networking", "global",
          arn("cloudfront", "", A, "distribution/E2PIXELPOSTCDN"), None, "Distribution",
          "$0.085 per GB - first 10 TB / month data transfer out", "GB", 0.085, 5200, CONSUMER, noise=0.05, sub=sub),
        R("AWS", "Amazon Elastic Compute Cloud", "Compute", "us-east-1",
          arn("ec2", "us-east-1", sub[0], "instance/i-0d2c9e8f7a6b5c4d3"), "thumbnailer", "Instance",
          "$0.1632 per On Demand Linux m7g.xlarge Instance Hour", "Hrs", 0.1632, 24 * 26, CONSUMER, sub=sub),
    ]
    f.usage(res, dates)
    for day in dates:
        if day.day == 1:
            f.fixed(R("AWS", "Tax", None, None, None, None, None, "", "", 0, 0), day, 0.0, "Tax", "Recurring",
                    "Tax for the billing period (exempt)")
        if day.weekday() == 0:
            f.fixed(R("AWS", "Amazon CloudFront", None, None, None, None, None, "", "", 0, 0, sub=sub), day,
                    -20.0, "Credit", "One-Time", "AWS Activate credit")
    return dict(files={"focus.csv": f.text()}, anomaly={"date": D.isoformat(), "account_id": A},
                truth=[(thumbs, "ResourceId")])


# ---------------------------------------------------------------- 16 Pub/Sub retain-acked-messages on one subscription (resource)
@scenario
def s_pubsub(rng):
    A = "0A4C2E-6B8D1F-3E5A7C"
    D = d("2025-09-03")
    alert = D + 4 * ONE
    start = d("2025-06-10")
    dates = drange(start, (alert - start).days + 1)
    f = Focus(rng, A, "orbital-telemetry")
    pid = "orbital-prod"
    sub = (pid, pid)
    subs = ["telemetry-ingest-bq", "telemetry-ingest-archive", "alerts-fanout", "billing-events-sink"]
    res = []
    for s in subs:
        k = {"telemetry-ingest-bq": 1.0, "telemetry-ingest-archive": 1.0, "alerts-fanout": 0.1,
             "billing-events-sink": 0.05}[s] * 2.4
        res.append(R("Google Cloud", "Cloud Pub/Sub", "Integration", "us-central1",
                     "//pubsub.googleapis.com/projects/%s/subscriptions/%s" % (pid, s), s, "Subscription",
                     "Message Delivery Basic", "TiB", 40.0, k, noise=0.04, sub=sub))
    res.append(R("Google Cloud", "Cloud Pub/Sub", "Integration", "us-central1",
                 "//pubsub.googleapis.com/projects/%s/topics/telemetry" % pid, "telemetry", "Topic",
                 "Message Delivery Basic", "TiB", 40.0, 2.4, noise=0.04, sub=sub))
    retained = "//pubsub.googleapis.com/projects/%s/subscriptions/telemetry-ingest-archive" % pid
    res.append(R("Google Cloud", "Cloud Pub/Sub", "Integration", "us-central1", retained,
                 "telemetry-ingest-archive", "Subscription", "Subscriptions retained acknowledged messages",
                 "GiB-Month", 0.27, 1.0, noise=0.01, sub=sub, start=D))
    res += [
        R("Google Cloud", "Dataflow", "Analytics", "us-central1",
          "//dataflow.googleapis.com/projects/%s/locations/us-central1/jobs/telemetry-to-bq" % pid,
          "telemetry-to-bq", "Job", "Dataflow Streaming vCPU", "Hour", 0.069, 24 * 48, noise=0.05, sub=sub),
        R("Google Cloud", "BigQuery", "Analytics", "us-central1", None, None, None,
          "Streaming Insert", "GiB", 0.05, 3300, noise=0.04, sub=sub),
        R("Google Cloud", "BigQuery", "Analytics", "us-central1", None, None, None,
          "Analysis (on-demand)", "TiB", 6.25, 12, BIZ, noise=0.2, sub=sub),
        R("Google Cloud", "Cloud Storage", "Storage", "us-central1",
          "projects/_/buckets/orbital-telemetry-archive", "orbital-telemetry-archive", "Bucket",
          "Nearline Storage US Regional", "GiB-Month", 0.010, 900000 / 30, noise=0.002, sub=sub),
        R("Google Cloud", "Compute Engine", "Compute", "us-central1",
          "//compute.googleapis.com/projects/%s/zones/us-central1-c/instances/ground-station-gw" % pid,
          "ground-station-gw", "Instance", "N2D AMD Instance Core running in Americas", "Hour", 0.027502,
          24 * 32, noise=0.0, sub=sub),
    ]
    # retained-acked storage ramps: 7-day window of ~2.4 TiB/day of messages = ~17 TiB retained,
    # billed per GiB-month -> daily quantity = retained GiB / 30
    def mod(r, day, h):
        if r["rid"] == retained and r["desc"].startswith("Subscriptions retained"):
            n = (day - D).days + 1
            return min(n, 7) * 2.4 * 1024 / 30.0
        return 1.0
    f.usage(res, dates, mod=mod)
    for day in dates:
        if day.day == 1:
            f.fixed(R("Google Cloud", "Support", None, None, None, None, None, "", "", 0, 0, sub=sub), day, 150.0,
                    "Purchase", "Recurring", "Standard Support monthly fee")
        if day.weekday() == 4:
            f.fixed(R("Google Cloud", "Compute Engine", None, None, None, None, None, "", "", 0, 0, sub=sub), day,
                    -11.4, "Credit", "Usage-Based", "Sustained use discount")
    return dict(files={"focus.csv": f.text()}, anomaly={"date": alert.isoformat(), "account_id": A},
                truth=[(retained, "ResourceId")])


# ---------------------------------------------------------------- 17 Fargate Spot interrupted -> on-demand in one cluster (resource)
@scenario
def s_fargate(rng):
    A = "146230987745"
    D = d("2026-10-13")
    alert = D + 2 * ONE + ONE  # spike on D, D+1; back to Spot on D+2; alert raised D+3
    start = d("2026-07-20")
    dates = drange(start, (alert - start).days + 1)
    f = Focus(rng, A, "quill-media")
    sub = ("146230987750", "quill-prod")
    clusters = [("eu-west-1", "render-queue", 1.0), ("us-east-1", "render-queue", 1.4),
                ("us-east-1", "api", 0.8), ("ap-southeast-2", "render-queue", 0.5)]
    res = []
    for reg, name, k in clusters:
        cid = arn("ecs", reg, sub[0], "cluster/%s" % name)
        res.append(R("AWS", "Amazon Elastic Container Service", "Compute", reg, cid, name, "Cluster",
                     "Fargate Spot - vCPU hours", "vCPU-Hours", 0.01334058, 24 * 160 * k, BIZ_SOFT, sub=sub,
                     pricing="Dynamic", tags=tags(name)))
        res.append(R("AWS", "Amazon Elastic Container Service", "Compute", reg, cid, name, "Cluster",
                     "Fargate Spot - GB hours", "GB-Hours", 0.00146489, 24 * 640 * k, BIZ_SOFT, sub=sub,
                     pricing="Dynamic"))
        res.append(R("AWS", "Amazon Elastic Container Service", "Compute", reg, cid, name, "Cluster",
                     "Fargate - vCPU hours", "vCPU-Hours", 0.04048, 24 * 12 * k, BIZ_SOFT, sub=sub))
        res.append(R("AWS", "Amazon Elastic Container Service", "Compute", reg, cid, name, "Cluster",
                     "Fargate - GB hours", "GB-Hours", 0.004445, 24 * 48 * k, BIZ_SOFT, sub=sub))
    res += [
        R("AWS", "Amazon Simple Storage Service", "Storage", "eu-west-1", arn("s3", "", "", "quill-renders-eu"),
          None, "Bucket", "$0.023 per GB - first 50 TB / month of storage used", "GB-Mo", 0.023, 300000 / 30,
          noise=0.002, sub=sub),
        R("AWS", "Amazon Simple Queue Service", "Integration", "eu-west-1",
          arn("sqs", "eu-west-1", sub[0], "render-jobs"), None, "Queue",
          "$0.40 per million Amazon SQS standard requests", "Requests", 0.0000004, 4.5e7, BIZ_SOFT, sub=sub),
    ]
    target = arn("ecs", "eu-west-1", sub[0], "cluster/render-queue")

    def mod(r, day, h):
        if r["rid"] == target and day in (D, D + ONE):
            if r["desc"].startswith("Fargate Spot"):
                return 0.08
            return (160 * 0.92 + 12) / 12.0
        return 1.0
    f.usage(res, dates, mod=mod)
    return dict(files={"focus.csv": f.text(shuffle=True), "scenario.json": REGION_LEVELS},
                anomaly={"date": alert.isoformat(), "account_id": A}, truth=[(target, "ResourceId")])


# ---------------------------------------------------------------- 18 hourly: cron at 02:00 now runs twice (resource)
@scenario
def s_glue_cron(rng):
    A = "905511224466"
    D = d("2026-02-19")
    start = d("2025-12-15")
    dates = drange(start, (D - start).days + 1 + 1)
    f = Focus(rng, A, "harbor-fintech")
    sub = ("905511224470", "harbor-data")
    web = [0.45] * 7 + [0.8, 1.1, 1.3, 1.35, 1.3, 1.25, 1.3, 1.35, 1.3, 1.2, 1.1, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5]
    night = [0.0] * 24
    night[2] = 1.0
    night4 = [0.0] * 24
    night4[4] = 1.0
    glue_jobs = [("nightly-ledger-compaction", 120.0, night), ("fx-rates-refresh", 8.0, night4)]
    res = []
    for name, dpu, shape in glue_jobs:
        res.append(R("AWS", "AWS Glue", "Analytics", "us-east-1", arn("glue", "us-east-1", sub[0], "job/" + name),
                     name, "Job", "$0.44 per DPU-Hour for each Apache Spark or Spark Streaming job", "DPU-Hour", 0.44,
                     dpu, diurnal=shape, noise=0.03, sub=sub))
    res += [
        R("AWS", "Amazon Elastic Compute Cloud", "Compute", "us-east-1",
          arn("ec2", "us-east-1", sub[0], "instance/i-0a1b2c3d4e5f60718"), "api-asg", "Instance",
          "$0.17 per On Demand Linux c6i.xlarge Instance Hour", "Hrs", 0.17, 24 * 16, BIZ_SOFT, diurnal=web,
          noise=0.04, sub=sub),
        R("AWS", "Amazon Relational Database Service", "Databases", "us-east-1",
          arn("rds", "us-east-1", sub[0], "db:ledger-aurora"), "ledger-aurora", "DBInstance",
          "Aurora PostgreSQL db.r6g.2xlarge instance hour", "Hrs", 1.038, 24 * 2, noise=0, sub=sub),
        R("AWS", "Amazon Relational Database Service", "Databases", "us-east-1",
          arn("rds", "us-east-1", sub[0], "cluster:ledger-aurora"), "ledger-aurora", "DBCluster",
          "Aurora I/O requests", "IOs", 0.0000002, 1.6e9, BIZ_SOFT, diurnal=[1.0] * 24, noise=0.04, sub=sub),
        R("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1", arn("s3", "", "", "harbor-lake"), None,
          "Bucket", "$0.023 per GB - first 50 TB / month of storage used", "GB-Mo", 0.023, 85000 / 30,
          noise=0.002, sub=sub),
    ]
    target = arn("glue", "us-east-1", sub[0], "job/nightly-ledger-compaction")

    def mod(r, day, h):
        if r["rid"] == target and day >= D:
            return 2.0
        return 1.0
    f.usage(res, dates, mod=mod, hourly=True, last_hours=11)
    return dict(files={"focus.csv": f.text()}, anomaly={"date": D.isoformat(), "account_id": A},
                truth=[(target, "ResourceId")])


# ============================================================================= quiet bills
# ---------------------------------------------------------------- Q1 Log Analytics commitment tier starts (normal)
@scenario
def q_law_tier(rng):
    A = "c2b7e9d4-1a36-4f5e-8d20-6e4b1c9a7f03"
    D = d("2026-06-01")
    start = d("2026-02-09")
    dates = drange(start, (D - start).days + 1 + 2)
    lines = [
        L(A, "Azure", "LogAnalytics", "platform", "pay-as-you-go-GB", 2.99 / 24, 118, BIZ_SOFT, noise=0.05,
          end=D - ONE),
        L(A, "Azure", "LogAnalytics", "platform", "commitment-100GB-day", 196.0 / 24, 1, noise=0, start=D),
        L(A, "Azure", "LogAnalytics", "platform", "commitment-overage-GB", 1.96 / 24, 18, BIZ_SOFT, noise=0.3,
          start=D),
        L(A, "Azure", "AKS", "claims", "D8s_v5", 0.384, 14, BIZ_SOFT),
        L(A, "Azure", "AKS", "platform", "D4s_v5", 0.192, 6),
        L(A, "Azure", "SQLDatabase", "claims", "BC_Gen5_4", 1.82, 1, noise=0),
        L(A, "Azure", "VirtualMachines", "claims-batch", "E4s_v5", 0.252, 6, MONDAY_BATCH, noise=0.05),
        L(A, "Azure", "Sentinel", "platform", "analytics-GB", 2.46 / 24, 40, BIZ_SOFT, noise=0.06),
    ]
    fees = [(lambda x: x.day == 1, A, "Azure", "Marketplace", "claims", "docusign-connector", 720.0)]
    csv_ = lite_csv(rng, lines, dates, fees=fees)
    return dict(files={"data.csv": csv_}, anomaly={"date": D.isoformat(), "account_id": A}, truth=[])


# ---------------------------------------------------------------- Q2 holiday-season retail rise, seen the year before (normal)
@scenario
def q_holiday(rng):
    A = "462810935577"
    alert = d("2025-12-12")
    start = d("2024-11-04")
    dates = drange(start, (alert - start).days + 1)
    f = Focus(rng, A, "brightcart")
    sub = ("462810935580", "brightcart-prod")

    def season(day):
        # same shape each year: ramp from Nov 20 to mid-December, plateau until Dec 23, back by Jan 3
        y = day.year
        pts = [(dt.date(y, 11, 15), 1.0), (dt.date(y, 11, 28), 1.35), (dt.date(y, 12, 8), 1.6),
               (dt.date(y, 12, 22), 1.65), (dt.date(y, 12, 27), 1.15), (dt.date(y, 12, 31), 1.1)]
        if day.month == 1 and day.day <= 4:
            return 1.05
        if day < pts[0][0] or day > pts[-1][0]:
            return 1.0
        for (a, va), (b, vb) in zip(pts, pts[1:]):
            if a <= day <= b:
                t = (day - a).days / float((b - a).days)
                return va + (vb - va) * t
        return 1.0

    def growth(day):
        return 1.0 + 0.00025 * (day - start).days
    res = [
        R("AWS", "Amazon Elastic Compute Cloud", "Compute", "us-east-1",
          arn("ec2", "us-east-1", sub[0], "instance/i-0storefront00001"), "storefront-asg", "Instance",
          "$0.1632 per On Demand Linux m7g.xlarge Instance Hour", "Hrs", 0.1632, 24 * 40, CONSUMER, sub=sub,
          scaled=True, tags=tags("storefront")),
        R("AWS", "Amazon Elastic Compute Cloud", "Compute", "us-east-1",
          arn("ec2", "us-east-1", sub[0], "instance/i-0search00000001"), "search-asg", "Instance",
          "$0.34 per On Demand Linux c6i.2xlarge Instance Hour", "Hrs", 0.34, 24 * 10, CONSUMER, sub=sub,
          scaled=True),
        R("AWS", "Amazon Relational Database Service", "Databases", "us-east-1",
          arn("rds", "us-east-1", sub[0], "db:orders"), "orders", "DBInstance",
          "USD 2.08 per db.r6g.4xlarge Multi-AZ instance hour running PostgreSQL", "Hrs", 2.08, 24, noise=0,
          sub=sub),
        R("AWS", "Amazon CloudFront", "Networking", "global",
          arn("cloudfront", "", A, "distribution/E1BRIGHTCART"), None, "Distribution",
          "$0.085 per GB - first 10 TB / month data transfer out", "GB", 0.085, 2100, CONSUMER, noise=0.05,
          sub=sub, scaled=True),
        R("AWS", "Amazon Simple Storage Service", "Storage", "us-east-1", arn("s3", "", "", "brightcart-media"),
          None, "Bucket", "$0.023 per GB - first 50 TB / month of storage used", "GB-Mo", 0.023, 42000 / 30,
          noise=0.002, sub=sub),
        R("AWS", "Amazon Simple Email Service", "Business Applications", "us-east-1", None, None, None,
          "$0.10 per 1000 emails", "Emails", 0.0001, 180000, CONSUMER, noise=0.1, sub=sub, scaled=True),
    ]

    def mod(r, day, h):
        m = growth(day)
        if r.get("scaled"):
            m *= season(day)
        return m
    f.usage(res, dates, mod=mod)
    for day in dates:
        if day.day == 1:
            f.fixed(R("AWS", "Tax", None, None, None, None, None, "", "", 0, 0), day, 410.0, "Tax", "Recurring",
                    "Tax for the billing period")
    return dict(files={"focus.csv": f.text()}, anomaly={"date": alert.isoformat(), "account_id": A}, truth=[])


# ---------------------------------------------------------------- Q3 Monday rise + small launch a few days before (normal)
@scenario
def q_monday_launch(rng):
    A = "238844117605"
    alert = d("2026-09-14")  # a Monday
    launch = alert - 4 * ONE
    start = d("2026-07-13")
    dates = drange(start, (alert - start).days + 1)
    lines = [
        L(A, "AWS", "EC2", "claims-batch", "r6i.2xlarge", 0.504, 10, MONDAY_BATCH, noise=0.04),
        L(A, "AWS", "EC2", "portal", "m6i.large", 0.096, 22, BIZ),
        L(A, "AWS", "RDS", "portal", "db.m6i.2xlarge", 0.684, 2, noise=0),
        L(A, "AWS", "EKS", "portal", "m6i.xlarge", 0.192, 12, BIZ),
        L(A, "AWS", "EMR", "actuarial", "r5.4xlarge", 1.008, 6, MONDAY_BATCH, noise=0.06),
        L(A, "AWS", "EC2", "loyalty-api", "t4g.medium", 0.0336, 4, start=launch, noise=0),
        L(A, "AWS", "RDS", "loyalty-api", "db.t4g.medium", 0.065, 1, start=launch, noise=0),
        L(A, "AWS", "EC2", "bastion", "t3.micro", 0.0104, 2, noise=0),
        L(A, "AWS", "EC2", "legacy-ftp", "m5.large", 0.096, 0, noise=0),  # stopped: zero-cost rows
    ]
    fees = [(lambda x: x.day == 1, A, "AWS", "Marketplace", "portal", "waf-managed-rules", 640.0)]
    csv_ = lite_csv(rng, lines, dates, fees=fees, zero_rows=True)
    return dict(files={"data.csv": csv_}, anomaly={"date": alert.isoformat(), "account_id": A}, truth=[])


# ---------------------------------------------------------------- Q4 month-start marketplace fee + VAT, EUR (normal)
@scenario
def q_month_start(rng):
    A = "90871234"
    alert = d("2026-03-01")
    start = d("2025-10-06")
    dates = drange(start, (alert - start).days + 1 + 1)
    f = Focus(rng, A, "Vireo Health BV", "EUR", 0.93)
    sub = ("a4e1b2c3-9d8f-4e7a-b6c5-d4e3f2a1b0c9", "vireo-prod")
    rg = "/subscriptions/%s/resourceGroups/%%s/providers/%%s" % sub[0]
    res = [
        R("Microsoft", "Virtual Machines", "Compute", "westeurope",
          rg % ("rg-ehr", "Microsoft.Compute/virtualMachineScaleSets/vmss-ehr-web"), "vmss-ehr-web",
          "Microsoft.Compute/virtualMachineScaleSets", "D8s v5", "1 Hour", 0.384, 24 * 12, BIZ, sub=sub),
        R("Microsoft", "SQL Database", "Databases", "westeurope",
          rg % ("rg-ehr", "Microsoft.Sql/servers/sql-ehr/databases/ehr"), "ehr", "Microsoft.Sql/servers/databases",
          "vCore - Business Critical Gen5", "1 Hour", 0.455, 24 * 8, noise=0, sub=sub),
        R("Microsoft", "Storage", "Storage", "westeurope",
          rg % ("rg-ehr", "Microsoft.Storage/storageAccounts/stehrdocs"), "stehrdocs",
          "Microsoft.Storage/storageAccounts", "Hot ZRS Data Stored", "1 GB/Month", 0.023, 52000 / 30,
          noise=0.002, sub=sub),
        R("Microsoft", "Azure Kubernetes Service", "Compute", "westeurope",
          rg % ("rg-platform", "Microsoft.ContainerService/managedClusters/aks-vireo"), "aks-vireo",
          "Microsoft.ContainerService/managedClusters", "Standard Uptime SLA", "1 Hour", 0.10, 24, noise=0,
          sub=sub),
        R("Microsoft", "Bandwidth", "Networking", "westeurope", None, None, None,
          "Standard Data Transfer Out", "1 GB", 0.087, 900, BIZ, noise=0.06, sub=sub),
    ]
    f.usage(res, dates, last_hours=14)
    mkt = R("Microsoft", "Microsoft Marketplace", None, "global", None, None, None, "", "", 0, 0, sub=sub,
            publisher="Veeam Software", issuer="Microsoft")
    lic = R("Microsoft", "Microsoft 365 Copilot", None, "global", None, None, None, "", "", 0, 0, sub=sub)
    for day in dates:
        if day.day == 1:
            f.fixed(mkt, day, 2150.0, "Purchase", "Recurring", "Veeam Backup for Microsoft Azure - monthly")
            f.fixed(lic, day, 1200.0, "Purchase", "Recurring", "Copilot seats (40) - monthly")
            f.fixed(R("Microsoft", "Tax", None, None, None, None, None, "", "", 0, 0, sub=sub), day,
                    0.21 * (2150.0 + 1200.0), "Tax", "Recurring", "VAT 21% on marketplace and licences")
        if day.day == 15:
            f.fixed(R("Microsoft", "Azure Credits", None, None, None, None, None, "", "", 0, 0, sub=sub), day,
                    -150.0, "Credit", "Recurring", "Microsoft for Startups Founders Hub credit")
    return dict(files={"focus.csv": f.text()}, anomaly={"date": alert.isoformat(), "account_id": A}, truth=[])


# ---------------------------------------------------------------- Q5 hourly: steady nightly 02:00 cron, partial last day (normal)
@scenario
def q_hourly_cron(rng):
    A = "716204589930"
    alert = d("2025-04-23")
    start = d("2025-02-17")
    dates = drange(start, (alert - start).days + 1 + 1)
    f = Focus(rng, A, "meridian-ads")
    sub = ("716204589931", "meridian-prod")
    night = [0.0] * 24
    night[2] = 0.7
    night[3] = 0.3
    web = [0.5] * 6 + [0.7, 0.9, 1.1, 1.2, 1.3, 1.3, 1.3, 1.3, 1.25, 1.2, 1.15, 1.1, 1.0, 0.9, 0.8, 0.7, 0.6, 0.55]
    res = [
        R("AWS", "AWS Glue", "Analytics", "us-west-2", arn("glue", "us-west-2", sub[0], "job/attribution-rollup"),
          "attribution-rollup", "Job", "$0.44 per DPU-Hour for each Apache Spark or Spark Streaming job",
          "DPU-Hour", 0.44, 120, [1.0, 1.0, 1.8, 1.0, 1.0, 0.9, 0.9], diurnal=night, noise=0.05, sub=sub),
        R("AWS", "Amazon EMR", "Analytics", "us-west-2",
          arn("elasticmapreduce", "us-west-2", sub[0], "cluster/j-2MERIDIANBID"), "bid-logs-hourly", "Cluster",
          "$0.27 per hour for EMR m6g.4xlarge", "Hrs", 0.27, 24 * 8, diurnal=web, noise=0.05, sub=sub),
        R("AWS", "Amazon Elastic Compute Cloud", "Compute", "us-west-2",
          arn("ec2", "us-west-2", sub[0], "instance/i-0bidders000000001"), "bidder-asg", "Instance",
          "$0.34 per On Demand Linux c6i.2xlarge Instance Hour", "Hrs", 0.34, 24 * 30, diurnal=web, noise=0.04,
          sub=sub),
        R("AWS", "Amazon DynamoDB", "Databases", "us-west-2",
          arn("dynamodb", "us-west-2", sub[0], "table/campaigns"), "campaigns", "Table",
          "$0.00065 per hour for units of write capacity", "WriteCapacityUnit-Hrs", 0.00065, 24 * 3000, noise=0,
          sub=sub),
        R("AWS", "Amazon Simple Storage Service", "Storage", "us-west-2", arn("s3", "", "", "meridian-bid-logs"),
          None, "Bucket", "$0.023 per GB - first 50 TB / month of storage used", "GB-Mo", 0.023, 260000 / 30,
          diurnal=[1.0] * 24, noise=0.002, sub=sub),
    ]
    f.usage(res, dates, hourly=True, last_hours=7)
    return dict(files={"focus.csv": f.text()}, anomaly={"date": alert.isoformat(), "account_id": A}, truth=[])


# ---------------------------------------------------------------- Q6 quarterly DR drill on schedule (normal)
@scenario
def q_dr_drill(rng):
    A = "587730019244"
    alert = d("2026-10-04")  # Sunday after the first-Saturday-of-quarter drill on Oct 3
    start = d("2025-12-01")
    dates = drange(start, (alert - start).days + 1)
    drills = {d("2026-01-03"), d("2026-04-04"), d("2026-07-04"), d("2026-10-03")}
    lines = [
        L(A, "AWS", "EC2", "trading-core", "r7i.4xlarge", 1.058, 10),
        L(A, "AWS", "RDS", "trading-core", "db.r7i.4xlarge", 2.016, 2, noise=0),
        L(A, "AWS", "EC2", "client-portal", "m7i.xlarge", 0.2016, 14, BIZ),
        L(A, "Azure", "VirtualMachines", "trading-core-dr", "E16s_v5", 1.008, 1, noise=0),
        L(A, "Azure", "SQLManagedInstance", "trading-core-dr", "GP_Gen5_8", 1.85, 1, noise=0),
        L(A, "Azure", "VirtualMachines", "client-portal-dr", "D4s_v5", 0.192, 1, noise=0),
        L(A, "AWS", "EC2", "risk-grid", "c7i.8xlarge", 1.428, 6, BIZ, noise=0.05),
    ]

    def mod(ln, day):
        if ln["csp"] == "Azure" and ln["svc"] == "VirtualMachines":
            if day in drills:
                return 8.0 if ln["app"] == "trading-core-dr" else 12.0
        return 1.0
    fees = [(lambda x: x.day == 1, A, "AWS", "Marketplace", "trading-core", "market-data-feed", 3900.0)]
    csv_ = lite_csv(rng, lines, dates, mod=mod, fees=fees, last_frac=0.6)
    return dict(files={"data.csv": csv_}, anomaly={"date": alert.isoformat(), "account_id": A}, truth=[])


# ============================================================================= main
# scenario numbering: a fixed interleaving so quiet bills are not grouped
ORDER = ["s_io2", "q_holiday", "s_inspector", "s_sfn_loop", "s_cosmos_resource", "q_hourly_cron",
         "s_ultrawarm", "s_wrong_region", "s_backfill", "q_law_tier", "s_glue_cron", "s_memorystore",
         "s_gcp_relink", "q_monday_launch", "s_pubsub", "s_media_render", "s_fargate", "q_dr_drill",
         "s_azure_dr", "s_s3_int", "q_month_start", "s_guardduty", "s_region_weight", "s_cosmos_service"]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUT")
    out = sys.argv[1]
    by = {fn.__name__: fn for fn in SCEN}
    assert sorted(by) == sorted(ORDER), set(by) ^ set(ORDER)
    index = []
    for i, name in enumerate(ORDER, 1):
        rng = random.Random(zlib.crc32(("finops-set16/" + name).encode()))
        sc = by[name](rng)
        sd = os.path.join(out, "Scenario-%d" % i)
        os.makedirs(sd, exist_ok=True)
        for fname, text in sc["files"].items():
            with open(os.path.join(sd, fname), "w", newline="") as fh:
                fh.write(text)
        with open(os.path.join(sd, "anomaly.json"), "w") as fh:
            fh.write(json.dumps(sc["anomaly"]) + "\n")
        with open(os.path.join(sd, "ground_truth.yaml"), "w") as fh:
            fh.write(yaml_truth(sc["truth"]))
        index.append((i, name, sc["anomaly"]["date"], sc["truth"]))
    for i, name, date, truth in index:
        print("Scenario-%d\t%s\t%s\t%s" % (i, name, date, truth or "none"))


if __name__ == "__main__":
    main()
