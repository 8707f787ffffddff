#!/usr/bin/env python3
"""finops-set22: held-out FinOps cost-anomaly bills (python3 stdlib only, deterministic).

usage: python3 gen.py OUT
Writes OUT/Scenario-<N>/{data.csv | focus.csv, anomaly.json, ground_truth.yaml, scenario.json}.
Ground truth is fixed in each builder below (TRUTH) before any data is drawn.
"""
import csv
import datetime as dt
import io
import json
import os
import random
import sys

D = dt.date
ONE = dt.timedelta(days=1)
HOUR = dt.timedelta(hours=1)

LITE_COLS = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
             "Price ($/hr)", "Num_Instances", "unblended_cost"]

FOCUS_COLS = ["BillingAccountId", "BillingAccountName", "BillingCurrency", "BillingPeriodStart",
              "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd", "ChargeCategory",
              "ChargeClass", "ChargeDescription", "ChargeFrequency", "ProviderName",
              "PublisherName", "InvoiceIssuerName", "ServiceCategory", "ServiceName",
              "SubAccountId", "SubAccountName", "RegionId", "RegionName", "ResourceId",
              "ResourceName", "ResourceType", "SkuId", "PricingCategory", "ConsumedQuantity",
              "ConsumedUnit", "PricingQuantity", "PricingUnit", "ListUnitPrice", "ListCost",
              "ContractedUnitPrice", "ContractedCost", "BilledCost", "EffectiveCost",
              "CommitmentDiscountId", "CommitmentDiscountType", "Tags"]

SCEN = []


def scenario(fn):
    SCEN.append(fn)
    return fn


def days(start, n):
    return [start + ONE * i for i in range(n)]


def is_month_end(d):
    return (d + ONE).day == 1


def is_quarter_end(d):
    return is_month_end(d) and d.month in (3, 6, 9, 12)


def period(d):
    s = d.replace(day=1)
    e = (s + dt.timedelta(days=32)).replace(day=1)
    return s, e


def noisy(rng, x, cv):
    return max(0.0, x * (1.0 + rng.gauss(0, cv)))


def icount(rng, base, cv):
    return max(0, int(round(base * (1.0 + rng.gauss(0, cv)))))


WK_BIZ = [1.0, 1.03, 1.04, 1.02, 0.96, 0.55, 0.5]     # Mon..Sun
WK_SHOP = [0.92, 0.9, 0.93, 0.97, 1.08, 1.2, 1.15]
WK_FLAT = [1.0] * 7


# ---------------------------------------------------------------------------------------------
# ITBench-Lite
# ---------------------------------------------------------------------------------------------

class Lite:
    def __init__(self, acct):
        self.acct = acct
        self.rows = []

    def add(self, d, csp, svc, app, fam, price, num, cost=None, pdec=4, per_unit=False):
        # instance lines: price per instance-hour x instances x 24 h; usage lines (per_unit):
        # price per unit (GB, million requests, GB-second) x units of the day
        if cost is None:
            cost = price * num * (1.0 if per_unit else 24.0)
        self.rows.append([d.isoformat(), self.acct, csp, svc, app, fam, f"{price:.{pdec}f}",
                          str(num), f"{cost:.4f}"])

    def text(self, rng=None, shuffle=False):
        rows = list(self.rows)
        if shuffle:
            rng.shuffle(rows)
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(LITE_COLS)
        w.writerows(rows)
        return out.getvalue()


# ---------------------------------------------------------------------------------------------
# FOCUS 1.0 (subset of columns, plus x_ columns where a bill has them)
# ---------------------------------------------------------------------------------------------

def ts(t):
    if isinstance(t, dt.datetime):
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")
    return f"{t.isoformat()}T00:00:00Z"


class Focus:
    def __init__(self, acct, name, cur="USD", extra=()):
        self.acct, self.name, self.cur = acct, name, cur
        self.cols = FOCUS_COLS + list(extra)
        self.rows = []

    def add(self, start, end, billed, *, provider, service, category, region="", rid="",
            rname="", rtype="", sku="", qty=None, unit="", list_price=None, effective=None,
            charge="Usage", freq="Usage-Based", pcat="Standard", desc="", cdid="", cdtype="",
            sub="", subname="", tags=None, publisher=None, extra=None, charge_class="",
            list_cost=None):
        day = start.date() if isinstance(start, dt.datetime) else start
        s, e = period(day)
        if list_cost is None:
            list_cost = (list_price * qty) if (list_price is not None and qty) else billed
        r = {"BillingAccountId": self.acct, "BillingAccountName": self.name,
             "BillingCurrency": self.cur, "BillingPeriodStart": ts(s), "BillingPeriodEnd": ts(e),
             "ChargePeriodStart": ts(start), "ChargePeriodEnd": ts(end),
             "ChargeCategory": charge, "ChargeClass": charge_class, "ChargeDescription": desc,
             "ChargeFrequency": freq, "ProviderName": provider,
             "PublisherName": publisher or provider, "InvoiceIssuerName": provider,
             "ServiceCategory": category, "ServiceName": service, "SubAccountId": sub,
             "SubAccountName": subname, "RegionId": region, "RegionName": REGION_NAMES.get(region, ""),
             "ResourceId": rid, "ResourceName": rname, "ResourceType": rtype, "SkuId": sku,
             "PricingCategory": pcat,
             "ConsumedQuantity": "" if qty is None else f"{qty:.6f}", "ConsumedUnit": unit if qty is not None else "",
             "PricingQuantity": "" if qty is None else f"{qty:.6f}", "PricingUnit": unit if qty is not None else "",
             "ListUnitPrice": "" if list_price is None else f"{list_price:.8f}",
             "ListCost": f"{list_cost:.8f}",
             "ContractedUnitPrice": "" if (qty in (None, 0)) else f"{billed / qty if billed else 0:.8f}",
             "ContractedCost": f"{billed:.8f}", "BilledCost": f"{billed:.8f}",
             "EffectiveCost": f"{(billed if effective is None else effective):.8f}",
             "CommitmentDiscountId": cdid, "CommitmentDiscountType": cdtype,
             "Tags": json.dumps(tags, sort_keys=True) if tags else ""}
        for k, v in (extra or {}).items():
            r[k] = v
        self.rows.append(r)

    def text(self, rng=None, shuffle=False):
        rows = list(self.rows)
        if shuffle:
            rng.shuffle(rows)
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=self.cols, lineterminator="\n", restval="")
        w.writeheader()
        w.writerows(rows)
        return out.getvalue()


REGION_NAMES = {
    "us-east-1": "US East (N. Virginia)", "us-east-2": "US East (Ohio)",
    "us-west-2": "US West (Oregon)", "eu-west-1": "EU (Ireland)",
    "eu-central-1": "EU (Frankfurt)", "ap-southeast-1": "Asia Pacific (Singapore)",
    "ap-south-1": "Asia Pacific (Mumbai)", "eu-west-2": "EU (London)",
    "westeurope": "West Europe", "northeurope": "North Europe",
    "europe-west4": "Netherlands", "us-central1": "Iowa",
}


def write(out, idx, *, files, alert, acct, truth, meta):
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
                f.write(f"- name: {json.dumps(name)}\n  type: {typ}\n")
        else:
            f.write("resource: []\n")
    meta = dict(meta)
    meta["generator"] = "finops-set22"
    with open(os.path.join(d, "scenario.json"), "w") as f:
        f.write(json.dumps(meta, indent=2, sort_keys=True) + "\n")


FOCUS_LEVELS = ["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"]


# =============================================================================================
# Scenarios
# =============================================================================================

@scenario
def s01(rng):
    """catalogue / Instance_Family: an ASG scaling on a broken metric runs to max."""
    TRUTH = [("c7g.4xlarge", "Instance_Family")]
    acct = "418877203311"
    start, n = D(2025, 2, 3), 95
    ev = start + ONE * 88          # first abnormal day = alert
    b = Lite(acct)
    fleet = [  # svc, app, fam, price, base, cv, profile
        ("EC2", "checkout", "m6i.xlarge", 0.192, 12, 0.06, WK_SHOP),
        ("EC2", "checkout", "c6i.2xlarge", 0.340, 6, 0.07, WK_SHOP),
        ("EC2", "catalog", "m6i.xlarge", 0.192, 8, 0.05, WK_SHOP),
        ("EC2", "search", "c7g.4xlarge", 0.5781, 5, 0.08, WK_SHOP),
        ("EC2", "search", "r6i.2xlarge", 0.504, 4, 0.0, WK_FLAT),
        ("RDS", "checkout", "db.r6g.xlarge", 0.480, 2, 0.0, WK_FLAT),
        ("RDS", "catalog", "db.r6g.large", 0.240, 2, 0.0, WK_FLAT),
        ("ElastiCache", "checkout", "cache.r6g.large", 0.206, 3, 0.0, WK_FLAT),
        ("ElastiCache", "search", "cache.r6g.large", 0.206, 2, 0.0, WK_FLAT),
    ]
    for i, d in enumerate(days(start, n)):
        for svc, app, fam, price, base, cv, prof in fleet:
            num = icount(rng, base * prof[d.weekday()], cv) if cv else base
            if fam == "c7g.4xlarge" and d >= ev:
                num = [27, 28, 28, 27, 28, 28, 27][(d - ev).days % 7]
            b.add(d, "AWS", svc, app, fam, price, max(num, 1))
        b.add(d, "AWS", "S3", "catalog", "s3-standard-tb", 0.0319, 12 + (d - start).days // 30)
    return dict(files={"data.csv": b.text()}, alert=ev, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "Instance_Family", "alert": "first day"})


@scenario
def s02(rng):
    """catalogue / ResourceId: a GPU notebook left running over a weekend (alert Monday)."""
    nb = "arn:aws:sagemaker:us-east-1:550934411208:notebook-instance/llm-finetune-jlee"
    TRUTH = [(nb, "ResourceId")]
    acct = "550934411208"
    start, n = D(2024, 6, 3), 120
    ev = dt.datetime(2024, 9, 27, 14, 0)       # Friday 14:00 UTC, never stopped
    alert = D(2024, 9, 30)                      # Monday, +3 days
    f = Focus(acct, "ml-platform-prod")
    nbs = [("arn:aws:sagemaker:us-east-1:550934411208:notebook-instance/ds-%s" % u, "ml.t3.xlarge", 0.2)
           for u in ("akhan", "mrossi", "tpham", "swu")]
    for d in days(start, n):
        wd = d.weekday()
        s, e = d, d + ONE
        # EC2 web/api fleet
        for k, (rid, typ, p, base) in enumerate([
                ("i-0a41c5e9d2b7f1380", "m6i.2xlarge", 0.384, 24),
                ("i-0b77e12ac9d05f621", "m6i.2xlarge", 0.384, 24),
                ("i-0c3d9e8f7a6b5c412", "c6i.4xlarge", 0.68, 24),
                ("i-0d1f2e3a4b5c6d790", "r6i.xlarge", 0.252, 24)]):
            f.add(s, e, p * base, provider="AWS", service="Amazon Elastic Compute Cloud",
                  category="Compute", region="us-east-1", rid=rid, rtype="Instance",
                  sku=typ, qty=base, unit="Hours", list_price=p, desc=f"{typ} Linux On-Demand")
        # SageMaker: team notebooks used in office hours
        for rid, typ, p in nbs:
            hrs = 0.0 if wd >= 5 else max(0.0, rng.gauss(8.5, 1.2))
            if hrs > 0:
                f.add(s, e, p * hrs, provider="AWS", service="Amazon SageMaker",
                      category="AI and Machine Learning", region="us-east-1", rid=rid,
                      rtype="NotebookInstance", sku=typ, qty=hrs, unit="Hours", list_price=p,
                      desc=f"{typ} Notebook Instance")
        # training jobs (bursty, several per week)
        if rng.random() < 0.45:
            hrs = rng.uniform(2, 9)
            jid = "arn:aws:sagemaker:us-east-1:550934411208:training-job/nightly-ranker-%s" % d.strftime("%m%d")
            f.add(s, e, 4.131 * hrs, provider="AWS", service="Amazon SageMaker",
                  category="AI and Machine Learning", region="us-east-1", rid=jid,
                  rtype="TrainingJob", sku="ml.g5.4xlarge", qty=hrs, unit="Hours",
                  list_price=4.131 * 1.0, desc="ml.g5.4xlarge Training")
        # the culprit notebook: a few earlier short sessions, then left up
        p = 7.09
        hrs = 0.0
        if d in (D(2024, 8, 14), D(2024, 8, 15)):
            hrs = rng.uniform(3, 5)
        if d == ev.date():
            hrs = 10.0
        elif d > ev.date():
            hrs = 24.0
        if hrs:
            f.add(s, e, p * hrs, provider="AWS", service="Amazon SageMaker",
                  category="AI and Machine Learning", region="us-east-1", rid=nb,
                  rtype="NotebookInstance", sku="ml.g5.12xlarge", qty=hrs, unit="Hours",
                  list_price=p, desc="ml.g5.12xlarge Notebook Instance")
        # S3 and RDS
        f.add(s, e, noisy(rng, 38.0, 0.03), provider="AWS", service="Amazon Simple Storage Service",
              category="Storage", region="us-east-1", rid="arn:aws:s3:::ml-platform-datasets",
              rtype="Bucket", sku="TimedStorage-ByteHrs", qty=38.0 / 0.023, unit="GB-Mo",
              list_price=0.023)
        f.add(s, e, 0.96 * 24, provider="AWS", service="Amazon Relational Database Service",
              category="Databases", region="us-east-1",
              rid="arn:aws:rds:us-east-1:550934411208:db:feature-store", rtype="DBInstance",
              sku="db.r6g.2xlarge", qty=24, unit="Hours", list_price=0.96)
    return dict(files={"focus.csv": f.text()}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "ResourceId", "alert": "+3 days (still present)",
                      "levels": FOCUS_LEVELS, "cost_column": "BilledCost"})


@scenario
def s03(rng):
    """catalogue / CSP: Google Cloud negotiated discount ended at contract end (all GCP lines re-rated)."""
    TRUTH = [("GCP", "CSP")]
    acct = "077120458833"
    start, n = D(2025, 7, 14), 75
    ev = start + ONE * 70
    b = Lite(acct)
    lines = [
        ("AWS", "EC2", "web", "m7i.xlarge", 0.2016, 10, 0.05, WK_SHOP),
        ("AWS", "EC2", "api", "c7i.2xlarge", 0.357, 8, 0.05, WK_SHOP),
        ("AWS", "RDS", "api", "db.m7g.2xlarge", 0.672, 2, 0.0, WK_FLAT),
        ("GCP", "Compute Engine", "analytics", "n2-standard-8", 0.3885, 9, 0.05, WK_BIZ),
        ("GCP", "Compute Engine", "web", "e2-standard-4", 0.1340, 6, 0.04, WK_SHOP),
        ("GCP", "GKE", "analytics", "n2-standard-8", 0.3885, 12, 0.04, WK_BIZ),
        ("GCP", "GKE", "ml", "g2-standard-8", 0.8536, 4, 0.06, WK_FLAT),
        ("GCP", "Cloud SQL", "analytics", "db-custom-8-32768", 0.6224, 2, 0.0, WK_FLAT),
        ("GCP", "Cloud SQL", "ml", "db-custom-4-16384", 0.3112, 1, 0.0, WK_FLAT),
    ]
    for d in days(start, n):
        for csp, svc, app, fam, price, base, cv, prof in lines:
            num = icount(rng, base * prof[d.weekday()], cv) if cv else base
            pr = price * 0.80 if csp == "GCP" else price      # negotiated 20% off list
            if csp == "GCP" and d >= ev:
                pr = price                                      # back to list
            b.add(d, csp, svc, app, fam, pr, max(num, 1))
    return dict(files={"data.csv": b.text()}, alert=ev, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "CSP", "alert": "first day"})


@scenario
def s04(rng):
    """catalogue / Cloud_Service: a shared logging library released at DEBUG level."""
    TRUTH = [("CloudWatch", "Cloud_Service")]
    acct = "903318845672"
    start, n = D(2024, 10, 1), 84
    ev = start + ONE * 79
    alert = ev + ONE * 2
    b = Lite(acct)
    apps = [("orders", 14, 1.0), ("payments", 8, 0.7), ("inventory", 10, 0.5), ("notifications", 5, 0.9)]
    mult = {"orders": 5.2, "payments": 4.1, "inventory": 6.0, "notifications": 4.6}
    archive = {a: 900.0 * w for a, _, w in apps}
    for d in days(start, n):
        for app, fleet, w in apps:
            num = icount(rng, fleet * WK_BIZ[d.weekday()], 0.05)
            b.add(d, "AWS", "EC2", app, "m6g.xlarge", 0.154, max(num, 1))
            gbs = icount(rng, 2600000 * w * WK_BIZ[d.weekday()], 0.06)
            b.add(d, "AWS", "Lambda", app, "lambda-gb-second", 0.0000166667, gbs, pdec=10,
                  per_unit=True)
            gb = 40.0 * w * WK_BIZ[d.weekday()] * (1 + rng.gauss(0, 0.06))
            if d >= ev:
                gb *= mult[app] * (1 + rng.gauss(0, 0.04))
            ing = int(round(gb))
            b.add(d, "AWS", "CloudWatch", app, "logs-ingest-gb", 0.50, ing, per_unit=True)
            # saved Logs Insights queries behind dashboards and alarms scan what was ingested
            scan = int(round(gb * 60 * (1 + rng.gauss(0, 0.05))))
            b.add(d, "AWS", "CloudWatch", app, "logs-insights-gb-scanned", 0.005, scan, per_unit=True)
            archive[app] += gb * 0.5 - archive[app] * 0.004
            b.add(d, "AWS", "CloudWatch", app, "logs-archive-gb-mo", 0.03 / 30, int(archive[app]),
                  pdec=6, per_unit=True)
    return dict(files={"data.csv": b.text()}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "Cloud_Service", "alert": "+2 days (still present)"})


@scenario
def s05(rng):
    """catalogue / RegionId: a Terraform apply with prod variables duplicated the stack in us-east-2."""
    TRUTH = [("us-east-2", "RegionId")]
    acct = "311208764490"
    start, n = D(2025, 4, 7), 110
    ev = start + ONE * 101
    alert = ev + ONE
    f = Focus(acct, "acme-platform")
    levels = ["BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId"]
    regions = {"us-east-1": 1.0, "us-east-2": 0.35, "eu-west-1": 0.55}
    for d in days(start, n + 4):
        s, e = d, d + ONE
        for reg, w in regions.items():
            nweb = max(1, int(round(10 * w)))
            extra = 0
            if reg == "us-east-2" and d >= ev:
                extra = 10 - nweb     # prod-sized web tier
            for k in range(nweb + extra):
                rid = "i-0%s" % ("%016x" % (int.from_bytes((reg + str(k)).encode(), 'big') % (16 ** 16)))
                hrs = 24.0 if not (k >= nweb and d == ev) else 17.0
                f.add(s, e, 0.384 * hrs, provider="AWS", service="Amazon Elastic Compute Cloud",
                      category="Compute", region=reg, rid=rid, rtype="Instance", sku="m6i.2xlarge",
                      qty=hrs, unit="Hours", list_price=0.384)
            dbs = [("db.r6g.2xlarge", 0.96)] if reg != "us-east-2" else [("db.r6g.large", 0.24)]
            if reg == "us-east-2" and d >= ev:
                dbs.append(("db.r6g.2xlarge", 0.96))
            for j, (typ, p) in enumerate(dbs):
                hrs = 24.0 if not (j == 1 and d == ev) else 16.5
                f.add(s, e, p * hrs * 2, provider="AWS", service="Amazon Relational Database Service",
                      category="Databases", region=reg,
                      rid=f"arn:aws:rds:{reg}:{acct}:db:core-{j}", rtype="DBInstance", sku=typ + "-MultiAZ",
                      qty=hrs * 2, unit="Hours", list_price=p)
            lcu = noisy(rng, 60 * w * WK_SHOP[d.weekday()], 0.05)
            if reg == "us-east-2" and d >= ev:
                lcu += 25 * (0.7 if d == ev else 1.0)
            f.add(s, e, 0.0225 * 24 + 0.008 * lcu, provider="AWS", service="Elastic Load Balancing",
                  category="Networking", region=reg,
                  rid=f"arn:aws:elasticloadbalancing:{reg}:{acct}:loadbalancer/app/web/{reg[-1]}9f2",
                  rtype="LoadBalancer", sku="LCU", qty=lcu, unit="LCU-Hrs", list_price=0.008)
            nat = noisy(rng, 380 * w, 0.06)
            if reg == "us-east-2" and d >= ev:
                nat += 700
            f.add(s, e, 0.045 * 24 + 0.045 * nat, provider="AWS", service="Amazon Virtual Private Cloud",
                  category="Networking", region=reg,
                  rid=f"arn:aws:ec2:{reg}:{acct}:natgateway/nat-0{reg[-1]}4e1", rtype="NatGateway",
                  sku="NatGateway-Bytes", qty=nat, unit="GB", list_price=0.045)
        f.add(s, e, noisy(rng, 55, 0.02), provider="AWS", service="Amazon Simple Storage Service",
              category="Storage", region="us-east-1", rid="arn:aws:s3:::acme-assets", rtype="Bucket",
              sku="TimedStorage-ByteHrs", qty=2391.0, unit="GB-Mo", list_price=0.023)
        if d.day == 1:
            f.add(s, period(d)[1], 1450.0, provider="AWS", service="AWS Support (Business)",
                  category="Management and Governance", charge="Purchase", freq="Recurring",
                  desc="AWS Support (Business) monthly fee")
    return dict(files={"focus.csv": f.text()}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "RegionId", "alert": "+1 day (still present)",
                      "levels": levels, "cost_column": "BilledCost"})


@scenario
def s06(rng):
    """catalogue / Application: a new application launched without a budget (GPU AKS pool)."""
    TRUTH = [("vector-search", "Application")]
    acct = "7c1e0452"
    start, n = D(2025, 9, 1), 60
    ev = start + ONE * 57
    b = Lite(acct)
    lines = [
        ("Virtual Machines", "crm", "D4s_v5", 0.192, 8, 0.03, WK_BIZ),
        ("Virtual Machines", "hr-portal", "D2s_v5", 0.096, 4, 0.0, WK_FLAT),
        ("AKS", "crm", "D8s_v5", 0.384, 6, 0.05, WK_BIZ),
        ("AKS", "intranet", "D4s_v5", 0.192, 5, 0.04, WK_BIZ),
        ("SQL Database", "crm", "GP_Gen5_8", 1.5116, 1, 0.0, WK_FLAT),
        ("SQL Database", "hr-portal", "GP_Gen5_2", 0.3779, 1, 0.0, WK_FLAT),
        ("Storage", "intranet", "hot-lrs-gb", 0.0000255, 4200, 0.01, WK_FLAT),
        ("Storage", "crm", "hot-lrs-gb", 0.0000255, 9800, 0.01, WK_FLAT),
    ]
    for d in days(start, n):
        for svc, app, fam, price, base, cv, prof in lines:
            num = icount(rng, base * prof[d.weekday()], cv) if cv else base
            b.add(d, "Azure", svc, app, fam, price, max(num, 1), pdec=7)
        if d >= ev:
            k = (d - ev).days
            b.add(d, "Azure", "AKS", "vector-search", "NC24ads_A100_v4", 3.673, 3 if k == 0 else 4, pdec=7)
            b.add(d, "Azure", "AKS", "vector-search", "E16s_v5", 1.008, 3, pdec=7)
            b.add(d, "Azure", "Storage", "vector-search", "premium-ssd-gb", 0.000186, 2048 + 300 * k, pdec=7)
    return dict(files={"data.csv": b.text()}, alert=ev, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "Application", "alert": "first day"})


@scenario
def s07(rng):
    """catalogue / ServiceName: DynamoDB tables switched to on-demand by a shared module change."""
    TRUTH = [("Amazon DynamoDB", "ServiceName")]
    acct = "264410937125"
    start, n = D(2025, 3, 3), 100
    ev = start + ONE * 92
    f = Focus(acct, "retail-core")
    tables = [("orders", 400, 220, 1.0), ("sessions", 900, 600, 1.3), ("catalog-items", 1200, 80, 0.9),
              ("carts", 300, 260, 1.1), ("audit-log", 50, 500, 0.7)]
    for d in days(start, n + 6):
        s, e = d, d + ONE
        wkf = WK_SHOP[d.weekday()]
        for name, rcu, wcu, burst in tables:
            rid = f"arn:aws:dynamodb:us-west-2:{acct}:table/{name}"
            if d < ev:
                f.add(s, e, rcu * 24 * 0.00013, provider="AWS", service="Amazon DynamoDB",
                      category="Databases", region="us-west-2", rid=rid, rtype="Table",
                      sku="ReadCapacityUnit-Hrs", qty=rcu * 24.0, unit="RCU-Hours", list_price=0.00013)
                f.add(s, e, wcu * 24 * 0.00065, provider="AWS", service="Amazon DynamoDB",
                      category="Databases", region="us-west-2", rid=rid, rtype="Table",
                      sku="WriteCapacityUnit-Hrs", qty=wcu * 24.0, unit="WCU-Hours", list_price=0.00065)
            else:
                rru = noisy(rng, rcu * 0.55 * 86400 * wkf * burst, 0.05) / 1e6
                wru = noisy(rng, wcu * 0.5 * 86400 * wkf * burst, 0.05) / 1e6
                f.add(s, e, rru * 0.125, provider="AWS", service="Amazon DynamoDB",
                      category="Databases", region="us-west-2", rid=rid, rtype="Table",
                      sku="PayPerRequestReadRequestUnits", qty=rru, unit="Million RRU", list_price=0.125)
                f.add(s, e, wru * 0.625, provider="AWS", service="Amazon DynamoDB",
                      category="Databases", region="us-west-2", rid=rid, rtype="Table",
                      sku="PayPerRequestWriteRequestUnits", qty=wru, unit="Million WRU", list_price=0.625)
            f.add(s, e, noisy(rng, 1.9 * burst, 0.01), provider="AWS", service="Amazon DynamoDB",
                  category="Databases", region="us-west-2", rid=rid, rtype="Table",
                  sku="TimedStorage-ByteHrs", qty=1.9 * burst / 0.25 * 30, unit="GB-Mo", list_price=0.25 / 30)
        for k, (typ, p, cnt) in enumerate([("m7g.xlarge", 0.1632, 14), ("c7g.2xlarge", 0.289, 8)]):
            c = icount(rng, cnt * wkf, 0.05)
            f.add(s, e, p * 24 * c, provider="AWS", service="Amazon Elastic Compute Cloud",
                  category="Compute", region="us-west-2",
                  rid=f"arn:aws:autoscaling:us-west-2:{acct}:autoScalingGroup:web-{typ}", rtype="AutoScalingGroup",
                  sku=typ, qty=24.0 * c, unit="Hours", list_price=p)
        f.add(s, e, noisy(rng, 21, 0.05), provider="AWS", service="AWS Lambda", category="Compute",
              region="us-west-2", rid=f"arn:aws:lambda:us-west-2:{acct}:function:order-events",
              rtype="Function", sku="Lambda-GB-Second", qty=21 / 0.0000166667, unit="GB-Seconds",
              list_price=0.0000166667)
    return dict(files={"focus.csv": f.text()}, alert=ev, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "ServiceName", "alert": "first day",
                      "levels": FOCUS_LEVELS, "cost_column": "BilledCost"})


@scenario
def s08(rng):
    """catalogue / Instance_Family: one Spot pool dried up, c5.4xlarge falls back to On-Demand in two apps."""
    TRUTH = [("c5.4xlarge", "Instance_Family")]
    acct = "620031478829"
    start, n = D(2024, 1, 8), 100
    ev = start + ONE * 93
    alert = ev + ONE * 3
    b = Lite(acct)
    lines = [
        ("EC2", "batch-etl", "c5.4xlarge", "spot", 16, 0.07),
        ("EC2", "batch-etl", "m5.2xlarge", "spot", 10, 0.07),
        ("EC2", "ml-features", "c5.4xlarge", "spot", 9, 0.06),
        ("EC2", "ml-features", "r5.2xlarge", "od", 4, 0.0),
        ("EC2", "web", "m6i.xlarge", "od", 12, 0.04),
        ("EMR", "batch-etl", "emr-m5.2xlarge", "od", 10, 0.07),
        ("S3", "batch-etl", "s3-standard", "od", 1, 0.0),
    ]
    od = {"c5.4xlarge": 0.68, "m5.2xlarge": 0.384, "r5.2xlarge": 0.504, "m6i.xlarge": 0.192,
          "emr-m5.2xlarge": 0.096, "s3-standard": 3.10}
    spot_base = {"c5.4xlarge": 0.262, "m5.2xlarge": 0.141}
    for d in days(start, n + 2):
        for svc, app, fam, kind, base, cv in lines:
            num = icount(rng, base * WK_BIZ[d.weekday()], cv) if cv else base
            if kind == "spot":
                price = spot_base[fam] * (1 + rng.uniform(-0.03, 0.03))
                if fam == "c5.4xlarge" and d >= ev:
                    price = od[fam]
            else:
                price = od[fam]
            b.add(d, "AWS", svc, app, fam, price, max(num, 1))
    return dict(files={"data.csv": b.text(rng, shuffle=True)}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "Instance_Family", "alert": "+3 days (still present)"})


@scenario
def s09(rng):
    """novel / CSP: Snowflake capacity contract exhausted, every Snowflake line billed at on-demand rates."""
    TRUTH = [("Snowflake", "CSP")]
    acct = "310558120047"
    start, n = D(2025, 5, 1), 130
    ev = start + ONE * 118
    alert = ev + ONE * 2
    b = Lite(acct)
    aws = [("EC2", "analytics", "m6i.2xlarge", 0.384, 6, 0.04), ("EC2", "finance-bi", "m6i.xlarge", 0.192, 4, 0.0),
           ("RDS", "finance-bi", "db.r6i.xlarge", 0.50, 1, 0.0), ("S3", "analytics", "s3-standard-tb", 0.0319, 42, 0.01)]
    snow = [("Warehouse Compute", "analytics", "WH-LARGE", 2.0, 8, 0.10, WK_BIZ),
            ("Warehouse Compute", "finance-bi", "WH-MEDIUM", 2.0, 4, 0.08, WK_BIZ),
            ("Warehouse Compute", "analytics", "WH-XSMALL", 2.0, 1, 0.0, WK_FLAT),
            ("Storage", "analytics", "storage-tb", 23.0 / 30 / 24, 185, 0.0, WK_FLAT),
            ("Storage", "finance-bi", "storage-tb", 23.0 / 30 / 24, 40, 0.0, WK_FLAT),
            ("Serverless", "analytics", "snowpipe-credits", 2.0 * 1.25, 2, 0.0, WK_FLAT)]
    ond = {"WH-LARGE": 3.0, "WH-MEDIUM": 3.0, "WH-XSMALL": 3.0, "storage-tb": 40.0 / 30 / 24,
           "snowpipe-credits": 3.0 * 1.25}
    for d in days(start, n + 3):
        for svc, app, fam, price, base, cv in aws:
            num = icount(rng, base * WK_BIZ[d.weekday()], cv) if cv else base
            b.add(d, "AWS", svc, app, fam, price, max(num, 1))
        for svc, app, fam, price, base, cv, prof in snow:
            num = icount(rng, base * prof[d.weekday()], cv) if cv else base
            if fam == "storage-tb":
                num = base + (d - start).days // 10
            pr = ond[fam] if d >= ev else price
            b.add(d, "Snowflake", svc, app, fam, pr, max(num, 1), pdec=5)
    return dict(files={"data.csv": b.text()}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "novel", "level": "CSP", "alert": "+2 days (still present)"})


@scenario
def s10(rng):
    """novel / ProviderName: Google Cloud promotional credits exhausted (EUR bill, AWS beside it)."""
    TRUTH = [("Google Cloud", "ProviderName")]
    acct = "4410098237"
    start, n = D(2025, 1, 15), 140
    out_day = start + ONE * 131      # credits partly applied this day (balance ran out)
    alert = out_day + ONE             # first day with no credit at all
    f = Focus(acct, "Reseller consolidated invoice (startup-eu)", cur="EUR")
    gsvc = [("Compute Engine", "Compute", "europe-west4", 310.0, WK_FLAT, 0.03),
            ("Cloud Run", "Compute", "europe-west4", 85.0, WK_SHOP, 0.07),
            ("Cloud SQL", "Databases", "europe-west4", 140.0, WK_FLAT, 0.0),
            ("BigQuery", "Analytics", "EU", 60.0, WK_BIZ, 0.15),
            ("Cloud Storage", "Storage", "EU", 44.0, WK_FLAT, 0.01)]
    for d in days(start, n + 5):
        s, e = d, d + ONE
        gross_total = 0.0
        for svc, cat, reg, base, prof, cv in gsvc:
            c = noisy(rng, base * prof[d.weekday()], cv) if cv else base
            gross_total += c
            rid = f"projects/startup-prod/{svc.lower().replace(' ', '-')}"
            f.add(s, e, c, provider="Google Cloud", service=svc, category=cat, region=reg, rid=rid,
                  sku=svc[:3].upper() + "-USAGE", desc=f"{svc} usage", sub="startup-prod",
                  subname="startup-prod")
            share = 0.0
            if d < out_day:
                share = 1.0
            elif d == out_day:
                share = 0.37
            if share:
                f.add(s, e, -c * share, provider="Google Cloud", service=svc, category=cat, region=reg,
                      charge="Credit", desc="Google for Startups Cloud Program credit", sub="startup-prod",
                      subname="startup-prod", freq="Usage-Based")
        # AWS side (paid, flat-ish)
        for svc, cat, base, cv in [("Amazon Elastic Compute Cloud", "Compute", 120.0, 0.03),
                                   ("Amazon CloudFront", "Networking", 35.0, 0.08),
                                   ("Amazon Simple Storage Service", "Storage", 18.0, 0.01)]:
            c = noisy(rng, base * (WK_SHOP[d.weekday()] if "Front" in svc else 1.0), cv)
            f.add(s, e, c, provider="AWS", service=svc, category=cat, region="eu-central-1",
                  rid=f"aws/{svc.split()[-1].lower()}", desc=f"{svc} usage", sub="889123004511",
                  subname="web-prod")
        if d.day == 1:
            f.add(s, period(d)[1], 29.0, provider="AWS", service="AWS Support (Developer)",
                  category="Management and Governance", charge="Purchase", freq="Recurring",
                  sub="889123004511", subname="web-prod")
    return dict(files={"focus.csv": f.text()}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "novel", "level": "ProviderName",
                      "alert": "+1 day (credits partly applied the day before)",
                      "levels": ["BillingAccountId", "ProviderName", "ServiceName", "ResourceId"],
                      "cost_column": "BilledCost"})


@scenario
def s11(rng):
    """novel / ServiceName: shared SQS consumer wrapper switched to short polling (empty receives)."""
    TRUTH = [("Amazon Simple Queue Service", "ServiceName")]
    acct = "742019563318"
    start, n = D(2025, 8, 4), 70
    ev = start + ONE * 63
    f = Focus(acct, "commerce-prod")
    queues = [("orders-intake", 9.0), ("email-outbox", 3.0), ("webhooks-retry", 1.2),
              ("billing-events", 4.5), ("search-reindex", 2.0), ("inventory-sync", 5.5),
              ("orders-intake-dlq", 0.05)]
    for d in days(start, n + 3):
        s, e = d, d + ONE
        wkf = WK_SHOP[d.weekday()]
        for q, mreq in queues:
            req = noisy(rng, mreq * wkf, 0.06)          # millions of requests
            if d >= ev:
                # 20 consumers x 1 empty ReceiveMessage / ~60 ms each
                req += noisy(rng, 26.0 if "dlq" not in q else 8.0, 0.04)
            f.add(s, e, req * 0.40, provider="AWS", service="Amazon Simple Queue Service",
                  category="Integration", region="us-east-1",
                  rid=f"arn:aws:sqs:us-east-1:{acct}:{q}", rtype="Queue",
                  sku="SQS-Requests-Tier1", qty=req * 1e6, unit="Requests", list_price=0.0000004,
                  desc="$0.40 per million Amazon SQS standard requests in Tier1")
        for svc, cat, rid, base, cv in [
                ("Amazon Elastic Container Service", "Compute", f"arn:aws:ecs:us-east-1:{acct}:cluster/consumers", 96.0, 0.04),
                ("AWS Lambda", "Compute", f"arn:aws:lambda:us-east-1:{acct}:function:webhook-fanout", 22.0, 0.07),
                ("Amazon DynamoDB", "Databases", f"arn:aws:dynamodb:us-east-1:{acct}:table/orders", 48.0, 0.03),
                ("Amazon Elastic Compute Cloud", "Compute", f"arn:aws:ec2:us-east-1:{acct}:instance/i-0e3b88a1c2f94d107", 80.64, 0.0)]:
            c = noisy(rng, base * (wkf if cv else 1.0), cv) if cv else base
            f.add(s, e, c, provider="AWS", service=svc, category=cat, region="us-east-1", rid=rid,
                  desc=f"{svc} usage")
        f.add(s, e, noisy(rng, 1.6, 0.1), provider="AWS", service="Amazon Simple Queue Service",
              category="Integration", region="us-east-1", sku="DataTransfer-Out-Bytes",
              qty=18.0, unit="GB", desc="SQS data transfer (no resource)")
    return dict(files={"focus.csv": f.text()}, alert=ev, acct=acct, truth=TRUTH,
                meta={"half": "novel", "level": "ServiceName", "alert": "first day",
                      "levels": FOCUS_LEVELS, "cost_column": "BilledCost"})


@scenario
def s12(rng):
    """novel / Application: full-fidelity tracing switched on in one app (Lambda, X-Ray, CloudWatch)."""
    TRUTH = [("pricing-api", "Application")]
    acct = "189022746351"
    start, n = D(2024, 10, 7), 64
    ev = start + ONE * 57
    alert = ev + ONE * 3
    b = Lite(acct)
    apps = {"pricing-api": 1.0, "quotes": 1.4, "partner-gw": 0.6}
    for d in days(start, n):
        wkf = WK_BIZ[d.weekday()]
        for app, w in apps.items():
            on = app == "pricing-api" and d >= ev
            gbs = 2500000 * w * wkf * (1 + rng.gauss(0, 0.05)) * (1.6 if on else 1.0)
            b.add(d, "AWS", "Lambda", app, "lambda-gb-second", 0.0000166667, int(gbs), pdec=10,
                  per_unit=True)
            tr = 400000 * w * wkf * (1 + rng.gauss(0, 0.06)) * (12.0 if on else 1.0)
            b.add(d, "AWS", "X-Ray", app, "xray-traces-recorded", 0.000005, int(tr), pdec=6,
                  per_unit=True)
            lg = 18 * w * wkf * (1 + rng.gauss(0, 0.05)) * (4.0 if on else 1.0)
            b.add(d, "AWS", "CloudWatch", app, "logs-ingest-gb", 0.50, int(lg), per_unit=True)
            b.add(d, "AWS", "API Gateway", app, "http-api-requests", 0.000001,
                  max(1, int(30000000 * w * wkf * (1 + rng.gauss(0, 0.05)))), pdec=6, per_unit=True)
        b.add(d, "AWS", "DynamoDB", "quotes", "provisioned-wcu", 0.00065, 400, pdec=5)
        b.add(d, "AWS", "DynamoDB", "pricing-api", "provisioned-rcu", 0.00013, 1500, pdec=5)
    return dict(files={"data.csv": b.text()}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "novel", "level": "Application", "alert": "+3 days (still present)"})


@scenario
def s13(rng):
    """catalogue / x_Application: an unannounced marketing campaign drives storefront traffic."""
    TRUTH = [("storefront", "x_Application")]
    acct = "883021457716"
    start, n = D(2025, 10, 6), 90
    ev = start + ONE * 73
    f = Focus(acct, "shop-prod", extra=["x_Application", "x_CostCenter"])
    levels = ["BillingAccountId", "ProviderName", "x_Application", "ServiceName", "ResourceId"]
    apps = {"storefront": ("CC-210", 1.0), "catalog-admin": ("CC-340", 0.4), "recommendations": ("CC-210", 0.7),
            "back-office": ("CC-500", 0.5)}
    for d in days(start, n + 4):
        s, e = d, d + ONE
        for app, (cc, w) in apps.items():
            x = {"x_Application": app, "x_CostCenter": cc}
            wkf = WK_SHOP[d.weekday()] if app in ("storefront", "recommendations") else WK_BIZ[d.weekday()]
            boost = 1.0
            if app == "storefront" and d >= ev:
                boost = [2.6, 2.3, 2.4, 2.1, 2.2][min((d - ev).days, 4)]
            cnt = icount(rng, 12 * w * wkf * (boost * 0.85 + 0.15 if boost > 1 else 1), 0.05)
            f.add(s, e, 0.192 * 24 * cnt, provider="AWS", service="Amazon Elastic Compute Cloud",
                  category="Compute", region="us-east-1",
                  rid=f"arn:aws:autoscaling:us-east-1:{acct}:autoScalingGroup:{app}-asg", rtype="AutoScalingGroup",
                  sku="m6i.xlarge", qty=24.0 * cnt, unit="Hours", list_price=0.192, extra=x,
                  tags={"app": app})
            lcu = noisy(rng, 30 * w * wkf * boost, 0.05)
            f.add(s, e, 0.0225 * 24 + 0.008 * lcu, provider="AWS", service="Elastic Load Balancing",
                  category="Networking", region="us-east-1",
                  rid=f"arn:aws:elasticloadbalancing:us-east-1:{acct}:loadbalancer/app/{app}/5c1d",
                  rtype="LoadBalancer", sku="LCU", qty=lcu, unit="LCU-Hrs", list_price=0.008, extra=x)
            if app in ("storefront", "catalog-admin"):
                gb = noisy(rng, 900 * w * wkf * boost, 0.06)
                f.add(s, e, gb * 0.085, provider="AWS", service="Amazon CloudFront", category="Networking",
                      region="global", rid=f"arn:aws:cloudfront::{acct}:distribution/E{app[:4].upper()}7Q",
                      rtype="Distribution", sku="DataTransfer-Out-Bytes", qty=gb, unit="GB",
                      list_price=0.085, extra=x)
            f.add(s, e, 0.48 * 24, provider="AWS", service="Amazon Relational Database Service",
                  category="Databases", region="us-east-1", rid=f"arn:aws:rds:us-east-1:{acct}:db:{app}",
                  rtype="DBInstance", sku="db.r6g.xlarge", qty=24, unit="Hours", list_price=0.48, extra=x)
        if d.day == 1:
            f.add(s, period(d)[1], 610.0, provider="AWS", service="AWS Support (Business)",
                  category="Management and Governance", charge="Purchase", freq="Recurring",
                  extra={"x_Application": "", "x_CostCenter": "CC-000"})
    return dict(files={"focus.csv": f.text(rng, shuffle=True)}, alert=ev, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "x_Application", "alert": "first day",
                      "levels": levels, "cost_column": "BilledCost"})


@scenario
def s14(rng):
    """novel / RegionId: regional Reserved Instances (EC2 and RDS, one purchase) expired in eu-central-1."""
    TRUTH = [("eu-central-1", "RegionId")]
    acct = "402277159083"
    start, n = D(2025, 2, 10), 150
    expiry = start + ONE * 137
    alert = expiry + ONE * 2
    f = Focus(acct, "logistics-prod")
    levels = ["BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId"]
    regs = {"us-east-1": (14, 3, D(2026, 1, 20)), "eu-central-1": (10, 2, expiry),
            "ap-southeast-1": (6, 1, D(2025, 11, 3))}
    price = {"us-east-1": (0.192, 0.96), "eu-central-1": (0.230, 1.15), "ap-southeast-1": (0.240, 1.19)}
    for d in days(start, n + 2):
        s, e = d, d + ONE
        for reg, (ninst, ndb, exp) in regs.items():
            pi, pdb = price[reg]
            cov = d < exp
            for k in range(ninst):
                rid = f"i-0{reg[:2]}{k:02d}7c3f19e2a4{k % 7}b"
                if cov:
                    f.add(s, e, 0.0, provider="AWS", service="Amazon Elastic Compute Cloud",
                          category="Compute", region=reg, rid=rid, rtype="Instance", sku="m6i.xlarge",
                          qty=24, unit="Hours", list_price=pi, effective=pi * 24 * 0.62,
                          pcat="Committed", cdid=f"arn:aws:ec2:{reg}:{acct}:reserved-instances/ri-{reg[:2]}-m6i",
                          cdtype="Reserved Instance", charge_class="")
                else:
                    f.add(s, e, pi * 24, provider="AWS", service="Amazon Elastic Compute Cloud",
                          category="Compute", region=reg, rid=rid, rtype="Instance", sku="m6i.xlarge",
                          qty=24, unit="Hours", list_price=pi)
            # burst capacity on demand
            extra = icount(rng, 4 * WK_BIZ[d.weekday()] * ninst / 10, 0.08)
            if extra:
                f.add(s, e, pi * 24 * extra, provider="AWS", service="Amazon Elastic Compute Cloud",
                      category="Compute", region=reg,
                      rid=f"arn:aws:autoscaling:{reg}:{acct}:autoScalingGroup:burst", rtype="AutoScalingGroup",
                      sku="m6i.xlarge", qty=24.0 * extra, unit="Hours", list_price=pi)
            for j in range(ndb):
                rid = f"arn:aws:rds:{reg}:{acct}:db:shipments-{j}"
                if cov:
                    f.add(s, e, 0.0, provider="AWS", service="Amazon Relational Database Service",
                          category="Databases", region=reg, rid=rid, rtype="DBInstance", sku="db.r6g.2xlarge",
                          qty=24, unit="Hours", list_price=pdb, effective=pdb * 24 * 0.58, pcat="Committed",
                          cdid=f"arn:aws:rds:{reg}:{acct}:ri:ri-{reg[:2]}-r6g", cdtype="Reserved Instance")
                else:
                    f.add(s, e, pdb * 24, provider="AWS", service="Amazon Relational Database Service",
                          category="Databases", region=reg, rid=rid, rtype="DBInstance", sku="db.r6g.2xlarge",
                          qty=24, unit="Hours", list_price=pdb)
            gb = noisy(rng, 500 * ninst / 10, 0.05)
            f.add(s, e, gb * 0.0245, provider="AWS", service="Amazon Simple Storage Service",
                  category="Storage", region=reg, rid=f"arn:aws:s3:::logistics-{reg}", rtype="Bucket",
                  sku="TimedStorage-ByteHrs", qty=gb, unit="GB-Mo", list_price=0.0245)
            if d.day == 1 and cov:
                # RI recurring monthly fees: billed, amortised into the usage above (EffectiveCost 0)
                fee = (pi * 24 * 0.62 * ninst + pdb * 24 * 0.58 * ndb) * 30.4
                f.add(s, period(d)[1], fee, provider="AWS", service="Amazon Elastic Compute Cloud",
                      category="Compute", region=reg, charge="Purchase", freq="Recurring", effective=0.0,
                      desc="Reserved Instance monthly recurring fee", cdtype="Reserved Instance",
                      cdid=f"arn:aws:ec2:{reg}:{acct}:reserved-instances/ri-{reg[:2]}-m6i")
    return dict(files={"focus.csv": f.text()}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "novel", "level": "RegionId", "alert": "+2 days (still present)",
                      "levels": levels, "cost_column": "EffectiveCost"})


@scenario
def s15(rng):
    """catalogue / RegionId: leaked access key, crypto-miners in an unused region (hourly export)."""
    TRUTH = [("ap-south-1", "RegionId")]
    acct = "066150442871"
    start = dt.datetime(2025, 6, 1)
    nh = 46 * 24
    ev = dt.datetime(2025, 7, 14, 3, 0)
    f = Focus(acct, "games-live")
    levels = ["BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId"]
    miners = [f"i-0{k:x}9e41f7c2d{k * 7 % 10}a8b6" for k in range(1, 13)]
    for h in range(nh):
        t0 = start + HOUR * h
        t1 = t0 + HOUR
        hod = t0.hour
        diurnal = 0.7 + 0.3 * (1 if 14 <= hod <= 23 else 0)
        for reg, w in (("us-east-1", 1.0), ("eu-west-1", 0.6)):
            cnt = icount(rng, 20 * w * diurnal * WK_SHOP[t0.weekday()], 0.04)
            f.add(t0, t1, 0.17 * cnt, provider="AWS", service="Amazon Elastic Compute Cloud",
                  category="Compute", region=reg, rid=f"arn:aws:autoscaling:{reg}:{acct}:autoScalingGroup:game-srv",
                  rtype="AutoScalingGroup", sku="c6i.xlarge", qty=float(cnt), unit="Hours", list_price=0.17)
            f.add(t0, t1, 0.345, provider="AWS", service="Amazon ElastiCache", category="Databases",
                  region=reg, rid=f"arn:aws:elasticache:{reg}:{acct}:cluster:sessions", rtype="CacheCluster",
                  sku="cache.r6g.xlarge", qty=1.0, unit="Hours", list_price=0.345)
            gb = noisy(rng, 9 * w * diurnal, 0.08)
            f.add(t0, t1, gb * 0.09, provider="AWS", service="AWS Data Transfer", category="Networking",
                  region=reg, sku="DataTransfer-Out-Bytes", qty=gb, unit="GB", list_price=0.09)
        if t0 >= ev:
            for k, rid in enumerate(miners):
                if t0 >= ev + HOUR * (k // 4):
                    f.add(t0, t1, 12.24 * 1.0, provider="AWS", service="Amazon Elastic Compute Cloud",
                          category="Compute", region="ap-south-1", rid=rid, rtype="Instance",
                          sku="p3.8xlarge", qty=1.0, unit="Hours", list_price=12.24)
                    f.add(t0, t1, 500 * 0.08 / 730, provider="AWS", service="Amazon Elastic Compute Cloud",
                          category="Storage", region="ap-south-1", rid=f"vol-0{k:x}aa31d7e5c90f2{k % 9}",
                          rtype="Volume", sku="EBS:VolumeUsage.gp3", qty=500 / 730, unit="GB-Mo",
                          list_price=0.08)
            gb = noisy(rng, 0.9 * 12, 0.1)
            f.add(t0, t1, gb * 0.1093, provider="AWS", service="AWS Data Transfer", category="Networking",
                  region="ap-south-1", sku="DataTransfer-Out-Bytes", qty=gb, unit="GB", list_price=0.1093)
    alert = ev.date()
    return dict(files={"focus.csv": f.text()}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "catalogue", "level": "RegionId", "alert": "first day (hourly export)",
                      "levels": levels, "cost_column": "BilledCost"})


@scenario
def s16(rng):
    """novel / ResourceId: versioning on a bucket whose job overwrites objects hourly (storage ramps)."""
    bucket = "arn:aws:s3:::acme-clickstream-raw"
    TRUTH = [(bucket, "ResourceId")]
    acct = "298431177640"
    start, n = D(2025, 3, 17), 110
    ev = start + ONE * 100
    alert = ev + ONE * 4
    f = Focus(acct, "acme-data-uk", cur="GBP")
    fx = 0.79
    buckets = {bucket: 52000.0, "arn:aws:s3:::acme-clickstream-curated": 21000.0,
               "arn:aws:s3:::acme-ml-features": 8800.0, "arn:aws:s3:::acme-backups-eu": 61000.0}
    for d in days(start, n + 1):
        s, e = d, d + ONE
        for b, gb0 in buckets.items():
            gb = gb0 * (1 + 0.0015 * (d - start).days)
            if b == bucket and d >= ev:
                k = (d - ev).days + 1
                gb += 16000.0 * k              # ~16 TB of noncurrent versions a day
            p = 0.023 if "backups" not in b else 0.0125
            mo = gb / 30.0
            f.add(s, e, mo * p * fx, provider="AWS", service="Amazon Simple Storage Service",
                  category="Storage", region="eu-west-2", rid=b, rtype="Bucket",
                  sku="TimedStorage-ByteHrs" if "backups" not in b else "TimedStorage-SIA-ByteHrs",
                  qty=mo, unit="GB-Mo", list_price=p * fx)
            puts = noisy(rng, 0.9 if b == bucket else 0.2, 0.06)
            f.add(s, e, puts * 5.0 * fx, provider="AWS", service="Amazon Simple Storage Service",
                  category="Storage", region="eu-west-2", rid=b, rtype="Bucket", sku="Requests-Tier1",
                  qty=puts * 1e6, unit="Requests", list_price=0.000005 * fx)
        for svc, cat, rid, base, cv in [
                ("Amazon EMR", "Analytics", f"arn:aws:elasticmapreduce:eu-west-2:{acct}:cluster/j-2KQ8X1", 140.0, 0.08),
                ("Amazon Elastic Compute Cloud", "Compute", f"arn:aws:ec2:eu-west-2:{acct}:instance/i-07d1c2", 210.0, 0.02),
                ("Amazon Athena", "Analytics", "", 35.0, 0.25),
                ("AWS Glue", "Analytics", f"arn:aws:glue:eu-west-2:{acct}:job/clickstream-compact", 48.0, 0.1)]:
            c = noisy(rng, base * WK_BIZ[d.weekday()], cv)
            f.add(s, e, c * fx, provider="AWS", service=svc, category=cat, region="eu-west-2", rid=rid)
        if d.day == 1:
            f.add(s, period(d)[1], 0.0, provider="AWS", service="Tax", category="Other", charge="Tax",
                  freq="Recurring", desc="VAT (reverse charge)")
    return dict(files={"focus.csv": f.text()}, alert=alert, acct=acct, truth=TRUTH,
                meta={"half": "novel", "level": "ResourceId", "alert": "+4 days (ramp)",
                      "levels": FOCUS_LEVELS, "cost_column": "BilledCost"})


@scenario
def s17(rng):
    """novel / Instance_Family: RDS Extended Support for MySQL 5.7 starts billing on 1 March 2024."""
    TRUTH = [("db.r5.2xlarge", "Instance_Family")]
    acct = "512209984477"
    start, n = D(2023, 11, 2), 125
    ev = D(2024, 3, 1)
    b = Lite(acct)
    lines = [
        ("RDS", "legacy-billing", "db.r5.2xlarge", 1.000, 2),
        ("RDS", "cms", "db.r5.2xlarge", 1.000, 1),
        ("RDS", "orders", "db.r6g.2xlarge", 0.899, 2),
        ("RDS", "cms", "db.t4g.large", 0.129, 1),
        ("EC2", "orders", "m6i.2xlarge", 0.384, None),
        ("EC2", "cms", "t3.xlarge", 0.1664, 4),
        ("EC2", "legacy-billing", "m5.xlarge", 0.192, 3),
    ]
    for d in days(start, n + 3):
        for svc, app, fam, price, base in lines:
            num = base if base is not None else icount(rng, 9 * WK_BIZ[d.weekday()], 0.05)
            pr = price
            if fam == "db.r5.2xlarge" and d >= ev:
                pr = price + 8 * 0.100        # $0.100 per vCPU-hour, 8 vCPU
            b.add(d, "AWS", svc, app, fam, pr, max(num, 1))
        if d.day == 1:
            fee = round(1180.0 * (1 + 0.01 * ((d.month + 3) % 5)), 2)
            b.add(d, "AWS", "Support", "shared", "business-support", fee, 1, per_unit=True, pdec=2)
    return dict(files={"data.csv": b.text()}, alert=ev, acct=acct, truth=TRUTH,
                meta={"half": "novel", "level": "Instance_Family", "alert": "first day (1st of month)"})


# ----------------------------------------------------------------------------- quiet bills --

@scenario
def q1(rng):
    """catalogue / none: month-end close batch (Dataproc) on every month's last day."""
    acct = "640018827753"
    start, n = D(2025, 1, 1), 181
    alert = D(2025, 6, 30)
    b = Lite(acct)
    for d in days(start, n + 2):
        for svc, app, fam, price, base, cv, prof in [
                ("Compute Engine", "web", "n2-standard-4", 0.1942, 10, 0.04, WK_SHOP),
                ("Compute Engine", "erp", "n2-standard-8", 0.3885, 6, 0.0, WK_FLAT),
                ("Cloud SQL", "erp", "db-custom-16-65536", 1.2448, 1, 0.0, WK_FLAT),
                ("Dataproc", "finance-close", "n2-highmem-16", 1.0484, 2, 0.0, WK_FLAT),
                ("BigQuery", "finance-close", "slot-hours", 0.048 / 1.0, 100, 0.08, WK_BIZ)]:
            num = icount(rng, base * prof[d.weekday()], cv) if cv else base
            if app == "finance-close" and is_month_end(d):
                num = int(round(num * (7.0 if fam.startswith("n2") else 3.2) * (1 + rng.gauss(0, 0.04))))
            b.add(d, "GCP", svc, app, fam, price, max(num, 1))
    return dict(files={"data.csv": b.text()}, alert=alert, acct=acct, truth=[],
                meta={"half": "catalogue", "level": "none", "alert": "month end (30 June, a Monday)"})


@scenario
def q2(rng):
    """catalogue / none: dev/test VMs on an auto-shutdown schedule, hourly EUR export, alert Monday."""
    acct = "74021983"
    start = dt.datetime(2025, 9, 1)
    nh = 63 * 24
    alert = D(2025, 10, 27)           # Monday after the DST change; export runs to 2 November
    f = Focus(acct, "Contoso EA", cur="EUR",
              extra=["x_ResourceGroupName"])
    levels = ["BillingAccountId", "SubAccountId", "ServiceName", "ResourceId"]
    vms = [(f"/subscriptions/5a1c/resourceGroups/rg-devtest/providers/Microsoft.Compute/virtualMachines/dev-{k:02d}",
            "D8s v5", 0.416) for k in range(14)]
    for h in range(nh):
        t0 = start + HOUR * h
        t1 = t0 + HOUR
        bizday = t0.weekday() < 5
        local = (t0.hour + (2 if t0 < dt.datetime(2025, 10, 26, 1) else 1)) % 24   # CEST/CET
        on = bizday and 7 <= local < 19
        for rid, sku, p in vms:
            if on:
                f.add(t0, t1, p, provider="Microsoft", service="Virtual Machines", category="Compute",
                      region="westeurope", rid=rid, rtype="Microsoft.Compute/virtualMachines", sku=sku,
                      qty=1.0, unit="1 Hour", list_price=p, sub="5a1c-devtest", subname="Dev/Test",
                      extra={"x_ResourceGroupName": "rg-devtest"})
        for rid, sku, p, sub in [
                ("/subscriptions/9f02/resourceGroups/rg-prod/providers/Microsoft.Sql/servers/prod/databases/app",
                 "vCore GP Gen5 8", 1.628, "9f02-prod"),
                ("/subscriptions/9f02/resourceGroups/rg-prod/providers/Microsoft.ContainerService/managedClusters/aks-prod",
                 "D4s v5 node", 0.208 * 6, "9f02-prod")]:
            f.add(t0, t1, p, provider="Microsoft", service="SQL Database" if "Sql" in rid else "Azure Kubernetes Service",
                  category="Databases" if "Sql" in rid else "Compute", region="westeurope", rid=rid, sku=sku,
                  qty=1.0, unit="1 Hour", list_price=p, sub=sub, subname="Production",
                  extra={"x_ResourceGroupName": "rg-prod"})
        if t0.hour == 0:
            f.add(t0, t0 + ONE, 14.2 * (1 + 0.02 * rng.random()), provider="Microsoft", service="Storage",
                  category="Storage", region="westeurope",
                  rid="/subscriptions/5a1c/resourceGroups/rg-devtest/providers/Microsoft.Storage/storageAccounts/devartifacts",
                  sku="Hot LRS Data Stored", qty=13600.0, unit="1 GB/Month", sub="5a1c-devtest",
                  subname="Dev/Test", extra={"x_ResourceGroupName": "rg-devtest"})
    return dict(files={"focus.csv": f.text()}, alert=alert, acct=acct, truth=[],
                meta={"half": "catalogue", "level": "none",
                      "alert": "Monday after a weekend (and after the DST change)",
                      "levels": levels, "cost_column": "BilledCost"})


@scenario
def q3(rng):
    """novel / none: quarter-end close, 400 days; month ends x1.6, quarter ends x6 on the EMR fleet."""
    acct = "0048127733019"
    start, n = D(2024, 8, 27), 400
    alert = D(2025, 9, 30)
    b = Lite(acct)
    for d in days(start, n + 3):
        for svc, app, fam, price, base, cv, prof in [
                ("EC2", "portal", "m6i.large", 0.096, 16, 0.05, WK_BIZ),
                ("EC2", "ledger", "r6i.xlarge", 0.252, 6, 0.0, WK_FLAT),
                ("EMR", "ledger", "emr-r6i.4xlarge", 1.008 + 0.252, 3, 0.0, WK_FLAT),
                ("Redshift", "ledger", "ra3.4xlarge", 3.26, 2, 0.0, WK_FLAT),
                ("S3", "ledger", "s3-standard-tb", 0.0319, 60, 0.0, WK_FLAT)]:
            num = icount(rng, base * prof[d.weekday()], cv) if cv else base
            if fam.startswith("emr"):
                if is_quarter_end(d):
                    num = int(round(base * 6 * (1 + rng.gauss(0, 0.04))))
                elif is_month_end(d):
                    num = int(round(base * 1.6 + rng.choice([0, 1])))
            if fam == "s3-standard-tb":
                num = base + (d - start).days // 20
            b.add(d, "AWS", svc, app, fam, price, max(num, 1))
    return dict(files={"data.csv": b.text()}, alert=alert, acct=acct, truth=[],
                meta={"half": "novel", "level": "none", "alert": "quarter end (30 September)"})


@scenario
def q4(rng):
    """novel / none: annual Marketplace subscription renews on its anniversary (+3.8% uplift)."""
    acct = "731906224518"
    start, n = D(2024, 3, 11), 405
    alert = D(2025, 4, 15)
    f = Focus(acct, "netsec-prod")
    for d in days(start, n):
        s, e = d, d + ONE
        for svc, cat, rid, base, cv in [
                ("Amazon Elastic Compute Cloud", "Compute", f"arn:aws:ec2:us-east-1:{acct}:instance/i-0fw01", 140.0, 0.0),
                ("Amazon Elastic Compute Cloud", "Compute", f"arn:aws:autoscaling:us-east-1:{acct}:autoScalingGroup:app", 420.0, 0.05),
                ("Amazon Relational Database Service", "Databases", f"arn:aws:rds:us-east-1:{acct}:db:app", 230.4, 0.0),
                ("AWS Data Transfer", "Networking", "", 60.0, 0.08)]:
            c = noisy(rng, base * (WK_BIZ[d.weekday()] if cv else 1.0), cv) if cv else base
            f.add(s, e, c, provider="AWS", service=svc, category=cat, region="us-east-1", rid=rid)
        # FortiGate hourly software charge (marketplace, usage-based) on the firewall pair
        f.add(s, e, 2 * 24 * 0.41, provider="AWS", service="FortiGate Next-Generation Firewall (PAYG)",
              category="Security", region="us-east-1", rid=f"arn:aws:ec2:us-east-1:{acct}:instance/i-0fw01",
              publisher="Fortinet Inc.", sku="fgt-payg-c6i", qty=48.0, unit="Hours", list_price=0.41)
        if d in (D(2024, 4, 15), D(2025, 4, 15)):
            amt = 18400.00 if d.year == 2024 else 19099.20
            f.add(s, D(d.year + 1, 4, 15), amt, provider="AWS",
                  service="Datadog Pro (Annual, 120 hosts)", category="Management and Governance",
                  charge="Purchase", freq="One-Time", publisher="Datadog, Inc.",
                  desc="AWS Marketplace annual subscription", rid="prod-datadog-annual-contract")
        if d.day == 1:
            f.add(s, period(d)[1], 850.0 if d < D(2025, 1, 1) else 880.0, provider="AWS",
                  service="Okta Workforce Identity (Monthly)", category="Security", charge="Purchase",
                  freq="Recurring", publisher="Okta, Inc.", desc="AWS Marketplace monthly subscription")
            f.add(s, period(d)[1], 0.0, provider="AWS", service="Tax", category="Other", charge="Tax",
                  freq="Recurring", desc="US sales tax (exempt)")
    return dict(files={"focus.csv": f.text()}, alert=alert, acct=acct, truth=[],
                meta={"half": "novel", "level": "none", "alert": "annual renewal day",
                      "levels": FOCUS_LEVELS, "cost_column": "BilledCost"})


@scenario
def q5(rng):
    """novel / none: an SLA refund lands the day before an ordinary Tuesday (rows shuffled)."""
    acct = "902114557731"
    start, n = D(2025, 4, 1), 66
    alert = D(2025, 6, 3)              # Tuesday
    b = Lite(acct)
    for d in days(start, n):
        for svc, app, fam, price, base, cv, prof in [
                ("EC2", "media-encode", "c6i.4xlarge", 0.68, 10, 0.06, WK_BIZ),
                ("EC2", "media-api", "m6i.xlarge", 0.192, 8, 0.04, WK_SHOP),
                ("MediaConvert", "media-encode", "mc-hd-minutes", 0.0075, 54000, 0.08, WK_BIZ),
                ("CloudFront", "media-api", "cf-egress-gb", 0.085, 3200, 0.06, WK_SHOP),
                ("S3", "media-encode", "s3-standard-tb", 0.0319, 80, 0.0, WK_FLAT)]:
            num = icount(rng, base * prof[d.weekday()], cv) if cv else base
            b.add(d, "AWS", svc, app, fam, price, max(num, 1), per_unit=fam.endswith(("minutes", "gb")))
        if d == alert - ONE:
            b.add(d, "AWS", "EC2", "media-encode", "sla-credit-refund", -2150.0, 1, per_unit=True, pdec=2)
        if d == D(2025, 5, 9):
            b.add(d, "AWS", "CloudFront", "media-api", "sla-credit-refund", -640.0, 1, per_unit=True, pdec=2)
        if d.day == 1:
            b.add(d, "AWS", "Tax", "shared", "vat", 0.0, 1, cost=0.0)
    return dict(files={"data.csv": b.text(rng, shuffle=True)}, alert=alert, acct=acct, truth=[],
                meta={"half": "novel", "level": "none",
                      "alert": "ordinary Tuesday after a refund day"})


@scenario
def q6(rng):
    """novel / none: planned move of self-managed Kafka (EC2 brokers) to MSK at similar cost (EUR)."""
    acct = "117455093622"
    start, n = D(2025, 8, 18), 90
    cut = D(2025, 11, 12)
    alert = cut
    f = Focus(acct, "telemetry-eu", cur="EUR")
    fx = 0.92
    for d in days(start, n):
        s, e = d, d + ONE
        wkf = WK_BIZ[d.weekday()]
        # EC2 Kafka brokers: 6 x m5.2xlarge + gp3 volumes; stopped at 13:00 on the cutover day
        ec2_h = 24.0 if d < cut else (13.0 if d == cut else 0.0)
        msk_h = 0.0 if d < cut else (13.0 if d == cut else 24.0)   # MSK up from 11:00
        if d == cut:
            msk_h = 13.0
        for k in range(6):
            if ec2_h:
                f.add(s, e, 0.444 * ec2_h * fx, provider="AWS", service="Amazon Elastic Compute Cloud",
                      category="Compute", region="eu-central-1", rid=f"i-0kafka{k}b71e2c9",
                      rtype="Instance", sku="m5.2xlarge", qty=ec2_h, unit="Hours", list_price=0.444 * fx)
                f.add(s, e, 2000 * 0.0952 / 30.4 * ec2_h / 24 * fx, provider="AWS",
                      service="Amazon Elastic Compute Cloud", category="Storage", region="eu-central-1",
                      rid=f"vol-0kafka{k}d2f", rtype="Volume", sku="EBS:VolumeUsage.gp3",
                      qty=2000 / 30.4 * ec2_h / 24, unit="GB-Mo", list_price=0.0952 * fx)
            if msk_h:
                f.add(s, e, 0.456 * msk_h * fx, provider="AWS", service="Amazon Managed Streaming for Apache Kafka",
                      category="Integration", region="eu-central-1",
                      rid=f"arn:aws:kafka:eu-central-1:{acct}:cluster/telemetry/broker-{k + 1}",
                      rtype="Broker", sku="kafka.m5.xlarge", qty=msk_h, unit="Hours", list_price=0.456 * fx)
                f.add(s, e, 1600 * 0.119 / 30.4 * msk_h / 24 * fx, provider="AWS",
                      service="Amazon Managed Streaming for Apache Kafka", category="Integration",
                      region="eu-central-1", rid=f"arn:aws:kafka:eu-central-1:{acct}:cluster/telemetry/broker-{k + 1}",
                      rtype="Broker", sku="Kafka.Storage.GP2", qty=1600 / 30.4 * msk_h / 24, unit="GB-Mo",
                      list_price=0.119 * fx)
        for svc, cat, rid, base, cv in [
                ("Amazon Elastic Compute Cloud", "Compute", f"arn:aws:autoscaling:eu-central-1:{acct}:autoScalingGroup:ingest", 180.0, 0.05),
                ("Amazon Elastic Kubernetes Service", "Compute", f"arn:aws:eks:eu-central-1:{acct}:cluster/telemetry", 2.4, 0.0),
                ("Amazon Simple Storage Service", "Storage", "arn:aws:s3:::telemetry-archive", 66.0, 0.01),
                ("Amazon OpenSearch Service", "Analytics", f"arn:aws:es:eu-central-1:{acct}:domain/telemetry", 95.0, 0.0)]:
            c = noisy(rng, base * (wkf if cv > 0.02 else 1.0), cv) if cv else base
            f.add(s, e, c * fx, provider="AWS", service=svc, category=cat, region="eu-central-1", rid=rid)
        if d.day == 1:
            f.add(s, period(d)[1], 0.0, provider="AWS", service="Tax", category="Other", charge="Tax",
                  freq="Recurring", desc="VAT (reverse charge, DE)")
    return dict(files={"focus.csv": f.text()}, alert=alert, acct=acct, truth=[],
                meta={"half": "novel", "level": "none", "alert": "cutover day of a planned migration",
                      "levels": FOCUS_LEVELS, "cost_column": "BilledCost"})


ORDER = [s01, q1, s09, s02, s14, q4, s03, s11, s06, q2, s16, s08, s12, q5, s05, s17, s13,
         q3, s10, s07, q6, s15, s04]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 gen.py OUT")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    assert sorted(f.__name__ for f in ORDER) == sorted(f.__name__ for f in SCEN)
    index = []
    for idx, fn in enumerate(ORDER, 1):
        seed = 22000 + sum(ord(c) for c in fn.__name__) * 31
        res = fn(random.Random(seed))
        write(out, idx, **res)
        index.append((idx, fn.__name__, res["meta"]["half"], res["truth"]))
    for idx, name, half, truth in index:
        print(f"Scenario-{idx:<3} {name:4} {half:9} {truth or 'none'}")


if __name__ == "__main__":
    main()
