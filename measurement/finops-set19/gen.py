#!/usr/bin/env python3
"""finops-set19: held-out FinOps billing scenarios (stdlib only, deterministic).

usage: python gen.py OUT     -> writes OUT/Scenario-<N>/{anomaly.json, data.csv|focus.csv,
                                ground_truth.yaml, scenario.json}
"""
import csv
import datetime as dt
import io
import json
import math
import os
import random
import sys

# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------

FOCUS_COLS = [
    "AvailabilityZone", "BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency",
    "BillingPeriodEnd", "BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription",
    "ChargeFrequency", "ChargePeriodEnd", "ChargePeriodStart", "CommitmentDiscountCategory",
    "CommitmentDiscountId", "CommitmentDiscountName", "CommitmentDiscountStatus",
    "CommitmentDiscountType", "ConsumedQuantity", "ConsumedUnit", "ContractedCost",
    "ContractedUnitPrice", "EffectiveCost", "InvoiceIssuerName", "ListCost", "ListUnitPrice",
    "PricingCategory", "PricingQuantity", "PricingUnit", "ProviderName", "PublisherName",
    "RegionId", "RegionName", "ResourceId", "ResourceName", "ResourceType", "ServiceCategory",
    "Id", "ServiceName", "SkuId", "SkuPriceId", "SubAccountId", "SubAccountName", "Tags",
]

DATA_COLS = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
             "Price ($/hr)", "Num_Instances", "unblended_cost"]

REGION_NAMES = {
    "us-east-1": "US East (N. Virginia)", "us-east-2": "US East (Ohio)",
    "us-west-2": "US West (Oregon)", "eu-west-1": "EU (Ireland)",
    "eu-central-1": "EU (Frankfurt)", "ap-northeast-1": "Asia Pacific (Tokyo)",
    "ap-southeast-2": "Asia Pacific (Sydney)", "eu-west-2": "EU (London)",
    "westeurope": "West Europe", "northeurope": "North Europe", "eastus2": "East US 2",
    "uksouth": "UK South", "europe-west2": "London", "europe-west4": "Netherlands",
    "us-central1": "Iowa", "eu-frankfurt-1": "Germany Central (Frankfurt)",
    "us-ashburn-1": "US East (Ashburn)", "global": "Global",
    "eu-amsterdam-1": "Netherlands Northwest (Amsterdam)", "eu-north-1": "EU (Stockholm)",
    "norwayeast": "Norway East",
}

PROVIDERS = {
    "AWS": ("AWS", "Amazon Web Services, Inc.", "Amazon Web Services, Inc."),
    "Microsoft": ("Microsoft", "Microsoft", "Microsoft"),
    "Google Cloud": ("Google Cloud", "Google", "Google"),
    "Oracle": ("Oracle", "Oracle", "Oracle"),
}


def D(s):
    return dt.date.fromisoformat(s)


def drange(start, n):
    s = D(start) if isinstance(start, str) else start
    return [s + dt.timedelta(days=i) for i in range(n)]


def month_start(d):
    return d.replace(day=1)


def next_month(d):
    return (d.replace(day=28) + dt.timedelta(days=4)).replace(day=1)


def days_in_month(d):
    return (next_month(d) - month_start(d)).days


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def sku(rng):
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(16))


def fmt(x, nd=10):
    s = ("%." + str(nd) + "f") % x
    if s.startswith("-0.") and float(s) == 0:
        s = s[1:]
    return s


def ts(d, hour=0):
    if isinstance(d, dt.datetime):
        return d.strftime("%Y-%m-%d %H:%M:%S")
    return "%s %02d:00:00" % (d.isoformat(), hour)


class Focus:
    """Accumulates FOCUS rows."""

    def __init__(self, account_id, account_name, currency="USD", null="NULL", extra_cols=(),
                 id_start=100000, id_step=7):
        self.account_id = account_id
        self.account_name = account_name
        self.currency = currency
        self.null = null
        self.extra = list(extra_cols)
        self.rows = []
        self.next_id = id_start
        self.id_step = id_step

    def add(self, start, end, *, provider, service, category, region, qty, unit, price,
            desc, resource="", rname="", rtype="", sub=("", ""), az="", tags=None,
            charge="Usage", freq="Usage-Based", list_price=None, billed=None, effective=None,
            pricing_cat="Standard", commit=None, sku_id="", extra=None, issuer=None,
            publisher=None):
        n = self.null
        pname, pub, iss = PROVIDERS[provider]
        if issuer:
            iss = issuer
        if publisher:
            pub = publisher
        cost = qty * price if billed is None else billed
        lp = price if list_price is None else list_price
        eff = cost if effective is None else effective
        bp = month_start(start.date() if isinstance(start, dt.datetime) else start)
        r = {
            "AvailabilityZone": az or n,
            "BilledCost": fmt(cost),
            "BillingAccountId": self.account_id,
            "BillingAccountName": self.account_name,
            "BillingCurrency": self.currency,
            "BillingPeriodEnd": ts(next_month(bp)),
            "BillingPeriodStart": ts(bp),
            "ChargeCategory": charge,
            "ChargeClass": n,
            "ChargeDescription": desc,
            "ChargeFrequency": freq,
            "ChargePeriodEnd": ts(end),
            "ChargePeriodStart": ts(start),
            "CommitmentDiscountCategory": n,
            "CommitmentDiscountId": n,
            "CommitmentDiscountName": n,
            "CommitmentDiscountStatus": n,
            "CommitmentDiscountType": n,
            "ConsumedQuantity": fmt(qty, 9) if charge == "Usage" else n,
            "ConsumedUnit": unit if charge == "Usage" else n,
            "ContractedCost": fmt(cost),
            "ContractedUnitPrice": fmt(price, 8),
            "EffectiveCost": fmt(eff),
            "InvoiceIssuerName": iss,
            "ListCost": fmt(qty * lp if charge == "Usage" else cost),
            "ListUnitPrice": ("%g" % lp) if charge == "Usage" else n,
            "PricingCategory": pricing_cat if charge == "Usage" else n,
            "PricingQuantity": fmt(qty, 8) if charge in ("Usage", "Purchase") else n,
            "PricingUnit": unit if charge in ("Usage", "Purchase") else n,
            "ProviderName": pname,
            "PublisherName": pub,
            "RegionId": region or n,
            "RegionName": REGION_NAMES.get(region, region) if region else n,
            "ResourceId": resource or n,
            "ResourceName": rname or n,
            "ResourceType": rtype or n,
            "ServiceCategory": category,
            "Id": str(self.next_id),
            "ServiceName": service,
            "SkuId": sku_id or n,
            "SkuPriceId": (sku_id + ".JRTCKXETXF.6YS6EN2CT7") if sku_id else n,
            "SubAccountId": sub[0] or n,
            "SubAccountName": sub[1] or n,
            "Tags": json.dumps(tags) if tags else n,
        }
        if commit:
            r.update(commit)
        for c in self.extra:
            r[c] = (extra or {}).get(c, "")
        self.next_id += self.id_step
        self.rows.append(r)

    def text(self, rng=None, shuffle=False):
        rows = list(self.rows)
        if shuffle and rng is not None:
            rng.shuffle(rows)
        else:
            rows.sort(key=lambda r: (r["ChargePeriodStart"], r["Id"]))
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=FOCUS_COLS + self.extra, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)
        return buf.getvalue()


def data_csv(rows, acct_fmt=str, price_nd=4, cost_nd=4, shuffle_rng=None):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(DATA_COLS)
    rows = list(rows)
    if shuffle_rng is not None:
        shuffle_rng.shuffle(rows)
    for (d, acct, csp, svc, app, fam, price, n, cost) in rows:
        w.writerow([d.isoformat(), acct_fmt(acct), csp, svc, app, fam,
                    ("%." + str(price_nd) + "f") % price, n,
                    ("%." + str(cost_nd) + "f") % cost])
    return buf.getvalue()


def gt_yaml(truth):
    if not truth:
        return "resource: []\n"
    out = ["resource:"]
    for name, typ in truth:
        out.append("- name: %s\n  type: %s" % (json.dumps(name), typ))
    return "\n".join(out) + "\n"


def weekly(d, wk):
    """wk: tuple of 7 multipliers Mon..Sun"""
    return wk[d.weekday()]


FLAT = (1, 1, 1, 1, 1, 1, 1)
OFFICE = (1.0, 1.02, 1.03, 1.02, 0.97, 0.62, 0.58)
SOFT = (1.0, 1.01, 1.01, 1.0, 0.98, 0.9, 0.88)
CONSUMER = (0.95, 0.94, 0.95, 0.97, 1.03, 1.08, 1.07)


def daily_lines(rng, days, acct, lines, event=None):
    """lines: list of dict(csp, svc, app, fam, price, n, wk, noise, trend, start, end)
    event(line, i, d) -> (price_mult, n_mult, hours) or None"""
    rows = []
    for i, d in enumerate(days):
        for ln in lines:
            if ln.get("start") and d < ln["start"]:
                continue
            if ln.get("end") and d > ln["end"]:
                continue
            price = ln["price"]
            base = ln["n"] * weekly(d, ln.get("wk", FLAT)) * (1 + ln.get("trend", 0) * i)
            if "f" in ln:
                base *= ln["f"](i, d)
            base *= 1 + rng.gauss(0, ln.get("noise", 0.03))
            hours = 24.0
            if event:
                ev = event(ln, i, d)
                if ev:
                    pm, nm, hr = ev
                    price *= pm
                    base *= nm
                    if hr is not None:
                        hours = hr
            n = max(0, int(round(base)))
            if ln.get("min") is not None:
                n = max(n, ln["min"])
            util = ln.get("util", 1.0)
            if ln.get("util_noise"):
                util = min(1.0, max(0.05, util + rng.gauss(0, ln["util_noise"])))
            cost = round(price, 4) * n * hours * util
            rows.append((d, acct, ln["csp"], ln["svc"], ln["app"], ln["fam"], round(price, 4),
                         n, cost))
    return rows


# --------------------------------------------------------------------------------------------
# scenarios: each returns dict(files, anomaly, truth, levels, meta)
# --------------------------------------------------------------------------------------------

def s_azure_ea_price():
    """A1 provider (data.csv): Azure list prices up 14% on the 1st (EA price-sheet renewal)."""
    rng = random.Random(1901)
    acct = "460118273305"
    days = drange("2025-10-06", 187)          # to 2026-04-10
    change = D("2026-04-01")
    L = []
    def add(csp, svc, app, fam, price, n, **kw):
        L.append(dict(csp=csp, svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    add("AWS", "EC2", "storefront", "m6i.xlarge", 0.192, 22, wk=CONSUMER)
    add("AWS", "EC2", "storefront", "c6i.2xlarge", 0.34, 9, wk=CONSUMER)
    add("AWS", "EC2", "search", "r6i.xlarge", 0.252, 12, wk=SOFT)
    add("AWS", "RDS", "storefront", "db.r6g.2xlarge", 0.821, 3, noise=0)
    add("AWS", "RDS", "orders", "db.r6g.xlarge", 0.41, 4, noise=0)
    add("AWS", "EMR", "ledger-close", "m5.2xlarge", 0.384, 6, noise=0.08)
    add("AWS", "ElastiCache", "storefront", "cache.r6g.large", 0.206, 6, noise=0)
    add("Azure", "Virtual Machines", "erp-gateway", "D8s_v5", 0.384, 10, wk=OFFICE)
    add("Azure", "Virtual Machines", "hr-portal", "D4s_v5", 0.192, 8, wk=OFFICE)
    add("Azure", "AKS", "orders", "D4s_v5", 0.192, 26, wk=SOFT)
    add("Azure", "AKS", "notifications", "F8s_v2", 0.338, 7, wk=SOFT)
    add("Azure", "Azure SQL Database", "erp-gateway", "GP_Gen5_8", 1.0088, 2, noise=0)
    add("Azure", "Azure SQL Database", "orders", "BC_Gen5_4", 1.3444, 2, noise=0)
    add("Azure", "Azure Cache for Redis", "orders", "P2", 0.555, 2, noise=0)
    add("GCP", "Compute Engine", "ml-scoring", "n2-standard-8", 0.3885, 6, wk=SOFT)
    add("GCP", "BigQuery", "analytics", "slots-100", 4.0, 1, noise=0)
    add("GCP", "GKE", "ml-scoring", "e2-standard-4", 0.134, 14, wk=SOFT)

    def ev(ln, i, d):
        # month-end close: ledger-close EMR triples on the last two days of every month
        nm = 1.0
        if ln["app"] == "ledger-close" and (d + dt.timedelta(days=2)).month != d.month:
            nm = 3.2
        pm = 1.22 if (ln["csp"] == "Azure" and d >= change) else 1.0
        return (pm, nm, None)
    rows = daily_lines(rng, days, acct, L, ev)
    return dict(
        files={"data.csv": data_csv(rows)},
        anomaly={"date": "2026-04-01", "account_id": acct},
        truth=[("Azure", "CSP")],
        meta=dict(level="provider", half="catalogue", fmt="data.csv daily, 187 days", lag=0,
                  title="Azure enterprise agreement renewed without its negotiated discount: every Azure meter +22% on the 1st",
                  hard="the step lands on the 1st, right after AWS's month-end EMR batch (which "
                       "triples on the last two days of every month); Num_Instances unchanged, only "
                       "Price ($/hr) moves, on every Azure service and application at once"))


def s_oracle_credits():
    """A2 provider (FOCUS, reseller invoice): OCI Universal Credits exhausted -> PAYG list."""
    rng = random.Random(1902)
    acct = "CP-7741-0093"
    f = Focus(acct, "Halvorsen Logistics AS (via Nordkyst Cloud Partner)", currency="USD",
              null="")
    days = drange("2026-01-05", 112)          # to 2026-04-26
    exhaust = D("2026-04-14")
    alert = "2026-04-17"
    issuer = "Nordkyst Cloud Partner AS"
    subs = {"AWS": ("118844221190", "halvorsen-prod"), "Microsoft": ("5c1e2f10-77aa-4b7e-9b4a-13c0e5d2aa01", "HLV-Corp-EA"),
            "Oracle": ("ocid1.compartment.oc1..aaaaaaaawmsprod3k", "wms-prod")}
    oci_shared = ("ocid1.compartment.oc1..aaaaaaaashared9x", "shared-services")
    series = []
    def S(provider, service, category, region, resource, rname, rtype, unit, price, qty, wk=FLAT,
          noise=0.03, desc="", committed=None, sub=None):
        series.append(dict(provider=provider, service=service, category=category, region=region,
                           resource=resource, rname=rname, rtype=rtype, unit=unit, price=price,
                           qty=qty, wk=wk, noise=noise, desc=desc, sku=sku(rng),
                           committed=committed, sub=sub or subs[provider]))
    S("AWS", "Amazon Elastic Compute Cloud", "Compute", "eu-north-1", "i-0a41c2" + hexid(rng, 11),
      "tms-app-1", "Instance", "Hrs", 0.1824, 24 * 6, SOFT, desc="$0.1824 per On Demand Linux m6i.xlarge Instance Hour")
    S("AWS", "Amazon Relational Database Service", "Databases", "eu-north-1",
      "arn:aws:rds:eu-north-1:118844221190:db:tms-pg", "tms-pg", "DBInstance", "Hrs", 0.712, 24, FLAT, 0,
      desc="$0.712 per RDS db.r6g.xlarge Multi-AZ instance hour")
    S("AWS", "Amazon Simple Storage Service", "Storage", "eu-north-1",
      "halvorsen-edi-archive", "halvorsen-edi-archive", "Bucket", "GB-Mo", 0.023, 41000 / 30, FLAT, 0.005,
      desc="$0.023 per GB - first 50 TB / month of storage used")
    S("Microsoft", "Virtual Machines", "Compute", "norwayeast",
      "/subscriptions/5c1e2f10-77aa-4b7e-9b4a-13c0e5d2aa01/resourceGroups/rg-office/providers/Microsoft.Compute/virtualMachines/vm-rds-01",
      "vm-rds-01", "Virtual machine", "1 Hour", 0.416, 24 * 3, OFFICE, desc="D8s v5")
    S("Microsoft", "Azure Monitor", "Management and Governance", "norwayeast",
      "/subscriptions/5c1e2f10-77aa-4b7e-9b4a-13c0e5d2aa01/resourceGroups/rg-ops/providers/Microsoft.OperationalInsights/workspaces/law-hlv",
      "law-hlv", "Log Analytics workspace", "1 GB", 2.99, 6.5, OFFICE, desc="Analytics Logs Data Ingestion")
    # Oracle: committed (Universal Credits) prices are 0.67 x list until credits run out
    wms_app = "ocid1.instance.oc1.eu-frankfurt-1.anth" + hexid(rng, 20)
    S("Oracle", "Compute", "Compute", "eu-frankfurt-1", wms_app,
      "wms-app-01", "Instance", "OCPU Per Hour", 0.025, 24 * 16 * 3, SOFT, desc="Compute - Standard - E4 - OCPU", committed=0.67)
    S("Oracle", "Compute", "Compute", "eu-frankfurt-1", wms_app,
      "wms-app-01", "Instance", "Gigabyte Per Hour", 0.0015, 24 * 256 * 3, SOFT, desc="Compute - Standard - E4 - Memory", committed=0.67)
    S("Oracle", "Database", "Databases", "eu-frankfurt-1", "ocid1.autonomousdatabase.oc1.eu-frankfurt-1.an" + hexid(rng, 20),
      "wmsadw", "Autonomous Database", "ECPU Per Hour", 0.336, 24 * 8, FLAT, 0.01,
      desc="Oracle Autonomous Data Warehouse - ECPU", committed=0.67)
    S("Oracle", "Block Storage", "Storage", "eu-frankfurt-1", "ocid1.volume.oc1.eu-frankfurt-1.ab" + hexid(rng, 20),
      "wms-data-vol", "Block Volume", "Gigabyte Months", 0.0255, 8000 / 30, FLAT, 0.0,
      desc="Storage - Block Volume - Storage", committed=0.67)
    S("Oracle", "Object Storage", "Storage", "eu-amsterdam-1", "ocid1.bucket.oc1.eu-amsterdam-1.wms-exports",
      "wms-exports", "Bucket", "Gigabyte Months", 0.0255, 64000 / 30, FLAT, 0.004,
      desc="Object Storage - Storage", committed=0.67, sub=oci_shared)
    S("Oracle", "Compute", "Compute", "eu-amsterdam-1", "ocid1.instance.oc1.eu-amsterdam-1.anqw" + hexid(rng, 20),
      "dr-standby-01", "Instance", "OCPU Per Hour", 0.025, 24 * 16 * 2, FLAT, 0.0,
      desc="Compute - Standard - E4 - OCPU", committed=0.67, sub=oci_shared)
    S("Oracle", "Networking", "Networking", "eu-frankfurt-1", "ocid1.loadbalancer.oc1.eu-frankfurt-1.aa" + hexid(rng, 20),
      "wms-lb", "Load Balancer", "Mbps Per Hour", 0.0113, 24 * 100, FLAT, 0.0,
      desc="Load Balancer - Flexible - Bandwidth", committed=0.67)
    for i, d in enumerate(days):
        for s in series:
            q = s["qty"] * weekly(d, s["wk"]) * (1 + rng.gauss(0, s["noise"]))
            if s["provider"] == "AWS" and s["service"].endswith("Storage Service"):
                q *= 1 + 0.0015 * i
            price = s["price"]
            pc = "Standard"
            commit = None
            if s["committed"]:
                if d < exhaust:
                    price = s["price"] * s["committed"]
                    pc = "Committed"
                    commit = {"CommitmentDiscountCategory": "Spend",
                              "CommitmentDiscountId": "ocid1.commitment.oc1..aaaaaaaauc2025halv",
                              "CommitmentDiscountName": "Universal Credits 2025-2026",
                              "CommitmentDiscountStatus": "Used",
                              "CommitmentDiscountType": "Universal Credits"}
            f.add(d, d + dt.timedelta(days=1), provider=s["provider"], service=s["service"],
                  category=s["category"], region=s["region"], qty=q, unit=s["unit"], price=price,
                  list_price=s["price"], desc=s["desc"], resource=s["resource"], rname=s["rname"],
                  rtype=s["rtype"], sub=s["sub"], pricing_cat=pc, commit=commit,
                  sku_id=s["sku"], issuer=issuer)
        # monthly support fee from the partner on the 1st
        if d.day == 1:
            f.add(d, next_month(d), provider="AWS", service="AWS Support (Business)",
                  category="Management and Governance", region="", qty=1, unit="", price=0,
                  billed=310.0 + 4 * i / 30, desc="AWS Support (Business) monthly fee",
                  sub=subs["AWS"], charge="Purchase", freq="Recurring", issuer=issuer)
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[("Oracle", "ProviderName")],
        levels=["BillingAccountId", "ProviderName", "SubAccountId", "ServiceCategory",
                "ServiceName", "RegionId", "ResourceId"],
        meta=dict(level="provider", half="novel", fmt="focus.csv daily, 112 days, reseller invoice "
                  "(one billing account, three providers)", lag=3,
                  title="Oracle Universal Credits exhausted on 2026-04-14: every OCI line moves "
                        "from the committed rate (0.67 x list) to pay-as-you-go list",
                  hard="alert 3 days after the step; consumption (ConsumedQuantity) is unchanged, "
                       "only the price and PricingCategory/Commitment columns change; six OCI "
                       "resources in five OCI services, two compartments and two regions share the rise; "
                       "AWS support fee on the 1st"))


def s_gcp_onboarded():
    """A3 provider (data.csv): a new GCP organisation is added to the billing scope."""
    rng = random.Random(1903)
    acct = "207733918452"
    days = drange("2025-05-20", 160)          # to 2025-10-26
    start = D("2025-10-20")
    L = []
    def add(csp, svc, app, fam, price, n, **kw):
        L.append(dict(csp=csp, svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    add("AWS", "EC2", "fleet-tracker", "c6g.xlarge", 0.136, 30, wk=SOFT, trend=0.0008)
    add("AWS", "EC2", "fleet-tracker", "m6g.large", 0.077, 18, wk=SOFT)
    add("AWS", "EKS", "dispatch", "m6i.large", 0.096, 24, wk=OFFICE)
    add("AWS", "RDS", "dispatch", "db.m6g.xlarge", 0.318, 2, noise=0)
    add("AWS", "Kinesis", "fleet-tracker", "shard-hour", 0.015, 180, wk=SOFT)
    add("AWS", "MSK", "fleet-tracker", "kafka.m5.large", 0.21, 3, noise=0)
    add("Azure", "Virtual Machines", "back-office", "D4as_v5", 0.172, 6, wk=OFFICE)
    add("Azure", "Azure SQL Database", "back-office", "GP_S_Gen5_2", 0.5044, 1, noise=0)
    add("Azure", "App Service", "driver-portal", "P1v3", 0.225, 4, wk=SOFT, noise=0.05)
    # the newly onboarded GCP organisation (an acquired routing start-up)
    g0 = start
    add("GCP", "GKE", "route-optimizer", "n2-standard-8", 0.3885, 11, start=g0, wk=SOFT)
    add("GCP", "GKE", "route-optimizer", "n2-highmem-4", 0.262, 6, start=g0, wk=SOFT)
    add("GCP", "Compute Engine", "geo-tiles", "c2-standard-16", 0.8352, 4, start=g0, noise=0.05)
    add("GCP", "Cloud SQL", "route-optimizer", "db-custom-8-32768", 0.6664, 2, start=g0, noise=0)
    add("GCP", "Memorystore", "geo-tiles", "M3-standard", 0.091, 6, start=g0, noise=0)
    rows = daily_lines(rng, days, acct, L)
    return dict(
        files={"data.csv": data_csv(rows, cost_nd=2)},
        anomaly={"date": "2025-10-20", "account_id": acct},
        truth=[("GCP", "CSP")],
        meta=dict(level="provider", half="catalogue", fmt="data.csv daily, 160 days", lag=0,
                  title="a new account brought up: an acquired start-up's GCP organisation joins the "
                        "bill with four services and two applications",
                  hard="every GCP line is new, spread over GKE, Compute Engine, Cloud SQL and "
                       "Memorystore and two applications (none of which exists on another cloud); "
                       "AWS grows slowly all along"))


def s_cloudwatch_metrics():
    """S1 service (FOCUS): CloudWatch custom-metric cardinality explosion in every region."""
    rng = random.Random(1904)
    acct = "731902845516"
    f = Focus(acct, "Brightwater Media", null="NULL")
    days = drange("2025-11-03", 97)           # to 2026-02-07
    start = D("2026-02-02")
    subs = [("403199284417", "bw-prod"), ("552019384470", "bw-staging"), ("619230481122", "bw-data")]
    regions = ["us-east-1", "eu-west-1", "ap-northeast-1"]
    series = []
    def S(**kw):
        kw.setdefault("wk", FLAT)
        kw.setdefault("noise", 0.03)
        kw.setdefault("sku", sku(rng))
        series.append(kw)
    for sub in subs:
        for reg in regions:
            if sub[1] == "bw-data" and reg == "ap-northeast-1":
                continue
            scale = {"bw-prod": 1.0, "bw-staging": 0.35, "bw-data": 0.6}[sub[1]]
            rscale = {"us-east-1": 1.0, "eu-west-1": 0.55, "ap-northeast-1": 0.4}[reg]
            k = scale * rscale
            for j in range(2 if k > 0.3 else 1):
                S(service="Amazon Elastic Compute Cloud", category="Compute", region=reg, sub=sub,
                  resource="i-0" + hexid(rng, 16), rtype="Instance", unit="Hrs", price=0.384,
                  qty=24 * round(8 * k + 1), desc="$0.384 per On Demand Linux m6i.2xlarge Instance Hour",
                  wk=CONSUMER)
            S(service="Amazon Relational Database Service", category="Databases", region=reg, sub=sub,
              resource="arn:aws:rds:%s:%s:db:%s-pg" % (reg, sub[0], sub[1]), rtype="DBInstance",
              unit="Hrs", price=0.52, qty=24 * max(1, round(2 * k)), desc="$0.52 per RDS db.r6g.xlarge instance hour",
              noise=0)
            S(service="Amazon Simple Storage Service", category="Storage", region=reg, sub=sub,
              resource="%s-%s-assets" % (sub[1], reg), rtype="", unit="GB-Mo", price=0.023,
              qty=60000 * k / 30, desc="$0.023 per GB - first 50 TB / month of storage used",
              noise=0.004, grow=0.002)
            # CloudWatch: custom metrics carry no ResourceId, logs carry the log group
            S(service="AmazonCloudWatch", category="Management and Governance", region=reg, sub=sub,
              resource="", rtype="", unit="Metrics", price=0.30 / 30, qty=9000 * k,
              desc="$0.30 per metric-month - first 10,000 metrics - %s" % REGION_NAMES[reg],
              noise=0.01, metric=True)
            S(service="AmazonCloudWatch", category="Management and Governance", region=reg, sub=sub,
              resource="arn:aws:logs:%s:%s:log-group:/aws/eks/%s/containers" % (reg, sub[0], sub[1]),
              rtype="", unit="GB", price=0.50, qty=60 * k, desc="$0.50 per GB - data ingested",
              wk=CONSUMER, noise=0.06)
            S(service="AWS CloudTrail", category="Management and Governance", region=reg, sub=sub,
              resource="", rtype="", unit="Events", price=0.000002, qty=18e6 * k,
              desc="$2.00 per 100,000 data events recorded", noise=0.05)
            S(service="AWS Config", category="Management and Governance", region=reg, sub=sub,
              resource="", rtype="", unit="ConfigurationItemRecorded", price=0.003, qty=22000 * k,
              desc="$0.003 per Configuration Item recorded", noise=0.08)
    for i, d in enumerate(days):
        for s in series:
            q = s["qty"] * weekly(d, s["wk"]) * (1 + rng.gauss(0, s["noise"]))
            q *= 1 + s.get("grow", 0) * i
            if s.get("metric") and d >= start:
                # new pod_id dimension: each custom metric now fans out per pod
                ramp = 5.4 if d > start else 3.1
                q *= ramp
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service=s["service"],
                  category=s["category"], region=s["region"], qty=q, unit=s["unit"],
                  price=s["price"], desc=s["desc"], resource=s["resource"], rtype=s["rtype"],
                  sub=s["sub"], sku_id=s["sku"],
                  tags={"team": s["sub"][1].split("-")[1], "cost-center": "CC-%d" % (410 + len(s["sub"][1]))})
        if d.day == 1:
            f.add(d, next_month(d), provider="AWS", service="AWS Support (Enterprise On-Ramp)",
                  category="Management and Governance", region="", qty=1, unit="", price=0,
                  billed=5500.0, desc="AWS Support (Enterprise On-Ramp)", charge="Purchase",
                  freq="Recurring", sub=subs[0])
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": "2026-02-02", "account_id": acct},
        truth=[("AmazonCloudWatch", "ServiceName")],
        levels=["BillingAccountId", "SubAccountId", "ServiceCategory", "ServiceName", "RegionId",
                "ResourceId"],
        meta=dict(level="service", half="novel", fmt="focus.csv daily, 97 days, 3 sub-accounts x 3 regions",
                  lag=0,
                  title="CloudWatch custom-metric cardinality explosion: an SDK upgrade adds a pod_id "
                        "dimension in every account and region; metric lines have no ResourceId",
                  hard="the rise sits on eight CloudWatch lines without a ResourceId, spread over three "
                       "sub-accounts and three regions; CloudWatch Logs (same service) stays flat; "
                       "ServiceCategory also holds CloudTrail and Config; a large Enterprise "
                       "On-Ramp support fee lands on the 1st of each month (Feb 1st, the day before)"))


def s_aks_autoscaler():
    """S2 service (data.csv): AKS node-pool minimum raised by a shared Terraform module."""
    rng = random.Random(1905)
    acct = "8f3e2a71-0c4d-4c38-a1d2-5e7b9c0f1a22"
    days = drange("2025-12-15", 103)          # to 2026-03-27
    start = D("2026-03-19")
    alert = "2026-03-23"
    L = []
    def add(svc, app, fam, price, n, **kw):
        L.append(dict(csp="Azure", svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    add("AKS", "checkout-api", "D4s_v5", 0.192, 14, wk=CONSUMER, min=6)
    add("AKS", "catalog", "D4s_v5", 0.192, 10, wk=CONSUMER, min=4)
    add("AKS", "catalog", "E4s_v5", 0.252, 6, wk=CONSUMER, min=3)
    add("AKS", "search", "E8s_v5", 0.504, 7, wk=SOFT, min=3)
    add("AKS", "notifications", "D2s_v5", 0.096, 8, wk=SOFT, min=3)
    add("Virtual Machines", "legacy-pos", "D4s_v5", 0.192, 12, wk=OFFICE)
    add("Virtual Machines", "reporting", "E16s_v5", 1.008, 2, noise=0)
    add("Azure Database for PostgreSQL", "checkout-api", "GP_Standard_D4ds_v5", 0.351, 2, noise=0)
    add("Azure Database for PostgreSQL", "catalog", "GP_Standard_D2ds_v5", 0.1755, 2, noise=0)
    add("Azure Cache for Redis", "checkout-api", "C3", 0.45, 2, noise=0)
    add("Azure Cosmos DB", "notifications", "autoscale-100RU", 0.012, 40, noise=0.05)

    def ev(ln, i, d):
        if ln["svc"] != "AKS" or d < start:
            return None
        k = (d - start).days
        # the module sets min_count = 2x old max; the cluster autoscaler fills it over 3 days
        m = [1.35, 1.7, 2.0][min(k, 2)]
        return (1.0, m, None)
    rows = daily_lines(rng, days, acct, L, ev)
    return dict(
        files={"data.csv": data_csv(rows)},
        anomaly={"date": alert, "account_id": acct},
        truth=[("AKS", "Cloud_Service")],
        meta=dict(level="service", half="catalogue", fmt="data.csv daily, 103 days, Azure only", lag=4,
                  title="autoscaling gone wrong: a shared Terraform module doubles every AKS node "
                        "pool's minimum; the cluster autoscaler fills the pools over three days",
                  hard="alert 4 days after the ramp began (the new level is already 4 days old); "
                       "all four AKS applications and four families rise together while the same "
                       "families (D4s_v5) in Virtual Machines stay flat"))


def s_route53_retry():
    """S3 service (FOCUS hourly): Route 53 query storm from a mobile SDK retry loop, already over."""
    rng = random.Random(1906)
    acct = "294017736651"
    f = Focus(acct, "Tandem Mobility", null="")
    start_dt = dt.datetime(2026, 5, 1, 0)
    hours = 24 * 58                            # to 2026-06-27 end
    storm0 = dt.datetime(2026, 6, 20, 14)
    storm1 = dt.datetime(2026, 6, 21, 20)
    alert = "2026-06-22"
    sub = ("294017736651", "tandem-prod")
    zones = [("Z03615282KJ1Y0XQ1QHA", "tandem.app"), ("Z0871929M8RQ6VTB5NQ2", "tandem-ride.com"),
             ("Z0442017A1NDQW7Z3MBT", "tandem-pay.com"), ("Z06641393UB7OEZ0H6TS", "tandemcdn.net"),
             ("Z09920347X4Y6K2R1QPE", "tandem-id.com")]
    fixed = [
        ("Amazon Elastic Compute Cloud", "Compute", "us-east-1", "i-04b1" + hexid(rng, 13), "Hrs", 0.768, 6, "m6i.4xlarge"),
        ("Amazon Elastic Compute Cloud", "Compute", "us-east-1", "i-0c22" + hexid(rng, 13), "Hrs", 0.768, 6, "m6i.4xlarge"),
        ("Amazon Elastic Compute Cloud", "Compute", "us-east-1", "i-09f7" + hexid(rng, 13), "Hrs", 0.34, 4, "c6i.2xlarge"),
        ("Amazon Relational Database Service", "Databases", "us-east-1",
         "arn:aws:rds:us-east-1:294017736651:db:rides-aurora-w1", "Hrs", 1.16, 1, "db.r6g.4xlarge"),
        ("Amazon ElastiCache", "Databases", "us-east-1",
         "arn:aws:elasticache:us-east-1:294017736651:cluster:geo-cache", "NodeUsage", 0.411, 3, "cache.r6g.xlarge"),
        ("Elastic Load Balancing", "Networking", "us-east-1",
         "arn:aws:elasticloadbalancing:us-east-1:294017736651:loadbalancer/app/api-public/7c1d0e9a4b2f", "LCU-Hrs", 0.008, 90, ""),
        ("Amazon CloudFront", "Networking", "global", "E2QX7Y1OZK3M9A", "GB", 0.085, 14, ""),
    ]
    sk = {z[0]: sku(rng) for z in zones}
    sk2 = {x[3]: sku(rng) for x in fixed}
    for h in range(hours):
        t = start_dt + dt.timedelta(hours=h)
        t1 = t + dt.timedelta(hours=1)
        hod = t.hour
        diurnal = 0.55 + 0.45 * math.sin(math.pi * ((hod - 6) % 24) / 24) ** 2 * 2 / 1.0
        for (svc, cat, reg, rid, unit, price, q, typ) in fixed:
            qq = q
            if svc in ("Elastic Load Balancing", "Amazon CloudFront"):
                qq = q * diurnal * (1 + rng.gauss(0, 0.08))
            f.add(t, t1, provider="AWS", service=svc, category=cat, region=reg, qty=qq, unit=unit,
                  price=price, resource=rid, desc=("%s %s" % (typ, unit)).strip(), sub=sub,
                  sku_id=sk2[rid], tags={"app": "rides"})
        for i, (zid, zname) in enumerate(zones):
            base_m = [0.42, 0.31, 0.12, 0.22, 0.17][i]            # million queries / hour at peak
            q = base_m * diurnal * (1 + rng.gauss(0, 0.05))
            if storm0 <= t < storm1:
                q *= 38 + rng.gauss(0, 3)
            f.add(t, t1, provider="AWS", service="Amazon Route 53", category="Networking",
                  region="global", qty=q * 1e6, unit="Queries", price=0.0000004,
                  resource="arn:aws:route53:::hostedzone/" + zid, rname=zname, rtype="HostedZone",
                  desc="$0.40 per 1,000,000 queries for the first 1 Billion queries", sub=sub,
                  sku_id=sk[zid], tags={"app": "dns"})
            if t.day == 1 and t.hour == 0:
                f.add(t, dt.datetime.combine(next_month(t.date()), dt.time()), provider="AWS",
                      service="Amazon Route 53", category="Networking", region="global", qty=1,
                      unit="HostedZone", price=0.5, resource="arn:aws:route53:::hostedzone/" + zid,
                      rname=zname, rtype="HostedZone", desc="$0.50 per Hosted Zone for the first 25 Hosted Zones",
                      sub=sub, freq="Recurring", sku_id=sk[zid], tags={"app": "dns"})
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[("Amazon Route 53", "ServiceName")],
        levels=["ProviderName", "ServiceCategory", "ServiceName", "RegionId", "ResourceId"],
        meta=dict(level="service", half="novel", fmt="focus.csv hourly, 58 days", lag=2,
                  title="Route 53 query storm: a mobile SDK retry loop hammers all five public "
                        "hosted zones x38 for 30 hours (06-20 14:00 to 06-21 20:00)",
                  hard="hourly rows; the storm is over when the alert (06-22) is raised; the cost is "
                       "split over five hosted zones (five ResourceIds) in the 'global' region; "
                       "Route 53 is a small service normally (~$10/day) and hosted-zone fees land "
                       "on the 1st"))


def s_ri_expiry_family():
    """F1 family (data.csv): r6i.2xlarge reserved instances expire."""
    rng = random.Random(1907)
    acct = "552810047793"
    days = drange("2025-06-01", 242)          # to 2026-01-28
    exp = D("2026-01-22")
    L = []
    def add(svc, app, fam, price, n, **kw):
        L.append(dict(csp="AWS", svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    ri = 0.3192
    add("EC2", "orders", "r6i.2xlarge", ri, 12, noise=0.0)
    add("EC2", "pricing", "r6i.2xlarge", ri, 8, noise=0.0)
    add("EC2", "inventory", "r6i.2xlarge", ri, 6, noise=0.0)
    add("EC2", "orders", "c6i.xlarge", 0.17, 20, wk=CONSUMER)
    add("EC2", "pricing", "c6i.2xlarge", 0.34, 9, wk=CONSUMER)
    add("EC2", "inventory", "m6i.large", 0.096, 14, wk=SOFT)
    add("EC2", "web", "c6i.xlarge", 0.17, 30, wk=CONSUMER, trend=0.001)
    add("EC2", "web", "m6i.xlarge", 0.192, 10, wk=CONSUMER)
    add("RDS", "orders", "db.r6i.2xlarge", 1.008, 2, noise=0)
    add("RDS", "inventory", "db.r6g.xlarge", 0.48, 2, noise=0)
    add("ElastiCache", "pricing", "cache.r6g.xlarge", 0.411, 3, noise=0)
    add("OpenSearch", "web", "r6g.large.search", 0.167, 6, noise=0)

    def ev(ln, i, d):
        if ln["fam"] == "r6i.2xlarge" and d >= exp:
            return (0.504 / ri, 1.0, None)
        # Black-Friday-to-Christmas peak for consumer-facing lines (seen each year)
        if ln.get("wk") is CONSUMER and D("2025-11-24") <= d <= D("2025-12-24"):
            return (1.0, 1.25, None)
        return None
    rows = daily_lines(rng, days, acct, L, ev)
    return dict(
        files={"data.csv": data_csv(rows)},
        anomaly={"date": "2026-01-22", "account_id": acct},
        truth=[("r6i.2xlarge", "Instance_Family")],
        meta=dict(level="family", half="catalogue", fmt="data.csv daily, 242 days", lag=0,
                  title="a commitment expiring: the three-year r6i.2xlarge Reserved Instances end; "
                        "the family falls back from 0.3192 to on-demand 0.504 $/hr",
                  hard="the family is spread over three applications (orders, pricing, inventory), "
                       "instance counts unchanged; db.r6i.2xlarge (RDS) is a different name and "
                       "flat; a holiday peak ended four weeks before"))


def s_windows_li():
    """F2 family (data.csv): golden image swapped to Windows licence-included on m6i.4xlarge."""
    rng = random.Random(1908)
    acct = "019283746510"
    days = drange("2025-08-11", 150)          # to 2026-01-07
    s0 = D("2025-12-29")
    alert = "2026-01-01"
    L = []
    def add(svc, app, fam, price, n, **kw):
        L.append(dict(csp="AWS", svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    add("EC2", "claims-portal", "m6i.4xlarge", 0.768, 8, noise=0.0)
    add("EC2", "doc-render", "m6i.4xlarge", 0.768, 12, wk=OFFICE, noise=0.04)
    add("EC2", "claims-portal", "t3.large", 0.0832, 10, wk=OFFICE)
    add("EC2", "doc-render", "c6i.2xlarge", 0.34, 6, wk=OFFICE)
    add("EC2", "policy-admin", "m6i.2xlarge", 0.384, 10, wk=OFFICE)
    add("EC2", "policy-admin", "r6i.xlarge", 0.252, 4, noise=0)
    add("WorkSpaces", "call-centre", "Performance", 0.0, 0, noise=0)  # placeholder removed below
    add("RDS", "claims-portal", "db.m6i.2xlarge", 0.712, 2, noise=0)
    add("RDS", "policy-admin", "db.r6i.xlarge", 0.504, 2, noise=0)
    add("FSx", "doc-render", "fsx-windows-2048", 0.19, 2, noise=0)
    L = [x for x in L if x["svc"] != "WorkSpaces"]
    holiday = (D("2025-12-24"), D("2026-01-02"))

    def ev(ln, i, d):
        pm, nm = 1.0, 1.0
        if ln.get("wk") is OFFICE and holiday[0] <= d <= holiday[1]:
            nm = 0.7
        if ln["fam"] == "m6i.4xlarge" and d >= s0:
            # instance refresh: half of the fleet on the new AMI on day 1, all from day 2
            share = 0.5 if d == s0 else 1.0
            pm = 1 + share * (1.504 / 0.768 - 1)
        return (pm, nm, None)
    rows = daily_lines(rng, days, acct, L, ev)
    return dict(
        files={"data.csv": data_csv(rows, acct_fmt=lambda a: a)},
        anomaly={"date": alert, "account_id": acct},
        truth=[("m6i.4xlarge", "Instance_Family")],
        meta=dict(level="family", half="novel", fmt="data.csv daily, 150 days", lag=3,
                  title="Windows licence-included image swap: the golden AMI of the m6i.4xlarge "
                        "fleets moved to Windows Server LI; price 0.768 -> 1.504 $/hr",
                  hard="alert on New Year's day, 3 days after the step, inside the holiday dip of "
                       "office-hours applications (which lowers everything else); the swap rolled "
                       "out over two days; the family spans two applications whose other families "
                       "are flat"))


def s_snowflake_xl():
    """F3 family (data.csv): a marketplace Snowflake warehouse left at X-Large, auto-suspend off."""
    rng = random.Random(1909)
    acct = "663120984471"
    days = drange("2025-10-01", 121)          # to 2026-01-29
    s0 = D("2026-01-26")
    L = []
    def add(svc, app, fam, price, n, **kw):
        L.append(dict(csp="AWS", svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    # Snowflake via AWS Marketplace: price = credits/hr x $3.00; cost = price x hours running
    add("Snowflake (AWS Marketplace)", "bi-dashboards", "WH-SMALL", 6.0, 2, wk=OFFICE, util=0.42, util_noise=0.05, noise=0)
    add("Snowflake (AWS Marketplace)", "bi-dashboards", "WH-MEDIUM", 12.0, 1, wk=OFFICE, util=0.30, util_noise=0.04, noise=0)
    add("Snowflake (AWS Marketplace)", "elt-pipeline", "WH-LARGE", 24.0, 1, util=0.22, util_noise=0.03, noise=0)
    add("Snowflake (AWS Marketplace)", "elt-pipeline", "WH-XSMALL", 3.0, 3, util=0.6, util_noise=0.05, noise=0)
    add("Snowflake (AWS Marketplace)", "data-science", "WH-MEDIUM", 12.0, 1, wk=OFFICE, util=0.18, util_noise=0.05, noise=0)
    add("Snowflake (AWS Marketplace)", "elt-pipeline", "WH-XLARGE", 48.0, 1, start=s0, noise=0)
    add("EC2", "elt-pipeline", "m6i.xlarge", 0.192, 6, wk=FLAT)
    add("EC2", "bi-dashboards", "m6i.large", 0.096, 4, wk=OFFICE)
    add("MWAA", "elt-pipeline", "mw1.medium", 0.74, 1, noise=0)
    add("S3", "elt-pipeline", "standard-tb", 0.7667, 38, noise=0.01, trend=0.002)

    def ev(ln, i, d):
        if ln["fam"] == "WH-XLARGE":
            # created mid-day for a backfill, never suspended
            return (1.0, 1.0, 14.0 if d == s0 else 24.0)
        if ln["app"] == "elt-pipeline" and d.day == 1 and ln["fam"] == "WH-LARGE":
            return (1.0, 1.0, 24 * 0.55)       # monthly full reload on the 1st
        return None
    rows = daily_lines(rng, days, acct, L, ev)
    return dict(
        files={"data.csv": data_csv(rows)},
        anomaly={"date": "2026-01-26", "account_id": acct},
        truth=[("WH-XLARGE", "Instance_Family")],
        meta=dict(level="family", half="novel", fmt="data.csv daily, 121 days (marketplace)", lag=0,
                  title="a Snowflake warehouse bought through AWS Marketplace created at X-Large "
                        "(16 credits/h) for a backfill, auto-suspend off, never resized",
                  hard="marketplace rows where cost = price x hours running, not x 24 "
                       "(auto-suspend), so cost/Num_Instances varies; first day is partial (14 h); "
                       "the monthly full reload doubles WH-LARGE on each 1st"))


def s_new_region():
    """R1 region (FOCUS): ap-southeast-2 brought up for a new market, ramping over 3 days."""
    rng = random.Random(1910)
    acct = "880142735560"
    f = Focus(acct, "Kestrel Payments", null="NULL")
    days = drange("2025-03-10", 300)          # to 2026-01-03
    s0 = D("2025-12-27")
    alert = "2025-12-29"
    subs = [("880142735560", "kestrel-prod"), ("331078642219", "kestrel-shared")]
    series = []
    def S(sub, service, cat, reg, res, rtype, unit, price, qty, desc, wk=FLAT, noise=0.03, start=None,
          ramp=None, grow=0.0):
        series.append(dict(sub=sub, service=service, cat=cat, reg=reg, res=res, rtype=rtype,
                           unit=unit, price=price, qty=qty, desc=desc, wk=wk, noise=noise,
                           start=start, ramp=ramp, grow=grow, sku=sku(rng)))
    for reg, k in (("us-east-1", 1.0), ("eu-west-1", 0.7)):
        acc = reg.replace("-", "")[:6]
        for j in range(4):
            S(subs[0], "Amazon Elastic Compute Cloud", "Compute", reg, "i-0%s" % hexid(rng, 16), "Instance",
              "Hrs", 0.34, 24 * max(1, round(5 * k)), "$0.34 per On Demand Linux c6i.2xlarge Instance Hour", wk=SOFT)
        S(subs[0], "Amazon Relational Database Service", "Databases", reg,
          "arn:aws:rds:%s:880142735560:db:ledger-%s" % (reg, acc), "DBInstance", "Hrs", 2.08, 24,
          "$2.08 per RDS db.r6g.4xlarge Multi-AZ instance hour", noise=0)
        S(subs[0], "Amazon Simple Storage Service", "Storage", reg, "kestrel-%s-receipts" % reg, "", "GB-Mo",
          0.023, 90000 * k / 30, "$0.023 per GB - first 50 TB / month of storage used", noise=0.002, grow=0.0012)
        S(subs[0], "Elastic Load Balancing", "Networking", reg,
          "arn:aws:elasticloadbalancing:%s:880142735560:loadbalancer/app/pay-api/%s" % (reg, hexid(rng, 16)),
          "", "LCU-Hrs", 0.008, 2400 * k, "$0.008 per used Application load balancer capacity unit-hour", wk=SOFT, noise=0.06)
        S(subs[1], "Amazon Elastic Compute Cloud", "Networking", reg, "nat-0%s" % hexid(rng, 16), "NatGateway",
          "GB", 0.045, 1800 * k, "$0.045 per GB Data Processed by NAT Gateways", wk=SOFT, noise=0.07)
        S(subs[1], "Amazon GuardDuty", "Security", reg, "", "", "Events", 0.000001, 2.6e8 * k,
          "Amazon GuardDuty CloudTrail events analysed", noise=0.05)
    # the new region: resources from both sub-accounts, three-day ramp
    reg = "ap-southeast-2"
    for j in range(4):
        S(subs[0], "Amazon Elastic Compute Cloud", "Compute", reg, "i-0%s" % hexid(rng, 16), "Instance",
          "Hrs", 0.428, 24 * 4, "$0.428 per On Demand Linux c6i.2xlarge Instance Hour", wk=SOFT,
          start=s0 + dt.timedelta(days=j // 2), ramp=[0.4, 1.0])
    S(subs[0], "Amazon Relational Database Service", "Databases", reg,
      "arn:aws:rds:ap-southeast-2:880142735560:db:ledger-apsoutheast2", "DBInstance", "Hrs", 2.62, 24,
      "$2.62 per RDS db.r6g.4xlarge Multi-AZ instance hour", noise=0, start=s0, ramp=[0.5, 1.0])
    S(subs[0], "Amazon Simple Storage Service", "Storage", reg, "kestrel-ap-southeast-2-receipts", "", "GB-Mo",
      0.025, 9000 / 30, "$0.025 per GB - first 50 TB / month of storage used", noise=0.01, grow=0.02,
      start=s0 + dt.timedelta(days=1))
    S(subs[0], "Elastic Load Balancing", "Networking", reg,
      "arn:aws:elasticloadbalancing:ap-southeast-2:880142735560:loadbalancer/app/pay-api/%s" % hexid(rng, 16),
      "", "LCU-Hrs", 0.0081, 700, "$0.0081 per used Application load balancer capacity unit-hour",
      wk=SOFT, noise=0.06, start=s0 + dt.timedelta(days=1), ramp=[0.3, 0.7, 1.0])
    S(subs[1], "Amazon Elastic Compute Cloud", "Networking", reg, "nat-0%s" % hexid(rng, 16), "NatGateway",
      "GB", 0.059, 900, "$0.059 per GB Data Processed by NAT Gateways", wk=SOFT, noise=0.07, start=s0)
    for i, d in enumerate(days):
        for s in series:
            if s["start"] and d < s["start"]:
                continue
            q = s["qty"] * weekly(d, s["wk"]) * (1 + rng.gauss(0, s["noise"])) * (1 + s["grow"] * i)
            if s["start"]:
                k = (d - s["start"]).days
                if s["ramp"]:
                    q *= s["ramp"][min(k, len(s["ramp"]) - 1)]
                q /= (1 + s["grow"] * i)
                q *= 1 + s["grow"] * k
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service=s["service"], category=s["cat"],
                  region=s["reg"], qty=q, unit=s["unit"], price=s["price"], desc=s["desc"],
                  resource=s["res"], rtype=s["rtype"], sub=s["sub"], sku_id=s["sku"],
                  az=(s["reg"] + "a") if s["rtype"] in ("Instance", "NatGateway") else "")
        if d.day == 1:
            # Savings Plan recurring fee (covers nothing in the new region)
            f.add(d, next_month(d), provider="AWS", service="Savings Plans for AWS Compute usage",
                  category="Compute", region="", qty=1, unit="", price=0, billed=0.0,
                  desc="Savings Plan recurring fee (billed hourly, shown as monthly zero line)",
                  sub=subs[1], charge="Purchase", freq="Recurring")
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[("ap-southeast-2", "RegionId")],
        levels=["BillingAccountId", "SubAccountId", "ServiceCategory", "ServiceName", "RegionId",
                "ResourceId"],
        meta=dict(level="region", half="catalogue", fmt="focus.csv daily, 300 days", lag=2,
                  title="a new region brought up: ap-southeast-2 (Sydney) launched for a new market "
                        "over 27-29 Dec, with instances, a database, storage, a load balancer and NAT",
                  hard="alert two days into the ramp; eight new resources over four services and two "
                       "existing sub-accounts (so no sub-account isolates it); prices in Sydney are "
                       "higher than the same SKUs elsewhere; zero-cost monthly Savings Plan lines"))


def s_spot_fallback_region():
    """R2 region (FOCUS): spot capacity in us-east-2 dries up; fleets fall back to on-demand."""
    rng = random.Random(1911)
    acct = "412209837764"
    f = Focus(acct, "Quarry Analytics", null="")
    days = drange("2025-07-14", 140)          # to 2025-11-30
    s0 = D("2025-11-20")
    alert = "2025-11-25"
    subs = [("412209837764", "qa-main"), ("690311284027", "qa-ml")]
    series = []
    def S(sub, service, cat, reg, res, rtype, unit, od, qty, desc, spot=None, wk=FLAT, noise=0.04):
        series.append(dict(sub=sub, service=service, cat=cat, reg=reg, res=res, rtype=rtype,
                           unit=unit, od=od, qty=qty, desc=desc, spot=spot, wk=wk, noise=noise,
                           sku=sku(rng)))
    for reg in ("us-east-1", "us-east-2", "us-west-2"):
        k = {"us-east-1": 1.0, "us-east-2": 0.9, "us-west-2": 0.6}[reg]
        S(subs[0], "Amazon Elastic Compute Cloud", "Compute", reg, "asg-ingest-%s" % reg, "AutoScalingGroup",
          "Hrs", 0.34, 24 * 30 * k, "c6i.2xlarge Linux instance hour", spot=0.31, wk=SOFT)
        S(subs[1], "Amazon EMR", "Analytics", reg, "j-%s" % hexid(rng, 13).upper(), "Cluster", "Hrs",
          0.768 + 0.192, 24 * 12 * k, "r6i.4xlarge EMR + EC2 instance hour", spot=0.36, wk=OFFICE)
        S(subs[1], "Amazon Elastic Kubernetes Service", "Compute", reg, "eks-batch-%s" % reg, "NodeGroup", "Hrs",
          0.384, 24 * 16 * k, "m6i.2xlarge EKS managed node hour", spot=0.33, wk=SOFT)
        S(subs[0], "Amazon Relational Database Service", "Databases", reg,
          "arn:aws:rds:%s:412209837764:cluster:warehouse" % reg, "DBCluster", "Hrs", 2.32, 24, "db.r6g.8xlarge Aurora", noise=0)
        S(subs[0], "Amazon Simple Storage Service", "Storage", reg, "qa-lake-%s" % reg, "", "GB-Mo", 0.023,
          300000 * k / 30, "$0.023 per GB-month", noise=0.003)
    for i, d in enumerate(days):
        for s in series:
            q = s["qty"] * weekly(d, s["wk"]) * (1 + rng.gauss(0, s["noise"]))
            if s["spot"] is None:
                f.add(d, d + dt.timedelta(days=1), provider="AWS", service=s["service"], category=s["cat"],
                      region=s["reg"], qty=q, unit=s["unit"], price=s["od"], desc=s["desc"], resource=s["res"],
                      rtype=s["rtype"], sub=s["sub"], sku_id=s["sku"])
                continue
            spot_share = 0.85
            if s["reg"] == "us-east-2" and d >= s0:
                spot_share = [0.45, 0.2, 0.1][min((d - s0).days, 2)]
            spot_price = s["od"] * s["spot"] * (1 + rng.gauss(0, 0.04))
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service=s["service"], category=s["cat"],
                  region=s["reg"], qty=q * spot_share, unit=s["unit"], price=spot_price, list_price=s["od"],
                  desc="Spot " + s["desc"], resource=s["res"], rtype=s["rtype"], sub=s["sub"],
                  sku_id=s["sku"], pricing_cat="Dynamic")
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service=s["service"], category=s["cat"],
                  region=s["reg"], qty=q * (1 - spot_share), unit=s["unit"], price=s["od"],
                  desc="On Demand " + s["desc"], resource=s["res"], rtype=s["rtype"], sub=s["sub"],
                  sku_id=s["sku"])
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[("us-east-2", "RegionId")],
        levels=["BillingAccountId", "SubAccountId", "ServiceCategory", "ServiceName", "RegionId",
                "ResourceId"],
        meta=dict(level="region", half="novel", fmt="focus.csv daily, 140 days", lag=5,
                  title="spot capacity in us-east-2 dries up: the ingest ASG, EMR and EKS batch node "
                        "groups fall back from spot (PricingCategory Dynamic) to on-demand",
                  hard="alert 5 days after the fallback began (ramp over three days, still present); "
                       "usage quantities unchanged, the mix of Dynamic/Standard rows shifts; three "
                       "services in two categories and two sub-accounts, one region"))


def s_dr_drill_region():
    """R3 region (FOCUS hourly): DR drill in eu-central-1 scaled up and never scaled back."""
    rng = random.Random(1912)
    acct = "158830297714"
    f = Focus(acct, "Fennec Insurance", null="NULL")
    t0 = dt.datetime(2026, 8, 3, 0)
    hours = 24 * 48 + 11                       # ends 2026-09-19 11:00 (partial last day)
    drill = dt.datetime(2026, 9, 17, 9)
    alert = "2026-09-17"
    sub = ("158830297714", "fennec-prod")
    series = []
    def S(service, cat, reg, res, rtype, unit, price, qty, desc, diurnal=False, dr=None):
        series.append(dict(service=service, cat=cat, reg=reg, res=res, rtype=rtype, unit=unit,
                           price=price, qty=qty, desc=desc, diurnal=diurnal, dr=dr, sku=sku(rng)))
    for j in range(6):
        S("Amazon Elastic Compute Cloud", "Compute", "us-east-1", "i-0%s" % hexid(rng, 16), "Instance", "Hrs",
          0.384, 1, "m6i.2xlarge", diurnal=j >= 3)
    S("Amazon Relational Database Service", "Databases", "us-east-1",
      "arn:aws:rds:us-east-1:158830297714:cluster:policy-core", "DBCluster", "Hrs", 1.16, 2, "db.r6g.4xlarge Aurora")
    S("Elastic Load Balancing", "Networking", "us-east-1",
      "arn:aws:elasticloadbalancing:us-east-1:158830297714:loadbalancer/app/portal/%s" % hexid(rng, 16), "", "LCU-Hrs",
      0.008, 40, "ALB LCU", diurnal=True)
    S("Amazon Simple Storage Service", "Storage", "us-east-1", "fennec-documents", "", "GB-Mo", 0.023,
      120000 / 720, "S3 Standard storage")
    # pilot light in eu-central-1: tiny replica, replicated bucket, scaled-in ASG
    S("Amazon Relational Database Service", "Databases", "eu-central-1",
      "arn:aws:rds:eu-central-1:158830297714:cluster:policy-core-dr", "DBCluster", "Hrs", 0.3, 1,
      "db.r6g.large Aurora (secondary)", dr=("price", 1.32 / 0.3))
    S("Amazon Simple Storage Service", "Storage", "eu-central-1", "fennec-documents-dr", "", "GB-Mo", 0.0245,
      120000 / 720, "S3 Standard storage (replica)")
    for j in range(6):
        S("Amazon Elastic Compute Cloud", "Compute", "eu-central-1", "i-0%s" % hexid(rng, 16), "Instance", "Hrs",
          0.46, 1, "m6i.2xlarge", dr=("new", None))
    S("Elastic Load Balancing", "Networking", "eu-central-1",
      "arn:aws:elasticloadbalancing:eu-central-1:158830297714:loadbalancer/app/portal-dr/%s" % hexid(rng, 16), "",
      "Hrs", 0.027, 1, "ALB hour", dr=("new", None))
    S("Amazon Elastic Compute Cloud", "Networking", "eu-central-1", "nat-0%s" % hexid(rng, 16), "NatGateway", "Hrs",
      0.052, 1, "NAT Gateway hour", dr=("new", None))
    for h in range(hours):
        t = t0 + dt.timedelta(hours=h)
        t1 = t + dt.timedelta(hours=1)
        busy = 1.0 if 7 <= t.hour < 20 and t.weekday() < 5 else 0.35
        for s in series:
            q = s["qty"]
            price = s["price"]
            if s["diurnal"]:
                q = q * busy if s["unit"] != "Hrs" or busy == 1.0 else 0
                if s["unit"] == "LCU-Hrs":
                    q *= 1 + rng.gauss(0, 0.1)
            if s["dr"]:
                kind, val = s["dr"]
                if kind == "new" and t < drill:
                    continue
                if kind == "price" and t >= drill:
                    price = s["price"] * val
            f.add(t, t1, provider="AWS", service=s["service"], category=s["cat"], region=s["reg"],
                  qty=max(q, 0), unit=s["unit"], price=price, desc=s["desc"], resource=s["res"],
                  rtype=s["rtype"], sub=sub, sku_id=s["sku"],
                  tags={"env": "dr" if s["reg"] == "eu-central-1" else "prod", "owner": "platform"})
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[("eu-central-1", "RegionId")],
        levels=["ProviderName", "ServiceCategory", "ServiceName", "RegionId", "ResourceId"],
        meta=dict(level="region", half="catalogue", fmt="focus.csv hourly, 48.5 days (last day partial)",
                  lag=0,
                  title="a forgotten environment: a DR drill in eu-central-1 at 09:00 promotes and "
                        "scales the Aurora secondary, starts six instances, an ALB and a NAT gateway; "
                        "nothing is scaled back",
                  hard="hourly rows, the first abnormal day is partial (from 09:00) and the last day "
                       "of the export stops at 11:00; half of the primary fleet follows office hours; "
                       "the rise is in nine resources (eight new, one resized) of three services in one region"))


def s_reco_batch_app():
    """P1 application (data.csv): the recommendations batch doubles its workers."""
    rng = random.Random(1913)
    acct = "774100293381"
    days = drange("2025-02-03", 120)          # to 2025-06-02
    s0 = D("2025-05-28")
    L = []
    def add(csp, svc, app, fam, price, n, **kw):
        L.append(dict(csp=csp, svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    add("AWS", "EMR", "recommendations", "r5.4xlarge", 1.008 + 0.27, 9, noise=0.05)
    add("AWS", "EMR", "recommendations", "m5.2xlarge", 0.384 + 0.096, 6, noise=0.05)
    add("AWS", "EC2", "recommendations", "c6i.8xlarge", 1.36, 4, noise=0.04)
    add("AWS", "EMR", "clickstream", "r5.4xlarge", 1.008 + 0.27, 7, noise=0.05)
    add("AWS", "EMR", "clickstream", "m5.2xlarge", 0.384 + 0.096, 5, noise=0.05)
    add("AWS", "EC2", "storefront", "c6i.8xlarge", 1.36, 5, wk=CONSUMER)
    add("AWS", "EC2", "storefront", "m6i.xlarge", 0.192, 28, wk=CONSUMER)
    add("AWS", "EC2", "search", "r6i.2xlarge", 0.504, 8, wk=CONSUMER)
    add("AWS", "RDS", "storefront", "db.r6g.4xlarge", 1.64, 2, noise=0)
    add("AWS", "DynamoDB", "recommendations", "provisioned-WCU", 0.00065 * 1000, 3, noise=0)
    add("GCP", "Vertex AI", "search", "n1-standard-8+T4", 0.73, 3, noise=0.05)
    add("GCP", "BigQuery", "clickstream", "slots-100", 4.0, 1, noise=0)

    def ev(ln, i, d):
        if ln["app"] == "recommendations" and d >= s0 and ln["svc"] != "DynamoDB":
            return (1.0, 2.1, None)
        if ln["app"] == "clickstream" and d.weekday() == 6:
            return (1.0, 1.6, None)           # weekly Sunday re-index
        return None
    rows = daily_lines(rng, days, acct, L, ev)
    return dict(
        files={"data.csv": data_csv(rows)},
        anomaly={"date": "2025-05-28", "account_id": acct},
        truth=[("recommendations", "Application")],
        meta=dict(level="application", half="catalogue", fmt="data.csv daily, 120 days, AWS + GCP",
                  lag=0,
                  title="runaway batch: a config change doubles the recommendations job's worker "
                        "count on EMR and EC2",
                  hard="three families in two services all rise, each family also used by another "
                       "application that stays flat (clickstream, storefront); clickstream re-indexes "
                       "every Sunday; the application's DynamoDB table is flat"))


def s_athena_app():
    """P2 application (FOCUS, x_Application): Athena queries over an unpartitioned table."""
    rng = random.Random(1914)
    acct = "903318472205"
    f = Focus(acct, "Larkspur Bank", null="", extra_cols=["x_Application", "x_Environment"])
    days = drange("2025-09-22", 95)           # to 2025-12-25
    s0 = D("2025-12-15")
    alert = "2025-12-17"
    sub = ("903318472205", "larkspur-analytics")
    series = []
    def S(app, service, cat, res, rtype, unit, price, qty, desc, wk=OFFICE, noise=0.08, storm=1.0):
        series.append(dict(app=app, service=service, cat=cat, res=res, rtype=rtype, unit=unit,
                           price=price, qty=qty, desc=desc, wk=wk, noise=noise, storm=storm, sku=sku(rng)))
    wg = "arn:aws:athena:eu-west-2:903318472205:workgroup/"
    S("fraud-analytics", "Amazon Athena", "Analytics", wg + "fraud", "WorkGroup", "Terabytes", 5.0, 0.45,
      "$5.00 per TB of data scanned", storm=31.0, noise=0.15)
    S("fraud-analytics", "Amazon Simple Storage Service", "Storage", "lrk-fraud-lake", "Bucket", "Requests",
      0.00000042, 3.1e6, "$0.00042 per 1,000 GET and all other requests", storm=24.0, noise=0.1)
    S("fraud-analytics", "Amazon Simple Storage Service", "Storage", "lrk-fraud-lake", "Bucket", "GB-Mo",
      0.024, 52000 / 30, "$0.024 per GB - first 50 TB / month", wk=FLAT, noise=0.003)
    S("fraud-analytics", "AWS Glue", "Analytics", "arn:aws:glue:eu-west-2:903318472205:job/fraud-etl", "Job",
      "DPU-Hour", 0.44, 60, "$0.44 per DPU-Hour for each Apache Spark job", wk=FLAT, noise=0.05)
    S("fraud-analytics", "Amazon Elastic Compute Cloud", "Compute", "i-0%s" % hexid(rng, 16), "Instance", "Hrs",
      0.192, 24 * 2, "m6i.xlarge Linux", wk=FLAT, noise=0)
    S("marketing-bi", "Amazon Athena", "Analytics", wg + "marketing", "WorkGroup", "Terabytes", 5.0, 1.8,
      "$5.00 per TB of data scanned", noise=0.12)
    S("marketing-bi", "Amazon Simple Storage Service", "Storage", "lrk-marketing-lake", "Bucket", "Requests",
      0.00000042, 9e6, "$0.00042 per 1,000 GET and all other requests", noise=0.1)
    S("marketing-bi", "Amazon QuickSight", "Analytics", "arn:aws:quicksight:eu-west-2:903318472205:namespace/default",
      "", "Users", 0.8, 45, "QuickSight Enterprise author/reader daily", wk=FLAT, noise=0.0)
    S("finance-reporting", "Amazon Athena", "Analytics", wg + "finance", "WorkGroup", "Terabytes", 5.0, 0.9,
      "$5.00 per TB of data scanned", noise=0.12)
    S("finance-reporting", "Amazon Redshift", "Analytics",
      "arn:aws:redshift:eu-west-2:903318472205:cluster:fin-dw", "Cluster", "Hrs", 3.26 * 2, 24, "ra3.4xlarge x2",
      wk=FLAT, noise=0)
    S("finance-reporting", "Amazon Simple Storage Service", "Storage", "lrk-finance-lake", "Bucket", "GB-Mo",
      0.024, 31000 / 30, "$0.024 per GB - first 50 TB / month", wk=FLAT, noise=0.003)
    S("shared-platform", "Amazon Elastic Compute Cloud", "Networking", "nat-0%s" % hexid(rng, 16), "NatGateway",
      "GB", 0.048, 700, "$0.048 per GB Data Processed by NAT Gateways", wk=SOFT, noise=0.07)
    S("shared-platform", "AWS Key Management Service", "Security", "", "", "Requests", 0.000003, 1.1e6,
      "$0.03 per 10,000 requests", wk=SOFT, noise=0.06)
    for i, d in enumerate(days):
        quarter_end = d.month in (3, 6, 9, 12) and d.day >= 26
        for s in series:
            q = s["qty"] * weekly(d, s["wk"]) * (1 + rng.gauss(0, s["noise"]))
            if s["app"] == "finance-reporting" and s["unit"] == "Terabytes" and (d.day <= 3 or quarter_end):
                q *= 4.0                                   # month start / quarter-end reporting
            if s["storm"] != 1.0 and d >= s0:
                q *= s["storm"] * (0.75 if d.weekday() >= 5 else 1.0) / weekly(d, s["wk"])
            tags = {"app": s["app"], "env": "prod", "owner": s["app"].split("-")[0] + "@larkspur.example"}
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service=s["service"], category=s["cat"],
                  region="eu-west-2", qty=q, unit=s["unit"], price=s["price"], desc=s["desc"],
                  resource=s["res"], rtype=s["rtype"], sub=sub, sku_id=s["sku"], tags=tags,
                  extra={"x_Application": s["app"], "x_Environment": "prod"})
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[("fraud-analytics", "x_Application")],
        levels=["ProviderName", "ServiceCategory", "ServiceName", "x_Application", "ResourceId"],
        meta=dict(level="application", half="novel", fmt="focus.csv daily, 95 days, x_Application column",
                  lag=2,
                  title="Athena over an unpartitioned table: a new fraud model's feature query drops "
                        "the partition predicate; every run scans the whole lake",
                  hard="the application's rise is in two services and two resources (the Athena "
                       "workgroup, ~80%, and GET requests on the data-lake bucket, ~20%); other "
                       "applications share both services; finance-reporting quadruples its Athena "
                       "scans at month start and quarter end; alert 2 days late"))


def s_search_v2_app():
    """P3 application (data.csv): search-v2 launched beside search, old stack never retired."""
    rng = random.Random(1915)
    acct = "318847002961"
    days = drange("2025-04-01", 205)          # to 2025-10-22
    s0 = D("2025-10-14")
    L = []
    def add(csp, svc, app, fam, price, n, **kw):
        L.append(dict(csp=csp, svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    add("AWS", "OpenSearch", "search", "r6g.large.search", 0.167, 6, noise=0)
    add("AWS", "EKS", "search", "m6i.xlarge", 0.192, 8, wk=CONSUMER)
    add("AWS", "EKS", "web", "m6i.xlarge", 0.192, 22, wk=CONSUMER)
    add("AWS", "EKS", "web", "c6i.xlarge", 0.17, 14, wk=CONSUMER)
    add("AWS", "RDS", "web", "db.r6g.2xlarge", 0.821, 2, noise=0)
    add("AWS", "ElastiCache", "web", "cache.m6g.large", 0.149, 4, noise=0)
    add("AWS", "OpenSearch", "logs", "r6g.xlarge.search", 0.335, 6, noise=0)
    add("AWS", "OpenSearch", "logs", "ultrawarm1.medium.search", 0.238, 4, noise=0, trend=0.002)
    add("AWS", "EKS", "search-v2", "m6i.xlarge", 0.192, 9, wk=CONSUMER, start=s0)
    add("AWS", "OpenSearch", "search-v2", "r6g.xlarge.search", 0.335, 6, noise=0, start=s0)
    add("AWS", "SageMaker", "search-v2", "ml.g5.xlarge", 1.408, 2, noise=0, start=s0)
    add("Azure", "Virtual Machines", "back-office", "D4s_v5", 0.192, 6, wk=OFFICE)

    def ev(ln, i, d):
        # planned cut-over in May: web moved from c6i to m6i over a weekend (normal life)
        if ln["app"] == "web" and ln["fam"] == "c6i.xlarge" and d >= D("2025-05-17"):
            return (1.0, 0.55, None)
        if ln["app"] == "web" and ln["fam"] == "m6i.xlarge" and d >= D("2025-05-17"):
            return (1.0, 1.2, None)
        return None
    rows = daily_lines(rng, days, acct, L, ev)
    return dict(
        files={"data.csv": data_csv(rows)},
        anomaly={"date": "2025-10-14", "account_id": acct},
        truth=[("search-v2", "Application")],
        meta=dict(level="application", half="catalogue", fmt="data.csv daily, 205 days", lag=0,
                  title="a new application tag: search-v2 goes live on EKS, OpenSearch and SageMaker "
                        "while the old search stack is never retired (double running)",
                  hard="the new application uses families that other applications already use "
                       "(m6i.xlarge, r6g.xlarge.search); a web family swap in May is normal life; "
                       "the old 'search' application stays exactly flat"))


def s_bastion_scale():
    """X1 resource (FOCUS, EUR): Azure Bastion scale units raised to 20 and left."""
    rng = random.Random(1916)
    acct = "/providers/Microsoft.Billing/billingAccounts/71844302"
    f = Focus(acct, "Ostwind Energie GmbH", currency="EUR", null="")
    days = drange("2026-02-01", 123)          # to 2026-06-03
    s0 = D("2026-05-27")
    alert = "2026-05-30"
    subid = "b91e4c07-3f52-4d8e-a6c1-20d5e7f1c934"
    sub = (subid, "sub-connectivity-hub")
    rg = "/subscriptions/%s/resourceGroups/%s/providers/"
    series = []
    def S(service, cat, reg, res, rtype, unit, price, qty, desc, wk=FLAT, noise=0.0):
        series.append(dict(service=service, cat=cat, reg=reg, res=res, rtype=rtype, unit=unit,
                           price=price, qty=qty, desc=desc, wk=wk, noise=noise, sku=sku(rng)))
    S("Azure Firewall", "Security", "westeurope", rg % (subid, "rg-hub-weu") + "Microsoft.Network/azureFirewalls/afw-hub-weu",
      "Firewall", "1 Hour", 1.1, 24, "Standard Deployment")
    S("Azure Firewall", "Security", "westeurope", rg % (subid, "rg-hub-weu") + "Microsoft.Network/azureFirewalls/afw-hub-weu",
      "Firewall", "1 GB", 0.015, 900, "Standard Data Processed", wk=SOFT, noise=0.08)
    S("VPN Gateway", "Networking", "westeurope", rg % (subid, "rg-hub-weu") + "Microsoft.Network/virtualNetworkGateways/vgw-hub-weu",
      "Virtual network gateway", "1 Hour", 0.45, 24, "VpnGw2")
    S("Azure Bastion", "Networking", "westeurope", rg % (subid, "rg-hub-weu") + "Microsoft.Network/bastionHosts/bas-hub-weu",
      "Bastion", "1 Hour", 0.27, 24, "Standard Gateway")
    S("Azure Bastion", "Networking", "northeurope", rg % (subid, "rg-hub-neu") + "Microsoft.Network/bastionHosts/bas-hub-neu",
      "Bastion", "1 Hour", 0.27, 24, "Standard Gateway")
    S("Virtual Network", "Networking", "westeurope", rg % (subid, "rg-hub-weu") + "Microsoft.Network/publicIPAddresses/pip-bas-hub-weu",
      "Public IP address", "1 Hour", 0.0046, 24, "Standard IPv4 Static Public IP")
    S("Virtual Network", "Networking", "northeurope", rg % (subid, "rg-hub-neu") + "Microsoft.Network/publicIPAddresses/pip-bas-hub-neu",
      "Public IP address", "1 Hour", 0.0046, 24, "Standard IPv4 Static Public IP")
    S("Bandwidth", "Networking", "westeurope", rg % (subid, "rg-hub-weu") + "Microsoft.Network/azureFirewalls/afw-hub-weu",
      "Firewall", "1 GB", 0.08, 55, "Standard Data Transfer Out", wk=SOFT, noise=0.12)
    S("Log Analytics", "Management and Governance", "westeurope",
      rg % (subid, "rg-mgmt") + "Microsoft.OperationalInsights/workspaces/law-hub", "Log Analytics workspace", "1 GB",
      2.76, 7.5, "Analytics Logs Data Ingestion", wk=SOFT, noise=0.09)
    S("Azure DNS", "Networking", "global", rg % (subid, "rg-dns") + "Microsoft.Network/privateDnsZones/privatelink.blob.core.windows.net",
      "Private DNS zone", "1 Zone", 0.23 / 30, 1, "Private Zone")
    bas = rg % (subid, "rg-hub-weu") + "Microsoft.Network/bastionHosts/bas-hub-weu"
    for i, d in enumerate(days):
        for s in series:
            q = s["qty"] * weekly(d, s["wk"]) * (1 + rng.gauss(0, s["noise"]))
            f.add(d, d + dt.timedelta(days=1), provider="Microsoft", service=s["service"], category=s["cat"],
                  region=s["reg"], qty=q, unit=s["unit"], price=s["price"], desc=s["desc"], resource=s["res"],
                  rname=s["res"].rsplit("/", 1)[-1], rtype=s["rtype"], sub=sub, sku_id=s["sku"],
                  tags={"CostCenter": "IT-4410", "Environment": "hub"})
        # additional scale units beyond the two included instances (18 extra from 15:00 on day 0)
        if d >= s0:
            hours = 9 if d == s0 else 24
            f.add(d, d + dt.timedelta(days=1), provider="Microsoft", service="Azure Bastion", category="Networking",
                  region="westeurope", qty=18 * hours, unit="1 Hour", price=0.13,
                  desc="Standard Additional Gateway", resource=bas, rname="bas-hub-weu", rtype="Bastion",
                  sub=sub, sku_id="DZH318Z0BNVX", tags={"CostCenter": "IT-4410", "Environment": "hub"})
        # monthly: a reservation for the firewall? no - Defender for Cloud plan, charged monthly on the 1st
        if d.day == 1:
            f.add(d, next_month(d), provider="Microsoft", service="Microsoft Defender for Cloud", category="Security",
                  region="global", qty=1, unit="1/Month", price=186.0, desc="Defender CSPM monthly",
                  sub=sub, freq="Recurring", charge="Usage")
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[(bas, "ResourceId")],
        levels=["BillingAccountId", "SubAccountId", "ServiceCategory", "ServiceName", "RegionId",
                "ResourceId"],
        meta=dict(level="resource", half="novel", fmt="focus.csv daily, 123 days, EUR", lag=3,
                  title="Azure Bastion scaled to 20 instances for a training session and left: "
                        "'Standard Additional Gateway' meter appears on bas-hub-weu",
                  hard="billed in EUR; the extra cost is a new meter on an existing resource; a "
                       "second Bastion (North Europe) is flat, so the service is too broad; the "
                       "first day is partial (from 15:00); alert 3 days late; Defender plan on the 1st"))


def s_nat_egress_resource():
    """X2 resource (FOCUS): S3 gateway endpoint removed from one AZ's route table; S3 via NAT."""
    rng = random.Random(1917)
    acct = "627104993182"
    f = Focus(acct, "Corvid Genomics", null="NULL")
    days = drange("2025-01-06", 84)           # to 2025-03-30
    s0 = D("2025-03-24")
    sub = ("627104993182", "corvid-research")
    series = []
    def S(service, cat, reg, az, res, rtype, unit, price, qty, desc, wk=FLAT, noise=0.04, static=False):
        series.append(dict(service=service, cat=cat, reg=reg, az=az, res=res, rtype=rtype, unit=unit,
                           price=price, qty=qty, desc=desc, wk=wk, noise=noise, static=static, sku=sku(rng)))
    nats = {}
    for az in ("us-east-1a", "us-east-1b", "us-east-1c"):
        nid = "nat-0%s" % hexid(rng, 16)
        nats[az] = nid
        S("Amazon Elastic Compute Cloud", "Networking", "us-east-1", az, nid, "NatGateway", "Hrs", 0.045, 24,
          "$0.045 per NAT Gateway Hour", static=True)
        S("Amazon Elastic Compute Cloud", "Networking", "us-east-1", az, nid, "NatGateway", "GB", 0.045,
          {"us-east-1a": 420, "us-east-1b": 380, "us-east-1c": 300}[az],
          "$0.045 per GB Data Processed by NAT Gateways", wk=OFFICE, noise=0.1)
    nid_eu = "nat-0%s" % hexid(rng, 16)
    S("Amazon Elastic Compute Cloud", "Networking", "eu-west-1", "eu-west-1a", nid_eu, "NatGateway", "Hrs", 0.048, 24,
      "$0.048 per NAT Gateway Hour", static=True)
    S("Amazon Elastic Compute Cloud", "Networking", "eu-west-1", "eu-west-1a", nid_eu, "NatGateway", "GB", 0.048, 150,
      "$0.048 per GB Data Processed by NAT Gateways", wk=OFFICE, noise=0.1)
    for j in range(10):
        az = "us-east-1" + "abc"[j % 3]
        S("Amazon Elastic Compute Cloud", "Compute", "us-east-1", az, "i-0%s" % hexid(rng, 16), "Instance", "Hrs",
          1.008 if j < 4 else 0.34, 24, "$%s per On Demand Linux %s Instance Hour" % (
              "1.008" if j < 4 else "0.34", "r6i.8xlarge" if j < 4 else "c6i.2xlarge"), static=j < 4, wk=FLAT)
    S("AWS Batch", "Compute", "us-east-1", "", "arn:aws:batch:us-east-1:627104993182:compute-environment/align-spot",
      "ComputeEnvironment", "vCPU-Hours", 0.0125, 9000, "Spot vCPU-hours (c6i)", wk=OFFICE, noise=0.15)
    S("Amazon Simple Storage Service", "Storage", "us-east-1", "", "corvid-sequencer-raw", "", "GB-Mo", 0.023,
      820000 / 30, "$0.023 per GB - over 500 TB / month", noise=0.002)
    S("Amazon Simple Storage Service", "Storage", "us-east-1", "", "corvid-sequencer-raw", "", "Requests", 0.0000004,
      4.2e7, "$0.0004 per 1,000 GET requests", wk=OFFICE, noise=0.12)
    S("Amazon Elastic Block Store", "Storage", "us-east-1", "", "vol-0%s" % hexid(rng, 16), "Volume", "GB-Mo",
      0.08, 16000 / 30, "gp3 storage", static=True)
    S("AWS Data Transfer", "Networking", "us-east-1", "", "", "", "GB", 0.09, 260,
      "$0.090 per GB - first 10 TB / month data transfer out", wk=OFFICE, noise=0.2)
    for i, d in enumerate(days):
        for s in series:
            if s["static"]:
                q = s["qty"]
            else:
                q = s["qty"] * weekly(d, s["wk"]) * (1 + rng.gauss(0, s["noise"]))
            if s["res"] == nats["us-east-1b"] and s["unit"] == "GB" and d >= s0:
                q += 8600 * weekly(d, OFFICE) * (1 + rng.gauss(0, 0.06))   # S3 pulls now via NAT
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service=s["service"], category=s["cat"],
                  region=s["reg"], az=s["az"], qty=q, unit=s["unit"], price=s["price"], desc=s["desc"],
                  resource=s["res"], rtype=s["rtype"], sub=sub, sku_id=s["sku"],
                  tags={"project": "align" if s["cat"] == "Compute" else "platform"})
        if d.day == 1:
            # free-tier zero lines and a small refund for an earlier support case
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service="AWS Key Management Service",
                  category="Security", region="us-east-1", qty=20000, unit="Requests", price=0.0,
                  desc="$0.00 per request - Monthly Global Free Tier for KMS requests", sub=sub)
    f.add(D("2025-02-11"), D("2025-02-12"), provider="AWS", service="AWS Data Transfer", category="Networking",
          region="us-east-1", qty=0, unit="", price=0, billed=-412.37, charge="Credit", freq="One-Time",
          desc="Credit: data transfer billing correction (case 11842031)", sub=sub)
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": "2025-03-24", "account_id": acct},
        truth=[(nats["us-east-1b"], "ResourceId")],
        levels=["BillingAccountId", "ServiceCategory", "ServiceName", "RegionId", "ResourceId"],
        meta=dict(level="resource", half="catalogue", fmt="focus.csv daily, 84 days", lag=0,
                  title="data transfer jump: the S3 gateway endpoint route was dropped from the "
                        "us-east-1b route table; the alignment pipeline's S3 reads go through one NAT gateway",
                  hard="three NAT gateways in us-east-1 plus one in eu-west-1, each with an hourly and "
                       "a per-GB line under the EC2 service (category Networking); only nat(b)'s "
                       "per-GB line rises; office-hours Batch usage; a one-off credit in February"))


# ------------------------------ bills with no anomaly ---------------------------------------

def q_month_start_fees():
    """Q1 none (FOCUS): recurring fees on the 1st (support, RI monthly, WorkSpaces, zones)."""
    rng = random.Random(1951)
    acct = "240019873316"
    f = Focus(acct, "Marlow & Finch LLP", null="NULL")
    days = drange("2025-11-12", 190)          # to 2026-05-20
    alert = "2026-05-01"
    subs = [("240019873316", "mf-prod"), ("771203984456", "mf-dev")]
    series = []
    def S(sub, service, cat, reg, res, rtype, unit, price, qty, desc, wk=FLAT, noise=0.04, grow=0.0):
        series.append(dict(sub=sub, service=service, cat=cat, reg=reg, res=res, rtype=rtype, unit=unit,
                           price=price, qty=qty, desc=desc, wk=wk, noise=noise, grow=grow, sku=sku(rng)))
    for j in range(5):
        S(subs[0], "Amazon Elastic Compute Cloud", "Compute", "us-east-1", "i-0%s" % hexid(rng, 16), "Instance", "Hrs",
          0.192, 24, "m6i.xlarge covered by RI (usage)", noise=0)
    for j in range(6):
        S(subs[1], "Amazon Elastic Compute Cloud", "Compute", "us-east-1", "i-0%s" % hexid(rng, 16), "Instance", "Hrs",
          0.096, 11, "m6i.large dev (office hours)", wk=OFFICE, noise=0.1)
    S(subs[0], "Amazon Relational Database Service", "Databases", "us-east-1",
      "arn:aws:rds:us-east-1:240019873316:db:matters-sql", "DBInstance", "Hrs", 1.44, 24, "SQL Server SE db.m6i.xlarge", noise=0)
    S(subs[0], "Amazon Simple Storage Service", "Storage", "us-east-1", "mf-document-vault", "", "GB-Mo", 0.023,
      46000 / 30, "S3 Standard", noise=0.002, grow=0.001)
    S(subs[0], "Amazon FSx", "Storage", "us-east-1", "fs-0%s" % hexid(rng, 16), "FileSystem", "GB-Mo", 0.13,
      8000 / 30, "FSx for Windows SSD storage", noise=0)
    S(subs[0], "AWS Backup", "Storage", "us-east-1", "", "", "GB-Mo", 0.05, 30000 / 30, "Backup warm storage",
      noise=0.003, grow=0.0008)
    S(subs[0], "Amazon CloudWatch", "Management and Governance", "us-east-1", "", "", "GB", 0.5, 9,
      "Logs ingestion", wk=OFFICE, noise=0.1)
    usage_by_month = {}
    for i, d in enumerate(days):
        tot = 0.0
        for s in series:
            q = s["qty"] * weekly(d, s["wk"]) * (1 + rng.gauss(0, s["noise"])) * (1 + s["grow"] * i)
            ri = "RI" in s["desc"]
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service=s["service"], category=s["cat"],
                  region=s["reg"], qty=q, unit=s["unit"], price=0.0 if ri else s["price"],
                  list_price=s["price"], desc=s["desc"], resource=s["res"], rtype=s["rtype"], sub=s["sub"],
                  sku_id=s["sku"], effective=q * s["price"] * 0.62 if ri else None,
                  pricing_cat="Committed" if ri else "Standard",
                  commit={"CommitmentDiscountCategory": "Usage", "CommitmentDiscountType": "Reserved Instance",
                          "CommitmentDiscountStatus": "Used",
                          "CommitmentDiscountId": "arn:aws:ec2:us-east-1:240019873316:reserved-instances/7e1f0c2a-51b3-4a7c-9d20-8b3c5e6f1a44",
                          "CommitmentDiscountName": "NULL"} if ri else None)
            tot += q * s["price"]
        m = month_start(d)
        usage_by_month[m] = usage_by_month.get(m, 0) + tot
        if d.day == 1:
            prev = usage_by_month.get(month_start(d - dt.timedelta(days=1)), None)
            fee = max(100.0, 0.10 * prev) if prev else 100.0 + 0.10 * tot * 30
            f.add(d, next_month(d), provider="AWS", service="AWS Support (Business)", category="Management and Governance",
                  region="", qty=1, unit="", price=0, billed=fee, desc="AWS Support (Business) - 10% of monthly usage",
                  sub=subs[0], charge="Purchase", freq="Recurring")
            f.add(d, next_month(d), provider="AWS", service="Amazon Elastic Compute Cloud", category="Compute",
                  region="us-east-1", qty=5 * 24 * days_in_month(d), unit="Hrs", price=0.0729,
                  billed=5 * 24 * days_in_month(d) * 0.0729,
                  desc="USD 0.0729 hourly fee per Linux/UNIX (Amazon VPC), m6i.xlarge instance (partial upfront RI)",
                  resource="arn:aws:ec2:us-east-1:240019873316:reserved-instances/7e1f0c2a-51b3-4a7c-9d20-8b3c5e6f1a44",
                  rtype="ReservedInstance", sub=subs[0], charge="Purchase", freq="Recurring",
                  commit={"CommitmentDiscountCategory": "Usage", "CommitmentDiscountType": "Reserved Instance",
                          "CommitmentDiscountStatus": "NULL",
                          "CommitmentDiscountId": "arn:aws:ec2:us-east-1:240019873316:reserved-instances/7e1f0c2a-51b3-4a7c-9d20-8b3c5e6f1a44",
                          "CommitmentDiscountName": "NULL"})
            f.add(d, next_month(d), provider="AWS", service="Amazon WorkSpaces", category="End User",
                  region="us-east-1", qty=38, unit="User-Month", price=35.0, desc="Standard bundle, monthly",
                  sub=subs[0], charge="Usage", freq="Recurring")
            for z in ("Z0118237HUXP1Q7", "Z0992310AQ6RLM"):
                f.add(d, next_month(d), provider="AWS", service="Amazon Route 53", category="Networking",
                      region="global", qty=1, unit="HostedZone", price=0.5, resource="arn:aws:route53:::hostedzone/" + z,
                      desc="$0.50 per Hosted Zone", sub=subs[0], freq="Recurring")
        if d.day == 1 and d.month == 1:
            f.add(d, d + dt.timedelta(days=365), provider="AWS", service="AWS Marketplace: Veeam Backup for AWS",
                  category="Storage", region="", qty=1, unit="Subscription", price=0, billed=0.0,
                  desc="Annual subscription renewal (prepaid in 2025, $0 line)", sub=subs[0],
                  charge="Purchase", freq="One-Time", publisher="Veeam Software Group GmbH")
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[],
        levels=["BillingAccountId", "SubAccountId", "ServiceCategory", "ServiceName", "RegionId", "ResourceId"],
        meta=dict(level="none", half="catalogue", fmt="focus.csv daily, 190 days", lag=None,
                  title="month-start habits: Business Support (10% of last month's usage), the partial-"
                        "upfront RI's monthly fee, WorkSpaces monthly bundles and hosted-zone fees all land on the 1st",
                  hard="the alert day (May 1st) is ~13x an ordinary day; the support fee is a little "
                       "higher than April's because usage grew; but every 1st looks the same and "
                       "nothing changed in usage"))


def q_holiday_weekend():
    """Q2 none (data.csv): dev/test shut down over weekends and the year-end freeze; Monday back."""
    rng = random.Random(1952)
    acct = "385500129047"
    days = drange("2024-12-06", 400)          # to 2026-01-09
    alert = "2026-01-05"
    L = []
    def add(csp, svc, app, fam, price, n, **kw):
        L.append(dict(csp=csp, svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    WORK = (1.0, 1.0, 1.0, 1.0, 0.96, 0.05, 0.05)
    add("AWS", "EC2", "dev-envs", "m6i.2xlarge", 0.384, 40, wk=WORK, noise=0.05)
    add("AWS", "EC2", "dev-envs", "t3.xlarge", 0.1664, 60, wk=WORK, noise=0.05)
    add("AWS", "EC2", "ci-runners", "c6i.4xlarge", 0.68, 24, wk=WORK, noise=0.08)
    add("AWS", "RDS", "dev-envs", "db.t4g.large", 0.129, 18, wk=WORK, noise=0.03)
    add("AWS", "EC2", "prod-api", "m6i.xlarge", 0.192, 16, wk=SOFT)
    add("AWS", "RDS", "prod-api", "db.r6g.xlarge", 0.48, 2, noise=0)
    add("Azure", "Virtual Machines", "test-lab", "D8s_v5", 0.384, 14, wk=WORK, noise=0.06)
    add("Azure", "Azure DevTest Labs", "test-lab", "B4ms", 0.166, 20, wk=WORK, noise=0.06)

    def frozen(d):
        return (d.month == 12 and d.day >= 22) or (d.month == 1 and d.day <= 2) or \
            (d.month, d.day) in ((4, 18), (4, 21), (5, 26), (7, 4), (9, 1), (11, 27), (11, 28))

    def ev(ln, i, d):
        if ln.get("wk") is WORK and frozen(d):
            return (1.0, 0.05, None)
        return None
    rows = daily_lines(rng, days, acct, L, ev)
    return dict(
        files={"data.csv": data_csv(rows)},
        anomaly={"date": alert, "account_id": acct},
        truth=[],
        meta=dict(level="none", half="catalogue", fmt="data.csv daily, 400 days", lag=None,
                  title="weekend and holiday habits: dev environments, CI runners and the test lab are "
                        "stopped at weekends, on public holidays and over the year-end freeze "
                        "(22 Dec - 2 Jan); Monday 5 January 2026 everyone is back",
                  hard="the alert day is ~9x the average of the two weeks before it, but it is an ordinary "
                       "working-day level; the same return happened on 3 January 2025 and after "
                       "every weekend"))


def q_tax_credit_gbp():
    """Q3 none (FOCUS, GBP): UK VAT posted on the last day of the month; monthly credits."""
    rng = random.Random(1953)
    acct = "01A7F3-5C2E90-B4D118"
    f = Focus(acct, "Pennant Retail Ltd", currency="GBP", null="",
              id_start=5000000, id_step=13)
    days = drange("2025-09-18", 165)          # to 2026-03-01
    alert = "2026-02-28"
    sub = ("pennant-prod-317", "pennant-prod")
    series = []
    def S(service, cat, reg, res, rtype, unit, price, qty, desc, wk=CONSUMER, noise=0.05):
        series.append(dict(service=service, cat=cat, reg=reg, res=res, rtype=rtype, unit=unit, price=price,
                           qty=qty, desc=desc, wk=wk, noise=noise, sku=sku(rng)))
    S("Compute Engine", "Compute", "europe-west2", "projects/pennant-prod-317/zones/europe-west2-a/instanceGroups/web-mig",
      "InstanceGroup", "hour", 0.236, 24 * 14, "N2 Instance Core + RAM running in London")
    S("Kubernetes Engine", "Compute", "europe-west2", "projects/pennant-prod-317/locations/europe-west2/clusters/shop",
      "Cluster", "hour", 0.079, 24, "Regional Kubernetes Clusters", wk=FLAT, noise=0)
    S("Cloud SQL", "Databases", "europe-west2", "projects/pennant-prod-317/instances/orders-pg", "Instance", "hour",
      0.71, 24, "Cloud SQL for PostgreSQL: Regional - 8 vCPU + 32GB RAM in London", wk=FLAT, noise=0)
    S("Cloud Storage", "Storage", "europe-west2", "projects/_/buckets/pennant-media", "Bucket", "gibibyte month",
      0.02, 18000 / 30, "Standard Storage London", wk=FLAT, noise=0.003)
    S("BigQuery", "Analytics", "europe-west2", "projects/pennant-prod-317/datasets/sales", "Dataset", "tebibyte",
      5.0, 0.9, "Analysis (on-demand)", wk=OFFICE, noise=0.2)
    S("Cloud Load Balancing", "Networking", "global", "projects/pennant-prod-317/global/forwardingRules/shop-https",
      "ForwardingRule", "gibibyte", 0.006, 9000, "Network Internet Egress from London", noise=0.08)
    month_tot = {}
    for i, d in enumerate(days):
        tot = 0.0
        for s in series:
            q = s["qty"] * weekly(d, s["wk"]) * (1 + rng.gauss(0, s["noise"]))
            f.add(d, d + dt.timedelta(days=1), provider="Google Cloud", service=s["service"], category=s["cat"],
                  region=s["reg"], qty=q, unit=s["unit"], price=s["price"], desc=s["desc"], resource=s["res"],
                  rtype=s["rtype"], sub=sub, sku_id=s["sku"], issuer="Google Cloud EMEA Limited",
                  tags={"goog-k8s-cluster-name": "shop"} if s["service"] == "Kubernetes Engine" else None)
            tot += q * s["price"]
        # committed use discount credit (daily, negative) on Compute Engine
        cud = -0.28 * 0.236 * 24 * 14 * weekly(d, CONSUMER) * 0.55
        f.add(d, d + dt.timedelta(days=1), provider="Google Cloud", service="Compute Engine", category="Compute",
              region="europe-west2", qty=0, unit="", price=0, billed=cud, desc="Committed use discount: N2 Core/RAM",
              sub=sub, charge="Credit", freq="Usage-Based", issuer="Google Cloud EMEA Limited")
        tot += cud
        m = month_start(d)
        month_tot[m] = month_tot.get(m, 0.0) + tot
        last = (d + dt.timedelta(days=1)).month != d.month
        if last:
            f.add(d, d + dt.timedelta(days=1), provider="Google Cloud", service="Tax", category="Other",
                  region="", qty=0, unit="", price=0, billed=0.20 * month_tot[m], desc="VAT (20%)", sub=("", ""),
                  charge="Tax", freq="Recurring", issuer="Google Cloud EMEA Limited")
        if d.day == 3:
            # monthly promotional credit from a partner programme (fixed amount)
            f.add(d, d + dt.timedelta(days=1), provider="Google Cloud", service="Cloud Storage", category="Storage",
                  region="europe-west2", qty=0, unit="", price=0, billed=-250.0,
                  desc="Promotional credit: Retail Innovation Programme", sub=sub, charge="Credit",
                  freq="Recurring", issuer="Google Cloud EMEA Limited")
    f.add(D("2025-12-12"), D("2025-12-13"), provider="Google Cloud", service="Cloud SQL", category="Databases",
          region="europe-west2", qty=0, unit="", price=0, billed=-64.80, desc="SLA credit: Cloud SQL availability",
          sub=sub, charge="Adjustment", freq="One-Time", issuer="Google Cloud EMEA Limited")
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[],
        levels=["BillingAccountId", "ServiceCategory", "ServiceName", "RegionId", "ResourceId"],
        meta=dict(level="none", half="catalogue", fmt="focus.csv daily, 165 days, GBP", lag=None,
                  title="tax and credit habits: 20% UK VAT posted as one Tax row on the last day of each "
                        "month, a fixed promotional credit on the 3rd, daily CUD credits, an SLA credit",
                  hard="the alert day (28 Feb) carries February's VAT (a new service name 'Tax' with ~6 "
                       "days' worth of cost on one day); every month-end has it"))


def q_hana_ri_exchange():
    """Q4 none (FOCUS): SAP HANA convertible RI exchanged for a new term; amortised cost flat."""
    rng = random.Random(1954)
    acct = "561920384417"
    f = Focus(acct, "Grauwerk Maschinenbau AG", null="")
    days = drange("2025-03-03", 210)          # to 2025-09-28
    xday = D("2025-09-16")
    alert = "2025-09-16"
    sub = ("561920384417", "gw-sap-prod")
    old_ri = "arn:aws:ec2:eu-central-1:561920384417:reserved-instances/3c9e1b77-2f0a-4c61-8e5d-0a7b1f2c4d91"
    new_ri = "arn:aws:ec2:eu-central-1:561920384417:reserved-instances/a84d20e5-6b3f-47c9-91de-5f0c8b2e7a13"
    hana = ["i-0%s" % hexid(rng, 16) for _ in range(3)]
    app = ["i-0%s" % hexid(rng, 16) for _ in range(6)]
    od = 9.204          # x2iedn.16xlarge on-demand eu-central-1 (rounded)
    old_rate, new_rate = 5.87, 5.71
    for i, d in enumerate(days):
        ri_id = old_ri if d < xday else new_ri
        rate = old_rate if d < xday else new_rate
        for h in hana:
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service="Amazon Elastic Compute Cloud",
                  category="Compute", region="eu-central-1", az="eu-central-1a", qty=24, unit="Hrs", price=0.0,
                  list_price=od, effective=24 * rate, billed=0.0, desc="x2iedn.16xlarge Linux (SAP HANA) - RI covered",
                  resource=h, rtype="Instance", sub=sub, pricing_cat="Committed",
                  commit={"CommitmentDiscountCategory": "Usage", "CommitmentDiscountType": "Reserved Instance",
                          "CommitmentDiscountStatus": "Used", "CommitmentDiscountId": ri_id,
                          "CommitmentDiscountName": ""},
                  tags={"sap-sid": "PRD", "landscape": "production"})
        # the RI's daily recurring fee (no-upfront convertible): carries the billed cost
        f.add(d, d + dt.timedelta(days=1), provider="AWS", service="Amazon Elastic Compute Cloud",
              category="Compute", region="eu-central-1", qty=72, unit="Hrs", price=rate,
              desc="USD %.2f hourly fee per Linux x2iedn.16xlarge (convertible, no upfront)" % rate,
              resource=ri_id, rtype="ReservedInstance", sub=sub, charge="Purchase", freq="Recurring",
              effective=0.0,
              commit={"CommitmentDiscountCategory": "Usage", "CommitmentDiscountType": "Reserved Instance",
                      "CommitmentDiscountStatus": "", "CommitmentDiscountId": ri_id, "CommitmentDiscountName": ""})
        for j, a in enumerate(app):
            q = 24 * (1 if j < 3 else (0.45 if d.weekday() < 5 else 0.0))
            f.add(d, d + dt.timedelta(days=1), provider="AWS", service="Amazon Elastic Compute Cloud",
                  category="Compute", region="eu-central-1", qty=q, unit="Hrs", price=1.152,
                  desc="r6i.4xlarge Linux (SAP application server)", resource=a, rtype="Instance", sub=sub,
                  tags={"sap-sid": "PRD" if j < 3 else "QAS"})
        f.add(d, d + dt.timedelta(days=1), provider="AWS", service="Amazon Elastic Block Store", category="Storage",
              region="eu-central-1", qty=24000 / 30, unit="GB-Mo", price=0.119, desc="io2 storage (HANA data/log)",
              resource="vol-0" + "7f3a9c21e5b84d06", rtype="Volume", sub=sub)
        f.add(d, d + dt.timedelta(days=1), provider="AWS", service="Amazon Elastic Block Store", category="Storage",
              region="eu-central-1", qty=64000 / 30, unit="IOPS-Mo", price=0.078, desc="io2 provisioned IOPS",
              resource="vol-0" + "7f3a9c21e5b84d06", rtype="Volume", sub=sub)
        f.add(d, d + dt.timedelta(days=1), provider="AWS", service="AWS Backup", category="Storage",
              region="eu-central-1", qty=(52000 + 40 * i) / 30 * (1 + rng.gauss(0, 0.002)), unit="GB-Mo",
              price=0.0569, desc="Backup warm storage", sub=sub)
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[],
        levels=["BillingAccountId", "ServiceCategory", "ServiceName", "RegionId", "ResourceId"],
        meta=dict(level="none", half="novel", fmt="focus.csv daily, 210 days", lag=None,
                  title="SAP HANA reservation exchange (normal): the convertible RI covering three "
                        "x2iedn.16xlarge HANA nodes is exchanged for a new no-upfront term at a "
                        "slightly lower hourly fee",
                  hard="on the alert day a new ResourceId (the new RI) appears carrying ~$411/day of "
                       "billed cost and the old RI's fee line disappears; total billed and effective "
                       "cost go down slightly (~1%); usage unchanged"))


def q_black_friday():
    """Q5 none (data.csv): Black Friday peak, the same shape as last year's."""
    rng = random.Random(1955)
    acct = "506617230094"
    days = drange("2024-10-25", 400)          # to 2025-11-28
    alert = "2025-11-28"
    L = []
    def add(csp, svc, app, fam, price, n, **kw):
        L.append(dict(csp=csp, svc=svc, app=app, fam=fam, price=price, n=n, **kw))
    add("AWS", "EC2", "storefront", "c7g.2xlarge", 0.289, 40, wk=CONSUMER, trend=0.0003)
    add("AWS", "EC2", "storefront", "m7g.xlarge", 0.163, 24, wk=CONSUMER, trend=0.0003)
    add("AWS", "EKS", "checkout", "c7g.xlarge", 0.1445, 30, wk=CONSUMER, trend=0.0003)
    add("AWS", "EKS", "catalog", "m7g.large", 0.0816, 26, wk=CONSUMER, trend=0.0003)
    add("AWS", "ElastiCache", "checkout", "cache.r7g.large", 0.219, 6, noise=0)
    add("AWS", "RDS", "checkout", "db.r7g.2xlarge", 0.955, 3, noise=0)
    add("AWS", "OpenSearch", "catalog", "r7g.large.search", 0.167, 6, noise=0)
    add("AWS", "EC2", "back-office", "m7i.large", 0.1008, 10, wk=OFFICE)

    def peak(d):
        # factors relative to normal: week-before ramp, Thanksgiving, Black Friday, weekend, Cyber Monday
        for bf in (D("2024-11-29"), D("2025-11-28")):
            k = (d - bf).days
            table = {-7: 1.15, -6: 1.2, -5: 1.3, -4: 1.45, -3: 1.6, -2: 1.7, -1: 1.9, 0: 2.45, 1: 2.1, 2: 1.9,
                     3: 2.3, 4: 1.5, 5: 1.3}
            if k in table:
                return table[k]
        if (d.month == 12 and 1 <= d.day <= 20):
            return 1.2
        return 1.0

    def ev(ln, i, d):
        if ln["app"] in ("storefront", "checkout", "catalog") and ln.get("wk") is CONSUMER:
            return (1.0, peak(d), None)
        if ln["app"] == "checkout" and ln["svc"] in ("ElastiCache", "RDS"):
            # read replicas added each year from 20 Nov to 8 Dec (pre-scaling runbook)
            if (d.month == 11 and d.day >= 20) or (d.month == 12 and d.day <= 8):
                return (1.0, 1.67, None)
        return None
    rows = daily_lines(rng, days, acct, L, ev)
    return dict(
        files={"data.csv": data_csv(rows)},
        anomaly={"date": alert, "account_id": acct},
        truth=[],
        meta=dict(level="none", half="novel", fmt="data.csv daily, 400 days", lag=None,
                  title="yearly seasonality: Black Friday 2025, with the pre-scaling runbook (cache and "
                        "database replicas from 20 Nov) and the same week-long ramp as Black Friday 2024",
                  hard="the alert day is ~2x the October level and several applications and families "
                       "rise together; only the year-old history (same weekday-aligned shape) shows "
                       "it is the normal yearly peak; the export ends on the alert day"))


def q_gcp_sud():
    """Q6 none (FOCUS): GCP sustained-use discounts deepen through the month and reset on the 1st."""
    rng = random.Random(1956)
    acct = "0193C4-77A2B1-E0F5D3"
    f = Focus(acct, "Tidewater Labs", null="")
    t_start = dt.datetime(2025, 4, 14, 9)     # first day partial (export starts at 09:00)
    days = drange("2025-04-14", 113)          # to 2025-08-04
    alert = "2025-08-01"
    sub = ("tidewater-sim-prod", "tidewater-sim-prod")
    vms = [("sim-worker-%02d" % j, "n1-standard-16", 0.76, "N1 Predefined Instance Core+RAM running in Americas")
           for j in range(8)]
    vms += [("render-%02d" % j, "n2-standard-8", 0.3885, "N2 Instance Core+RAM running in Americas") for j in range(4)]
    vms += [("web-%02d" % j, "e2-standard-4", 0.134, "E2 Instance Core+RAM running in Americas") for j in range(3)]
    sk = {v[0]: sku(rng) for v in vms}
    for i, d in enumerate(days):
        hrs = 15 if i == 0 else 24
        start = t_start if i == 0 else d
        dom = d.day
        dim = days_in_month(d)
        for name, mt, price, desc in vms:
            res = "projects/tidewater-sim-prod/zones/us-central1-b/instances/" + name
            f.add(start, d + dt.timedelta(days=1), provider="Google Cloud", service="Compute Engine", category="Compute",
                  region="us-central1", az="us-central1-b", qty=hrs, unit="hour", price=price, desc=desc,
                  resource=res, rname=name, rtype="Instance", sub=sub, sku_id=sk[name],
                  tags={"workload": name.split("-")[0]})
            # sustained use discount credit for the day: incremental tiers by share of the month used
            if mt.startswith("e2"):
                continue
            tiers = [(0.25, 1.0), (0.5, 0.8), (0.75, 0.6), (1.0, 0.4)] if mt.startswith("n1") else \
                [(0.25, 1.0), (0.5, 0.8667), (0.75, 0.7333), (1.0, 0.6)]
            a = (dom - 1) / dim
            b = dom / dim
            if i == 0:
                a = (dom - 1 + 9 / 24) / dim
            paid = 0.0
            lo = 0.0
            for hi, m in tiers:
                ov = max(0.0, min(b, hi) - max(a, lo))
                paid += ov * m
                lo = hi
            frac_paid = paid / (b - a)
            credit = -(1 - frac_paid) * price * hrs
            if credit < -1e-9:
                f.add(start, d + dt.timedelta(days=1), provider="Google Cloud", service="Compute Engine",
                      category="Compute", region="us-central1", qty=0, unit="", price=0, billed=credit,
                      desc="Sustained Usage Discount", resource=res, rname=name, rtype="Instance", sub=sub,
                      charge="Credit", freq="Usage-Based", sku_id=sk[name], tags={"workload": name.split("-")[0]})
        f.add(start, d + dt.timedelta(days=1), provider="Google Cloud", service="Cloud Storage", category="Storage",
              region="us-central1", qty=(210000 + 300 * i) / 30, unit="gibibyte month", price=0.02,
              desc="Standard Storage US Regional", resource="projects/_/buckets/tidewater-sim-results", sub=sub)
        f.add(start, d + dt.timedelta(days=1), provider="Google Cloud", service="Cloud Logging", category="Management and Governance",
              region="global", qty=max(0.0, 0.0 if d.day == 1 else 0.0), unit="gibibyte", price=0.5,
              desc="Log Volume (first 50 GiB free)", sub=sub)
    return dict(
        files={"focus.csv": f.text()},
        anomaly={"date": alert, "account_id": acct},
        truth=[],
        levels=["BillingAccountId", "ServiceCategory", "ServiceName", "RegionId", "ResourceId"],
        meta=dict(level="none", half="novel", fmt="focus.csv daily, 113 days, first day partial", lag=None,
                  title="GCP sustained-use discounts: N1/N2 credits deepen through each month (up to "
                        "60%/40% off the last week) and reset to zero on the 1st",
                  hard="the net daily cost jumps ~+40% from 31 July to 1 August on every N1/N2 "
                       "instance at once; the same jump happens on 1 May, 1 June, 1 July; gross usage "
                       "is constant; zero-cost Cloud Logging lines"))


SCENARIOS = [
    s_oracle_credits,        # 1
    q_month_start_fees,      # 2
    s_ri_expiry_family,      # 3
    s_dr_drill_region,       # 4
    s_athena_app,            # 5
    s_cloudwatch_metrics,    # 6
    q_gcp_sud,               # 7
    s_bastion_scale,         # 8
    s_aks_autoscaler,        # 9
    s_windows_li,            # 10
    s_new_region,            # 11
    q_holiday_weekend,       # 12
    s_azure_ea_price,        # 13
    s_reco_batch_app,        # 14
    s_route53_retry,         # 15
    q_hana_ri_exchange,      # 16
    s_snowflake_xl,          # 17
    s_nat_egress_resource,   # 18
    q_tax_credit_gbp,        # 19
    s_spot_fallback_region,  # 20
    s_gcp_onboarded,         # 21
    q_black_friday,          # 22
    s_search_v2_app,         # 23
]


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    index = []
    for n, fn in enumerate(SCENARIOS, 1):
        sc = fn()
        d = os.path.join(out, "Scenario-%d" % n)
        os.makedirs(d, exist_ok=True)
        for name, text in sc["files"].items():
            with open(os.path.join(d, name), "w", newline="") as fh:
                fh.write(text)
        with open(os.path.join(d, "anomaly.json"), "w") as fh:
            json.dump(sc["anomaly"], fh)
            fh.write("\n")
        with open(os.path.join(d, "ground_truth.yaml"), "w") as fh:
            fh.write(gt_yaml(sc["truth"]))
        meta = {"generator": "finops-set19", "levels": sc["levels"]} if sc.get("levels") else \
            {"generator": "finops-set19"}
        with open(os.path.join(d, "scenario.json"), "w") as fh:
            json.dump(meta, fh, indent=2)
            fh.write("\n")
        m = sc["meta"]
        index.append({"scenario": "Scenario-%d" % n, "function": fn.__name__, "truth": sc["truth"],
                      "alert": sc["anomaly"]["date"], **m})
    return index


if __name__ == "__main__":
    main()
