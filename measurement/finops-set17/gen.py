#!/usr/bin/env python3
"""finops-set17: held-out FinOps billing scenarios (stdlib only, deterministic).

Usage: python gen.py OUT   -> writes OUT/Scenario-<N>/{data.csv|focus.csv, anomaly.json,
ground_truth.yaml[, scenario.json]}
"""
import csv
import datetime as dt
import json
import math
import os
import random
import sys

D = dt.date
T = dt.datetime
DAY = dt.timedelta(days=1)
HOUR = dt.timedelta(hours=1)

LITE_COLS = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
             "Price ($/hr)", "Num_Instances", "unblended_cost"]

FOCUS_COLS = ["AvailabilityZone", "BilledCost", "BillingAccountId", "BillingAccountName",
              "BillingCurrency", "BillingPeriodEnd", "BillingPeriodStart", "ChargeCategory",
              "ChargeClass", "ChargeDescription", "ChargeFrequency", "ChargePeriodEnd",
              "ChargePeriodStart", "CommitmentDiscountCategory", "CommitmentDiscountId",
              "CommitmentDiscountName", "CommitmentDiscountStatus", "CommitmentDiscountType",
              "ConsumedQuantity", "ConsumedUnit", "ContractedCost", "ContractedUnitPrice",
              "EffectiveCost", "InvoiceIssuerName", "ListCost", "ListUnitPrice",
              "PricingCategory", "PricingQuantity", "PricingUnit", "ProviderName",
              "PublisherName", "RegionId", "RegionName", "ResourceId", "ResourceName",
              "ResourceType", "ServiceCategory", "Id", "ServiceName", "SkuId", "SkuPriceId",
              "SubAccountId", "SubAccountName", "Tags"]

FOCUS_LEVELS = ["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName",
                "RegionId", "ResourceId"]


# ----------------------------------------------------------------------------- helpers
def drange(a, b):
    d = a
    while d <= b:
        yield d
        d += DAY


def week(mon, tue, wed, thu, fri, sat, sun):
    f = (mon, tue, wed, thu, fri, sat, sun)
    return lambda d: f[d.weekday()]


FLAT = lambda d: 1.0  # noqa: E731
OFFICE = week(1.0, 1.02, 1.03, 1.02, 0.97, 0.55, 0.5)
SOFTWEEK = week(1.0, 1.0, 1.01, 1.0, 0.98, 0.86, 0.84)


def month_start(d):
    return d.replace(day=1)


def next_month(d):
    return (d.replace(day=28) + dt.timedelta(days=4)).replace(day=1)


def yaml_truth(resources):
    if not resources:
        return "resource: []\n"
    out = "resource:\n"
    for name, typ in resources:
        out += f"- name: {json.dumps(name)}\n  type: {typ}\n"
    return out


def write_common(sdir, alert, account, truth, scen_json):
    os.makedirs(sdir, exist_ok=True)
    with open(os.path.join(sdir, "anomaly.json"), "w", newline="\n") as f:
        json.dump({"date": alert.isoformat(), "account_id": str(account)}, f)
    with open(os.path.join(sdir, "ground_truth.yaml"), "w", newline="\n") as f:
        f.write(yaml_truth(truth))
    if scen_json is not None:
        with open(os.path.join(sdir, "scenario.json"), "w", newline="\n") as f:
            json.dump(scen_json, f, indent=2)
            f.write("\n")


# ----------------------------------------------------------------------------- ITBench-Lite
class LiteLine:
    """One (CSP, service, application, family) series of a Lite daily export."""

    def __init__(self, csp, svc, app, fam, price, n, prof=FLAT, noise=0.04, growth=0.0,
                 first=None, last=None, mod=None, minimum=0, hours=None):
        self.csp, self.svc, self.app, self.fam = csp, svc, app, fam
        self.price, self.n, self.prof, self.noise = price, n, prof, noise
        self.growth, self.first, self.last, self.mod = growth, first, last, mod
        self.minimum, self.hours = minimum, hours


def lite_bill(path, rng, account, start, end, lines, extra=None, shuffle=False,
              price_fmt="{:.4f}", cost_fmt="{:.4f}", edge_hours=None):
    """edge_hours: {date: hours} for partial days at the export edges."""
    rows = []
    edge_hours = edge_hours or {}
    for i, d in enumerate(drange(start, end)):
        for ln in lines:
            if ln.first and d < ln.first:
                continue
            if ln.last and d > ln.last:
                continue
            base = ln.n * ln.prof(d) * ((1.0 + ln.growth) ** i)
            if ln.noise:
                base *= 1.0 + rng.gauss(0, ln.noise)
            n = max(ln.minimum, int(round(base)))
            price = ln.price
            hours = edge_hours.get(d, 24)
            if ln.hours is not None:
                hours = min(hours, ln.hours(d))
            if ln.mod:
                r = ln.mod(d, n, price)
                if r is None:
                    continue
                n, price = r
            if n <= 0:
                continue
            cost = price * n * hours
            rows.append([d.isoformat(), account, ln.csp, ln.svc, ln.app, ln.fam,
                         price_fmt.format(price), str(n), cost_fmt.format(cost)])
        if extra:
            for r in extra(d, i):
                rows.append([d.isoformat(), account] + r)
    if shuffle:
        rng.shuffle(rows)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(LITE_COLS)
        w.writerows(rows)
    return len(rows)


# ----------------------------------------------------------------------------- FOCUS
class FLine:
    """One priced series of a FOCUS export (one resource x SKU)."""

    def __init__(self, prov, svc, cat, region, rid, sku, desc, unit, price, qty,
                 rname=None, rtype=None, pub=None, az=None, sub=None, tags=None,
                 prof=None, hprof=None, noise=0.03, growth=0.0, first=None, last=None,
                 mod=None, charge="Usage", freq="Usage-Based", pricing="Standard",
                 list_price=None, qround=None, regionname=None):
        self.prov, self.svc, self.cat, self.region, self.rid = prov, svc, cat, region, rid
        self.sku, self.desc, self.unit, self.price, self.qty = sku, desc, unit, price, qty
        self.rname, self.rtype, self.pub, self.az, self.sub = rname, rtype, pub, az, sub
        self.tags, self.prof, self.hprof, self.noise = tags, prof or FLAT, hprof, noise
        self.growth, self.first, self.last, self.mod = growth, first, last, mod
        self.charge, self.freq, self.pricing = charge, freq, pricing
        self.list_price = list_price
        self.qround = qround
        self.regionname = regionname


class FocusBill:
    def __init__(self, rng, account, account_name, issuer, currency="USD", null="NULL",
                 qfmt="{:.6f}", cfmt="{:.8f}"):
        self.rng, self.account, self.account_name = rng, account, account_name
        self.issuer, self.currency, self.null = issuer, currency, null
        self.qfmt, self.cfmt = qfmt, cfmt
        self.rows = []
        self.next_id = rng.randint(10000, 90000)

    def _ts(self, t):
        return t.strftime("%Y-%m-%d %H:%M:%S")

    def add(self, ln, t0, t1, qty, price=None, list_price=None, desc=None, charge=None,
            freq=None):
        price = ln.price if price is None else price
        lp = list_price if list_price is not None else (ln.list_price if ln.list_price is not None else price)
        if lp is None:
            lp = price
        cost = qty * price
        lcost = qty * lp
        bp0 = T(t0.year, t0.month, 1)
        nm = next_month(t0.date())
        bp1 = T(nm.year, nm.month, 1)
        N = self.null
        sub = ln.sub or (N, N)
        tags = json.dumps(ln.tags, sort_keys=True) if ln.tags else N
        charge = charge or ln.charge
        row = {
            "AvailabilityZone": ln.az or N,
            "BilledCost": self.cfmt.format(cost),
            "BillingAccountId": self.account,
            "BillingAccountName": self.account_name,
            "BillingCurrency": self.currency,
            "BillingPeriodEnd": self._ts(bp1),
            "BillingPeriodStart": self._ts(bp0),
            "ChargeCategory": charge,
            "ChargeClass": N,
            "ChargeDescription": desc or ln.desc,
            "ChargeFrequency": freq or ln.freq,
            "ChargePeriodEnd": self._ts(t1),
            "ChargePeriodStart": self._ts(t0),
            "CommitmentDiscountCategory": N,
            "CommitmentDiscountId": N,
            "CommitmentDiscountName": N,
            "CommitmentDiscountStatus": N,
            "CommitmentDiscountType": N,
            "ConsumedQuantity": self.qfmt.format(qty) if charge == "Usage" else N,
            "ConsumedUnit": ln.unit if charge == "Usage" else N,
            "ContractedCost": self.cfmt.format(cost),
            "ContractedUnitPrice": self.cfmt.format(price),
            "EffectiveCost": self.cfmt.format(cost),
            "InvoiceIssuerName": self.issuer,
            "ListCost": self.cfmt.format(lcost),
            "ListUnitPrice": fnum(lp),
            "PricingCategory": ln.pricing,
            "PricingQuantity": self.qfmt.format(qty),
            "PricingUnit": ln.unit,
            "ProviderName": ln.prov,
            "PublisherName": ln.pub or ln.prov,
            "RegionId": ln.region or N,
            "RegionName": ln.regionname or REGION_NAMES.get(ln.region, ln.region) or N,
            "ResourceId": ln.rid or N,
            "ResourceName": ln.rname or N,
            "ResourceType": ln.rtype or N,
            "ServiceCategory": ln.cat,
            "Id": str(self.next_id),
            "ServiceName": ln.svc,
            "SkuId": ln.sku,
            "SkuPriceId": ln.sku + "." + ("OD" if ln.pricing == "Standard" else "CM"),
            "SubAccountId": sub[0],
            "SubAccountName": sub[1],
            "Tags": tags,
        }
        self.next_id += 1
        self.rows.append(row)

    def usage(self, lines, t_start, t_end, hourly):
        """Emit usage rows from t_start (inclusive) to t_end (exclusive)."""
        step = HOUR if hourly else DAY
        t = t_start
        i = 0
        while t < t_end:
            t1 = min(t + step, t_end) if hourly else min(T(t.year, t.month, t.day) + DAY, t_end)
            frac = (t1 - t) / step
            d = t.date()
            for ln in lines:
                part = 1.0
                if ln.first and ln.first > t:
                    if ln.first >= t1:
                        continue
                    part *= (t1 - ln.first) / (t1 - t)
                if ln.last and ln.last < t1:
                    if ln.last <= t:
                        continue
                    part *= (ln.last - t) / (t1 - t)
                q = ln.qty * ln.prof(d) * part
                if hourly and ln.hprof:
                    q *= ln.hprof(t.hour, d)
                q *= (1.0 + ln.growth) ** ((t - t_start) / DAY)
                if ln.noise:
                    q *= max(0.0, 1.0 + self.rng.gauss(0, ln.noise))
                q *= frac
                price = ln.price
                if ln.mod:
                    r = ln.mod(t, q, price)
                    if r is None:
                        continue
                    q, price = r
                if ln.qround:
                    q = round(q / ln.qround) * ln.qround
                if q <= 0:
                    continue
                self.add(ln, t, t1, q, price)
            t = t1
            i += 1

    def write(self, path, shuffle=False, sort_key=None):
        rows = self.rows
        if shuffle:
            self.rng.shuffle(rows)
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FOCUS_COLS, lineterminator="\n",
                               quoting=csv.QUOTE_MINIMAL)
            w.writeheader()
            for r in rows:
                w.writerow(r)
        return len(rows)


REGION_NAMES = {
    "us-east-1": "US East (N. Virginia)", "us-east-2": "US East (Ohio)",
    "us-west-2": "US West (Oregon)", "eu-west-1": "Europe (Ireland)",
    "eu-central-1": "Europe (Frankfurt)", "ap-southeast-1": "Asia Pacific (Singapore)",
    "ap-southeast-3": "Asia Pacific (Jakarta)", "ap-northeast-1": "Asia Pacific (Tokyo)",
    "sa-east-1": "South America (Sao Paulo)", "eu-north-1": "Europe (Stockholm)",
    "northeurope": "North Europe", "westeurope": "West Europe", "uksouth": "UK South",
    "eastus2": "East US 2", "swedencentral": "Sweden Central",
    "us-central1": "Iowa", "europe-west1": "Belgium", "asia-northeast1": "Tokyo",
    "europe-west4": "Netherlands", "us-east4": "Northern Virginia",
    "eu-frankfurt-1": "Germany Central (Frankfurt)", "eu-amsterdam-1": "Netherlands Northwest (Amsterdam)",
    "uk-london-1": "UK South (London)",
    "eu-de": "Frankfurt", "us-south": "Dallas", "eu-central-2": "Europe (Amsterdam)",
    "us-east-1-wasabi": "US East 1 (N. Virginia)",
}


def fnum(x):
    s = f"{x:.10f}".rstrip("0").rstrip(".")
    return s if s not in ("", "-0") else "0"


def hex_id(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def daynight(peak=1.35, trough=0.6, peak_hour=14):
    def f(h, d):
        x = math.cos((h - peak_hour) / 24.0 * 2 * math.pi)
        return trough + (peak - trough) * (x + 1) / 2
    return f


def business_hours(on=1.0, off=0.08, start=7, stop=19, weekend=0.05):
    def f(h, d):
        if d.weekday() >= 5:
            return weekend
        return on if start <= h < stop else off
    return f


# ============================================================================= scenarios
# Each returns a dict for the summary: truth, alert kind.  Lite bills: data.csv.

def sc_aks_os_disk(sdir, rng):
    """Family: AKS node pools' OS disks moved from Standard SSD E10 to Premium SSD P30."""
    acct = "550731904418"
    start, sw = D(2025, 6, 3), D(2025, 9, 16)
    alert = sw + DAY
    end = alert
    lines = []

    def e10(d, n, p):
        if d > sw:
            return None
        return ((n + 1) // 2 if d == sw else n), p

    def p30(d, n, p):
        return ((n + 1) // 2 if d == sw else n), p

    pools = [("checkout-api", "D4s_v5", 0.192, 14, SOFTWEEK),
             ("search-api", "D8s_v5", 0.384, 8, FLAT),
             ("batch-scoring", "F8s_v2", 0.338, 10, OFFICE),
             ("ml-inference", "NC4as_T4_v3", 0.526, 4, FLAT)]
    for app, fam, price, n, prof in pools:
        lines.append(LiteLine("Azure", "AKS", app, fam, price, n, prof, 0.05))
        # OS disk per node; same node count profile (seeded separately)
        lines.append(LiteLine("Azure", "ManagedDisks", app, "E10", 0.0132, n, prof, 0.05, mod=e10))
        lines.append(LiteLine("Azure", "ManagedDisks", app, "P30", 0.1852, n, prof, 0.05,
                              first=sw, mod=p30))
    lines += [
        LiteLine("Azure", "VirtualMachines", "ledger-db", "E16ds_v5", 1.152, 2, noise=0),
        LiteLine("Azure", "ManagedDisks", "ledger-db", "P30", 0.1852, 6, noise=0),
        LiteLine("Azure", "SQLDatabase", "billing", "GP_Gen5_8", 2.016, 1, noise=0),
        LiteLine("Azure", "VirtualMachines", "jumpbox", "B2ms", 0.0832, 2, noise=0),
        LiteLine("Azure", "ManagedDisks", "jumpbox", "E10", 0.0132, 2, noise=0),
    ]
    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines)
    write_common(sdir, alert, acct, [("P30", "Instance_Family")], None)
    return n


def sc_dataproc_policy(sdir, rng):
    """Service: Dataproc autoscaling policy detached -> every Dataproc cluster pinned at max."""
    acct = "804417725963"
    start, sw = D(2025, 2, 10), D(2025, 5, 8)
    alert, end = sw, sw
    step = D(2025, 4, 2)  # planned GKE scale step for recommendations (normal)

    def pinned(maxn):
        def f(d, n, p):
            if d >= sw:
                return maxn + rng.choice((0, 0, 0, -1)), p
            return n, p
        return f

    def rec_step(d, n, p):
        return (int(round(n * 1.5)) if d >= step else n), p

    lines = [
        LiteLine("GCP", "ComputeEngine", "web-frontend", "n2-standard-4", 0.1942, 18, SOFTWEEK),
        LiteLine("GCP", "ComputeEngine", "api-gateway", "e2-standard-8", 0.2681, 10, SOFTWEEK),
        LiteLine("GCP", "GKE", "web-frontend", "e2-standard-4", 0.1340, 24, SOFTWEEK),
        LiteLine("GCP", "GKE", "recommendations", "n2-highmem-8", 0.5240, 6, FLAT, 0.03, mod=rec_step),
        LiteLine("GCP", "Dataproc", "etl-nightly", "n2-standard-8", 0.3885, 12, OFFICE, 0.12,
                 mod=pinned(34)),
        LiteLine("GCP", "Dataproc", "fraud-features", "n2-highmem-8", 0.5240, 8, FLAT, 0.15,
                 mod=pinned(22)),
        LiteLine("GCP", "Dataproc", "ad-attribution", "n2-standard-16", 0.7770, 6, OFFICE, 0.15,
                 mod=pinned(16)),
        LiteLine("GCP", "CloudSQL", "orders", "db-custom-8-32768", 0.6200, 1, noise=0),
        LiteLine("GCP", "CloudSQL", "ledger", "db-custom-4-16384", 0.3100, 2, noise=0),
    ]
    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines)
    write_common(sdir, alert, acct, [("Dataproc", "Cloud_Service")], None)
    return n


def sc_doc_ocr(sdir, rng):
    """Application: doc-ocr works through a new customer's scanned-document backlog (ramp)."""
    acct = "271906338150"
    start, sw = D(2025, 8, 25), D(2025, 11, 3)
    alert = sw + 3 * DAY
    end = alert
    ramp = {0: 1.6, 1: 2.4}

    def backlog(d, n, p):
        if d < sw:
            return n, p
        k = (d - sw).days
        return int(round(n * ramp.get(k, 3.0 + rng.uniform(-0.1, 0.1)))), p

    lines = [
        LiteLine("AWS", "EKS", "doc-ocr", "c6i.2xlarge", 0.340, 10, SOFTWEEK, mod=backlog),
        LiteLine("AWS", "EKS", "doc-ocr", "g5.xlarge", 1.006, 3, FLAT, 0.0, mod=backlog),
        LiteLine("AWS", "EC2", "doc-ocr", "r6i.large", 0.126, 4, FLAT, 0.05, mod=backlog),
        LiteLine("AWS", "RDS", "doc-ocr", "db.r6g.xlarge", 0.430, 1, noise=0),
        LiteLine("AWS", "EKS", "web-portal", "c6i.2xlarge", 0.340, 14, SOFTWEEK),
        LiteLine("AWS", "EKS", "notifications", "m6i.large", 0.096, 8, FLAT),
        LiteLine("AWS", "EC2", "reporting", "r6i.large", 0.126, 6, OFFICE, 0.06),
        LiteLine("AWS", "EC2", "bastion", "t3.micro", 0.0104, 2, noise=0),
        LiteLine("AWS", "RDS", "web-portal", "db.r6g.2xlarge", 0.860, 1, noise=0),
        LiteLine("AWS", "ElastiCache", "notifications", "cache.m6g.large", 0.149, 2, noise=0),
    ]
    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines, shuffle=False)
    write_common(sdir, alert, acct, [("doc-ocr", "Application")], None)
    return n


def sc_payroll_quiet(sdir, rng):
    """Quiet: weekly payroll batch every Thursday (Wednesday in Thanksgiving week)."""
    acct = "390218447761"
    start, end = D(2025, 6, 1), D(2025, 12, 18)
    alert = end  # a Thursday

    def payday(d):
        if d == D(2025, 11, 26):
            return True
        if d == D(2025, 11, 27):
            return False
        return d.weekday() == 3

    def batch(d, n, p):
        return (n, p) if payday(d) else None

    lines = [
        LiteLine("Azure", "Batch", "payroll-run", "F16s_v2", 0.677, 30, FLAT, 0.03, growth=0.0004,
                 mod=batch, hours=lambda d: 10),
        LiteLine("Azure", "Batch", "payroll-run", "D2s_v5", 0.096, 2, noise=0),
        LiteLine("Azure", "AKS", "timesheets", "D4s_v5", 0.192, 8, OFFICE, 0.05),
        LiteLine("Azure", "SQLDatabase", "payroll-db", "GP_Gen5_4", 1.008, 1, noise=0),
        LiteLine("Azure", "AppService", "hr-portal", "P1v3", 0.169, 4, OFFICE, 0.0),
        LiteLine("AWS", "EC2", "hr-portal", "m6i.large", 0.096, 6, SOFTWEEK, 0.04),
        LiteLine("AWS", "EC2", "benefits-sync", "t3.medium", 0.0416, 3, noise=0),
        LiteLine("AWS", "RDS", "benefits-sync", "db.t4g.large", 0.129, 1, noise=0),
    ]
    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines)
    write_common(sdir, alert, acct, [], None)
    return n


def sc_acquisition_gcp(sdir, rng):
    """Provider: an acquired company's GCP projects are moved onto this billing account."""
    acct = "663014279805"
    start, cs = D(2024, 11, 20), D(2025, 4, 16)
    alert, end = cs, cs + DAY
    lines = [
        LiteLine("AWS", "EC2", "storefront", "m6i.xlarge", 0.192, 20, SOFTWEEK),
        LiteLine("AWS", "EKS", "order-api", "c6i.xlarge", 0.170, 12, SOFTWEEK),
        LiteLine("AWS", "RDS", "order-api", "db.r6g.2xlarge", 0.860, 1, noise=0),
        LiteLine("Azure", "AKS", "analytics", "D8s_v5", 0.384, 10, OFFICE, 0.05),
        LiteLine("Azure", "SQLDatabase", "reporting", "GP_Gen5_4", 1.008, 1, noise=0),
        LiteLine("GCP", "ComputeEngine", "maps-api", "n2-standard-4", 0.1942, 6, SOFTWEEK),
        LiteLine("GCP", "GKE", "geo-pipeline", "e2-standard-8", 0.2681, 8, FLAT),
        LiteLine("GCP", "CloudSQL", "geo-db", "db-custom-4-16384", 0.3100, 2, noise=0),
        # acquired projects (new apps on the same and new GCP services)
        LiteLine("GCP", "ComputeEngine", "routing-engine", "c2-standard-8", 0.4176, 14, SOFTWEEK,
                 first=cs),
        LiteLine("GCP", "ComputeEngine", "tile-render", "n2-standard-4", 0.1942, 20, FLAT, 0.06,
                 first=cs),
        LiteLine("GCP", "GKE", "tile-render", "e2-standard-8", 0.2681, 12, FLAT, first=cs),
        LiteLine("GCP", "CloudSQL", "fleet-db", "db-custom-8-32768", 0.6200, 2, noise=0, first=cs),
        LiteLine("GCP", "Dataflow", "telemetry-ingest", "n1-standard-4", 0.1900, 10, FLAT, 0.08,
                 first=cs),
    ]
    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines,
                  edge_hours={end: 11})
    write_common(sdir, alert, acct, [("GCP", "CSP")], None)
    return n


def sc_t3_unlimited(sdir, rng):
    """Family: shared t3.large launch template gets an AMI whose EDR agent pins CPU ->
    T3 Unlimited surplus credits raise the effective t3.large rate in every app."""
    acct = "118862470395"
    start, sw = D(2025, 3, 3), D(2025, 6, 10)
    alert = end = sw

    def surplus(d, n, p):
        return (n, 0.1432) if d >= sw else (n, p)

    lines = [
        LiteLine("AWS", "EC2", "web", "t3.large", 0.0832, 24, SOFTWEEK, mod=surplus),
        LiteLine("AWS", "EC2", "web", "m6i.large", 0.096, 6, FLAT),
        LiteLine("AWS", "EKS", "jobs", "t3.large", 0.0832, 12, OFFICE, 0.06, mod=surplus),
        LiteLine("AWS", "EKS", "jobs", "c6i.xlarge", 0.170, 4, FLAT),
        LiteLine("AWS", "EC2", "internal-tools", "t3.large", 0.0832, 8, FLAT, 0.02, mod=surplus),
        LiteLine("AWS", "EC2", "internal-tools", "t3.medium", 0.0416, 10, FLAT),
        LiteLine("AWS", "EC2", "search", "r6i.xlarge", 0.252, 6, FLAT, 0.02),
        LiteLine("AWS", "RDS", "web", "db.m6g.large", 0.152, 2, noise=0),
    ]
    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines)
    write_common(sdir, alert, acct, [("t3.large", "Instance_Family")], None)
    return n


def sc_kiosk_sync(sdir, rng):
    """Application: kiosk-sync polling interval cut from 15 min to 1 min (config push)."""
    acct = "702245188930"
    start, sw = D(2025, 4, 14), D(2025, 10, 9)
    alert = end = sw

    def scale(target):
        def f(d, n, p):
            return (target, p) if d >= sw else (n, p)
        return f

    lines = [
        LiteLine("Azure", "AppService", "kiosk-sync", "P2v3", 0.338, 3, noise=0, mod=scale(12)),
        LiteLine("Azure", "AppService", "web-portal", "P2v3", 0.338, 4, SOFTWEEK, 0.05),
        LiteLine("Azure", "Functions", "kiosk-sync", "EP2", 0.346, 2, noise=0, mod=scale(10)),
        LiteLine("Azure", "Functions", "notifications", "EP1", 0.173, 2, noise=0),
        LiteLine("Azure", "ServiceBus", "kiosk-sync", "Premium-MU", 0.928, 1, noise=0, mod=scale(4)),
        LiteLine("Azure", "ServiceBus", "orders", "Premium-MU", 0.928, 1, noise=0),
        LiteLine("Azure", "SQLDatabase", "kiosk-sync", "GP_Gen5_8", 2.016, 1, noise=0),
        LiteLine("Azure", "SQLDatabase", "orders", "GP_Gen5_8", 2.016, 1, noise=0),
        LiteLine("Azure", "VirtualMachines", "build-agents", "D4s_v5", 0.192, 3, OFFICE, 0.1),
    ]
    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines)
    write_common(sdir, alert, acct, [("kiosk-sync", "Application")], None)
    return n


def sc_rhel_image(sdir, rng):
    """Family: golden image for m6i.2xlarge fleets switched from Amazon Linux to RHEL 9."""
    acct = "935520614287"
    start, sw = D(2025, 1, 6), D(2025, 8, 27)
    alert = end = sw

    def rhel(d, n, p):
        return (n, 0.5136) if d >= sw else (n, p)

    lines = [
        LiteLine("AWS", "EC2", "checkout", "m6i.2xlarge", 0.384, 40, SOFTWEEK, mod=rhel),
        LiteLine("AWS", "EC2", "checkout", "c6i.xlarge", 0.170, 10, SOFTWEEK),
        LiteLine("AWS", "EC2", "catalog", "m6i.2xlarge", 0.384, 50, FLAT, 0.03, mod=rhel),
        LiteLine("AWS", "EC2", "catalog", "r6i.large", 0.126, 8, FLAT),
        LiteLine("AWS", "EKS", "payments", "m6i.2xlarge", 0.384, 30, FLAT, 0.03, mod=rhel),
        LiteLine("AWS", "RDS", "payments", "db.r6g.2xlarge", 0.860, 2, noise=0),
        LiteLine("AWS", "RDS", "catalog", "db.r6g.xlarge", 0.430, 2, noise=0),
        LiteLine("GCP", "ComputeEngine", "data-science", "n2-standard-8", 0.3885, 12, OFFICE, 0.08),
        LiteLine("GCP", "BigQuery", "data-science", "slots-100", 4.000, 1, noise=0),
    ]
    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines)
    write_common(sdir, alert, acct, [("m6i.2xlarge", "Instance_Family")], None)
    return n


def sc_ediscovery(sdir, rng):
    """Application: legal-ediscovery extracts and indexes a litigation-hold export for 3 days
    (spike already over by the alert)."""
    acct = "487733160592"
    start, sp = D(2025, 7, 1), D(2025, 9, 3)
    alert = end = sp + 4 * DAY

    def burst(mult):
        def f(d, n, p):
            if sp <= d < sp + 3 * DAY:
                return int(round(n * mult)), p
            return n, p
        return f

    lines = [
        LiteLine("GCP", "ComputeEngine", "legal-ediscovery", "g2-standard-8", 0.854, 2, noise=0,
                 mod=burst(12)),
        LiteLine("GCP", "ComputeEngine", "legal-ediscovery", "n2-highmem-16", 1.048, 2, noise=0,
                 mod=burst(8)),
        LiteLine("GCP", "GKE", "legal-ediscovery", "e2-standard-4", 0.134, 4, FLAT, 0.05),
        LiteLine("GCP", "ComputeEngine", "video-thumbs", "g2-standard-8", 0.854, 6, SOFTWEEK, 0.08),
        LiteLine("GCP", "ComputeEngine", "search-api", "n2-standard-8", 0.3885, 10, SOFTWEEK),
        LiteLine("GCP", "GKE", "search-api", "e2-standard-8", 0.2681, 12, SOFTWEEK),
        LiteLine("GCP", "CloudSQL", "catalog-db", "db-custom-8-32768", 0.620, 1, noise=0),
        LiteLine("GCP", "Memorystore", "search-api", "M2-standard", 0.0490, 13, noise=0),
    ]
    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines, shuffle=True)
    write_common(sdir, alert, acct, [("legal-ediscovery", "Application")], None)
    return n


def sc_growth_quiet(sdir, rng):
    """Quiet: steady organic growth; the alert day is simply the newest all-time high."""
    acct = "226190458317"
    start, end = D(2024, 12, 9), D(2025, 11, 4)
    alert = end

    def ftp(d, n, p):
        # legacy-ftp stopped on 2025-03-19; the exporter keeps zero rows for it
        return (0, p) if d >= D(2025, 3, 19) else (n, p)

    lines = [
        LiteLine("AWS", "EC2", "storefront", "m6i.xlarge", 0.192, 20, SOFTWEEK, 0.03, growth=0.002),
        LiteLine("AWS", "EKS", "storefront-api", "c6i.2xlarge", 0.340, 12, SOFTWEEK, 0.03, growth=0.002),
        LiteLine("AWS", "EC2", "search", "r6i.2xlarge", 0.504, 6, FLAT, 0.02, growth=0.001),
        LiteLine("AWS", "RDS", "orders-db", "db.r6g.4xlarge", 1.720, 2, noise=0),
        LiteLine("AWS", "EC2", "legacy-ftp", "t3.small", 0.0208, 4, noise=0, mod=ftp),
        LiteLine("Azure", "VirtualMachines", "reports", "D8s_v5", 0.384, 4, OFFICE, 0.05),
        LiteLine("Azure", "SQLDatabase", "reports", "GP_Gen5_4", 1.008, 1, noise=0),
    ]

    # lite_bill skips n<=0 rows; emit the zero rows of the stopped server explicitly
    def extra(d, i):
        if d >= D(2025, 3, 19):
            return [["AWS", "EC2", "legacy-ftp", "t3.small", "0.0208", "0", "0.0000"]]
        return []

    n = lite_bill(os.path.join(sdir, "data.csv"), rng, acct, start, end, lines, extra=extra,
                  edge_hours={start: 9})
    write_common(sdir, alert, acct, [], None)
    return n


# ----------------------------------------------------------------------------- FOCUS scenarios
def focus_meta():
    return {"levels": list(FOCUS_LEVELS), "cost_column": "BilledCost"}


def monthly_rows(fb, ln, first, last, amount_fn, desc_fn=None, charge="Purchase",
                 freq="Recurring"):
    """Recurring monthly fee rows, charge period = the whole month, posted for each month
    start in [first, last]."""
    m = month_start(first)
    if m < first:
        m = next_month(m)
    while m <= last:
        amt = amount_fn(m)
        if amt:
            t0 = T(m.year, m.month, m.day)
            nm = next_month(m)
            fb.add(ln, t0, T(nm.year, nm.month, 1), 1.0, price=amt,
                   desc=desc_fn(m) if desc_fn else None, charge=charge, freq=freq)
        m = next_month(m)


def sc_athena_workgroup(sdir, rng):
    """Resource: an hourly scheduled Athena query on an unpartitioned clickstream table."""
    acct = "418295736021"
    fb = FocusBill(rng, acct, "Brightwell Analytics", "Amazon Web Services EMEA SARL")
    t_start = T(2025, 8, 22, 0)
    ta = T(2025, 10, 21, 13)
    alert = ta.date()
    t_end = T(2025, 10, 22, 0)
    R = "eu-west-1"
    sub = (acct, "brightwell-data-prod")
    wg = f"arn:aws:athena:{R}:{acct}:workgroup/"

    def hourly_query(t, q, p):
        if t >= ta:
            q += 2.30 * (1.0 + rng.gauss(0, 0.01))
        return q, p

    ath = dict(prov="AWS", svc="Amazon Athena", cat="Analytics", region=R, sub=sub,
               sku="ATH-DataScannedInTB", desc="$5.00 per TB for data scanned by Athena queries",
               unit="Terabytes", price=5.0, rtype="WorkGroup")
    lines = [
        FLine(rid=wg + "primary", rname="primary", qty=0.09, hprof=business_hours(1.0, 0.02),
              noise=0.35, tags={"team": "analysts"}, **ath),
        FLine(rid=wg + "bi-dashboards", rname="bi-dashboards", qty=0.05, hprof=daynight(1.6, 0.4, 10),
              noise=0.2, tags={"team": "bi"}, **ath),
        FLine(rid=wg + "growth-adhoc", rname="growth-adhoc", qty=0.012,
              hprof=business_hours(1.0, 0.0), noise=0.5, mod=hourly_query,
              tags={"team": "growth"}, **ath),
        FLine("AWS", "AWS Glue", "Analytics", R, f"arn:aws:glue:{R}:{acct}:job/clickstream-stream",
              "GLU-ETL-DPU-Hour", "$0.44 per DPU-Hour for streaming ETL job", "DPU-Hours", 0.44, 2.0,
              rname="clickstream-stream", rtype="Job", sub=sub, noise=0.0),
        FLine("AWS", "Amazon Simple Storage Service", "Storage", R, "arn:aws:s3:::bw-clickstream-raw",
              "S3-TimedStorage-ByteHrs", "$0.023 per GB - first 50 TB / month of storage used",
              "GB-Mo", 0.023, 180000 / 730.0, rname="bw-clickstream-raw", rtype="Bucket", sub=sub,
              noise=0.0, growth=0.002),
        FLine("AWS", "Amazon Simple Storage Service", "Storage", R, "arn:aws:s3:::bw-clickstream-raw",
              "S3-Requests-Tier2", "$0.0004 per 1,000 GET and all other requests", "1K Requests",
              0.0004, 900.0, rname="bw-clickstream-raw", rtype="Bucket", sub=sub,
              hprof=daynight(1.4, 0.6, 12), noise=0.1),
        FLine("AWS", "Amazon Simple Storage Service", "Storage", R, "arn:aws:s3:::bw-athena-results",
              "S3-TimedStorage-ByteHrs", "$0.023 per GB - first 50 TB / month of storage used",
              "GB-Mo", 0.023, 900 / 730.0, rname="bw-athena-results", rtype="Bucket", sub=sub,
              noise=0.0, growth=0.003),
        FLine("AWS", "Amazon Relational Database Service", "Databases", R,
              f"arn:aws:rds:{R}:{acct}:db:bw-metadata", "RDS-db.r6g.large",
              "$0.258 per RDS db.r6g.large Single-AZ instance hour", "Hrs", 0.258, 1.0,
              rname="bw-metadata", rtype="DBInstance", sub=sub, noise=0.0),
    ]
    for k in range(3):
        iid = "i-0" + hex_id(rng, 16)
        lines.append(FLine("AWS", "Amazon Elastic Compute Cloud", "Compute", R,
                           f"arn:aws:ec2:{R}:{acct}:instance/{iid}", "EC2-m6i.xlarge",
                           "$0.214 per On Demand Linux m6i.xlarge Instance Hour", "Hrs", 0.214, 1.0,
                           rname=f"superset-{k + 1}", rtype="Instance", az=R + "abc"[k], sub=sub,
                           noise=0.0))
    fb.usage(lines, t_start, t_end, hourly=True)
    n = fb.write(os.path.join(sdir, "focus.csv"))
    write_common(sdir, alert, acct, [(wg + "growth-adhoc", "ResourceId")], focus_meta())
    return n


def sc_cryptomining(sdir, rng):
    """Region: leaked sandbox keys -> miners in a region the org never used (EC2 + Fargate)."""
    payer = "604118273550"
    fb = FocusBill(rng, payer, "Lumen Freight Org", "Amazon Web Services, Inc.", null="")
    start, ma = D(2025, 3, 28), D(2025, 5, 27)
    alert = ma + 2 * DAY
    t_end = T(alert.year, alert.month, alert.day) + DAY
    accts = {"prod": ("311480925617", "lumen-prod"), "staging": ("522093716648", "lumen-staging"),
             "sandbox": ("733251604489", "lumen-sandbox")}
    lines = []
    fleet = [("prod", "us-east-1", "m6i.2xlarge", 0.384, 18, SOFTWEEK),
             ("prod", "us-east-1", "c6i.xlarge", 0.170, 10, FLAT),
             ("prod", "us-west-2", "m6i.2xlarge", 0.384, 8, SOFTWEEK),
             ("prod", "eu-west-1", "m6i.xlarge", 0.214, 6, FLAT),
             ("staging", "us-east-1", "m6i.large", 0.096, 8, OFFICE),
             ("sandbox", "us-east-1", "t3.large", 0.0832, 5, OFFICE),
             ("sandbox", "us-west-2", "t3.medium", 0.0416, 4, OFFICE)]
    for acc, reg, itype, price, cnt, prof in fleet:
        a, an = accts[acc]
        lines.append(FLine("AWS", "Amazon Elastic Compute Cloud", "Compute", reg,
                           f"arn:aws:autoscaling:{reg}:{a}:autoScalingGroup:{acc}-{itype}",
                           f"EC2-{itype}", f"${price} per On Demand Linux {itype} Instance Hour",
                           "Hrs", price, cnt * 24, rname=f"{acc}-{itype.replace('.', '-')}-asg",
                           rtype="AutoScalingGroup", sub=(a, an), prof=prof, noise=0.04,
                           qround=1))
    for acc, reg, gb in [("prod", "us-east-1", 42000), ("prod", "us-west-2", 9000),
                         ("prod", "eu-west-1", 6000), ("staging", "us-east-1", 8000)]:
        a, an = accts[acc]
        lines.append(FLine("AWS", "Amazon Elastic Compute Cloud", "Storage", reg,
                           f"arn:aws:ec2:{reg}:{a}:volume-pool/{acc}", "EBS-gp3",
                           "$0.08 per GB-month of General Purpose (gp3) provisioned storage",
                           "GB-Mo", 0.08, gb / 30.4, rname=f"{acc}-gp3", rtype="Volume",
                           sub=(a, an), noise=0.005))
    for reg, cls, price in [("us-east-1", "db.r6g.4xlarge", 1.72), ("us-west-2", "db.r6g.xlarge", 0.43)]:
        a, an = accts["prod"]
        lines.append(FLine("AWS", "Amazon Relational Database Service", "Databases", reg,
                           f"arn:aws:rds:{reg}:{a}:db:freight-{reg}", f"RDS-{cls}",
                           f"${price} per RDS {cls} Multi-AZ instance hour", "Hrs", price * 2, 24,
                           rname=f"freight-{reg}", rtype="DBInstance", sub=(a, an), noise=0.0))
    a, an = accts["prod"]
    lines += [
        FLine("AWS", "Amazon Elastic Container Service", "Compute", "us-east-1",
              f"arn:aws:ecs:us-east-1:{a}:cluster/tracking", "Fargate-vCPU-Hours",
              "$0.04048 per vCPU-hour for Linux/X86 Fargate", "vCPU-Hours", 0.04048, 64 * 24,
              rname="tracking", rtype="Cluster", sub=(a, an), prof=SOFTWEEK),
        FLine("AWS", "AWS Lambda", "Compute", "us-east-1",
              f"arn:aws:lambda:us-east-1:{a}:function:label-printer", "Lambda-GB-Second",
              "$0.0000166667 for every GB-second", "GB-Seconds", 0.0000166667, 2.6e6,
              rname="label-printer", rtype="Function", sub=(a, an), prof=OFFICE),
        FLine("AWS", "Amazon CloudFront", "Networking", None,
              f"arn:aws:cloudfront::{a}:distribution/E2" + hex_id(rng, 11).upper(), "CF-DataTransfer-Out",
              "$0.085 per GB - first 10 TB / month data transfer out", "GB", 0.085, 2100,
              rname="tracking-portal", rtype="Distribution", sub=(a, an), prof=SOFTWEEK),
    ]
    # the miners (sandbox account, ap-southeast-3)
    sa, sn = accts["sandbox"]
    MR = "ap-southeast-3"
    t_ma = T(ma.year, ma.month, ma.day, 3)
    for k in range(12):
        iid = "i-0" + hex_id(rng, 16)
        lines.append(FLine("AWS", "Amazon Elastic Compute Cloud", "Compute", MR,
                           f"arn:aws:ec2:{MR}:{sa}:instance/{iid}", "EC2-c6i.16xlarge",
                           "$3.136 per On Demand Linux c6i.16xlarge Instance Hour", "Hrs", 3.136, 24,
                           rtype="Instance", az=MR + "ab"[k % 2], sub=(sa, sn), noise=0.0,
                           first=t_ma + dt.timedelta(minutes=7 * k)))
        lines.append(FLine("AWS", "Amazon Elastic Compute Cloud", "Storage", MR,
                           f"arn:aws:ec2:{MR}:{sa}:volume/vol-0" + hex_id(rng, 16), "EBS-gp3",
                           "$0.0096 per GB-month of General Purpose (gp3) provisioned storage",
                           "GB-Mo", 0.0096, 30 / 30.4, rtype="Volume", sub=(sa, sn), noise=0.0,
                           first=t_ma + dt.timedelta(minutes=7 * k)))
    lines.append(FLine("AWS", "Amazon Elastic Container Service", "Compute", MR,
                       f"arn:aws:ecs:{MR}:{sa}:cluster/default", "Fargate-vCPU-Hours",
                       "$0.05056 per vCPU-hour for Linux/X86 Fargate", "vCPU-Hours", 0.05056,
                       500 * 24, rname="default", rtype="Cluster", sub=(sa, sn), noise=0.02,
                       first=t_ma + dt.timedelta(hours=9)))
    lines.append(FLine("AWS", "Amazon Elastic Compute Cloud", "Networking", MR,
                       None, "DataTransfer-Out-Bytes",
                       "$0.132 per GB - data transfer out to the Internet", "GB", 0.132, 55,
                       sub=(sa, sn), noise=0.1, first=t_ma))
    fb.usage(lines, T(start.year, start.month, start.day), t_end, hourly=False)
    n = fb.write(os.path.join(sdir, "focus.csv"), shuffle=True)
    write_common(sdir, alert, payer, [(MR, "RegionId")], focus_meta())
    return n


def sc_waf_marketplace(sdir, rng):
    """Service: a Firewall Manager policy adds a marketplace managed rule group to all web ACLs."""
    acct = "847120559306"
    fb = FocusBill(rng, acct, "Pellucid Media", "Amazon Web Services, Inc.")
    start, sw = D(2025, 5, 19), D(2025, 8, 12)
    alert = sw + 2 * DAY
    t_end = T(alert.year, alert.month, alert.day) + DAY
    sub = ("847120559306", "pellucid-edge")
    acls = []
    for reg, names in [("us-east-1", ["cf-www", "cf-video", "cf-api", "alb-login", "alb-cms"]),
                       ("us-west-2", ["alb-ingest", "alb-transcode", "apigw-partner"]),
                       ("eu-west-1", ["alb-eu-www", "alb-eu-api", "alb-eu-cms"]),
                       ("ap-southeast-1", ["alb-sg-www", "alb-sg-api", "alb-sg-cms"])]:
        for nm in names:
            mreq = rng.choice([4, 7, 9, 12, 18, 26, 35])
            acls.append((reg, nm, mreq))
    lines = []
    t_sw = T(sw.year, sw.month, sw.day, 15)
    for reg, nm, mreq in acls:
        scope = "global" if nm.startswith("cf-") else "regional"
        rid = f"arn:aws:wafv2:{reg}:{acct}:{scope}/webacl/{nm}/" + hex_id(rng, 8)
        prof = SOFTWEEK
        lines.append(FLine("AWS", "AWS WAF", "Security", reg, rid, "WAF-Request",
                           "$0.60 per million requests", "Requests (millions)", 0.60, mreq,
                           rname=nm, rtype="WebACL", sub=sub, prof=prof, noise=0.08))
        lines.append(FLine("AWS", "AWS WAF", "Security", reg, rid, "WAF-WebACL",
                           "$5.00 per web ACL per month (prorated hourly)", "WebACL-Months",
                           5.0 / 30.4 * 30.4, 1 / 30.4, rname=nm, rtype="WebACL", sub=sub,
                           noise=0.0))
        lines.append(FLine("AWS", "AWS WAF", "Security", reg, rid, "WAF-Rule",
                           "$1.00 per rule per month (prorated hourly)", "Rule-Months", 1.0,
                           9 / 30.4, rname=nm, rtype="WebACL", sub=sub, noise=0.0))
        mk = dict(prov="AWS", pub="Fortinet Inc.",
                  svc="Fortinet Managed Rules for AWS WAF - Complete OWASP Top 10",
                  cat="Security", region=reg, rid=rid, rname=nm, rtype="WebACL", sub=sub,
                  pricing="Standard", first=t_sw)
        lines.append(FLine(sku="MP-fortinet-owasp-sub", desc="Fortinet OWASP Top 10 - subscription per web ACL per month",
                           unit="WebACL-Months", price=40.0, qty=1 / 30.4, noise=0.0, **mk))
        lines.append(FLine(sku="MP-fortinet-owasp-req", desc="Fortinet OWASP Top 10 - $1.00 per million requests",
                           unit="Requests (millions)", price=1.0, qty=mreq, prof=prof,
                           noise=0.08, **mk))
    # the rest of the estate
    for reg, n_alb, n_ec2 in [("us-east-1", 6, 40), ("us-west-2", 3, 22), ("eu-west-1", 3, 18),
                              ("ap-southeast-1", 3, 12)]:
        lines.append(FLine("AWS", "Elastic Load Balancing", "Networking", reg,
                           f"arn:aws:elasticloadbalancing:{reg}:{acct}:loadbalancer/app/edge-{reg}",
                           "ELB-LCU", "$0.008 per LCU-hour", "LCU-Hrs", 0.008, n_alb * 14 * 24,
                           rname=f"edge-{reg}", rtype="LoadBalancer", sub=sub, prof=SOFTWEEK))
        lines.append(FLine("AWS", "Amazon Elastic Compute Cloud", "Compute", reg,
                           f"arn:aws:autoscaling:{reg}:{acct}:autoScalingGroup:web-{reg}",
                           "EC2-c6i.2xlarge", "$0.34 per On Demand Linux c6i.2xlarge Instance Hour",
                           "Hrs", 0.34, n_ec2 * 24, rname=f"web-{reg}", rtype="AutoScalingGroup",
                           sub=sub, prof=SOFTWEEK, qround=1))
    lines += [
        FLine("AWS", "Amazon CloudFront", "Networking", None,
              f"arn:aws:cloudfront::{acct}:distribution/E1" + hex_id(rng, 11).upper(),
              "CF-DataTransfer-Out", "$0.085 per GB data transfer out", "GB", 0.085, 3200,
              rname="www", rtype="Distribution", sub=sub, prof=SOFTWEEK),
        FLine("AWS", "AWS Security Hub", "Security", "us-east-1",
              f"arn:aws:securityhub:us-east-1:{acct}:hub/default", "SH-Checks",
              "$0.001 per security check", "Checks", 0.001, 21000, rname="default", rtype="Hub",
              sub=sub, noise=0.02),
        FLine("AWS", "Amazon Relational Database Service", "Databases", "us-east-1",
              f"arn:aws:rds:us-east-1:{acct}:db:cms", "RDS-db.r6g.2xlarge",
              "$0.86 per RDS db.r6g.2xlarge instance hour", "Hrs", 0.86, 48, rname="cms",
              rtype="DBInstance", sub=sub, noise=0.0),
    ]
    fb.usage(lines, T(start.year, start.month, start.day), t_end, hourly=False)
    shield = FLine("AWS", "AWS Shield", "Security", None, f"arn:aws:shield::{acct}:subscription",
                   "Shield-Advanced-Monthly", "AWS Shield Advanced monthly fee", "Months", 3000.0, 1,
                   rname="shield-advanced", rtype="Subscription", sub=sub)
    monthly_rows(fb, shield, start, alert, lambda m: 3000.0,
                 charge="Purchase", freq="Recurring")
    n = fb.write(os.path.join(sdir, "focus.csv"))
    write_common(sdir, alert, acct,
                 [("Fortinet Managed Rules for AWS WAF - Complete OWASP Top 10", "ServiceName")],
                 focus_meta())
    return n


def _reseller_estate(rng, acct, subs, azure_regions, aws_regions, azure_mod=None, growth=0.0):
    """A mid-size AWS + Azure + Wasabi estate bought through one reseller."""
    lines = []
    az_sub = subs["azure"]
    for reg, scale in azure_regions:
        base = f"/subscriptions/{az_sub[0]}/resourceGroups/rg-{reg}"
        lines += [
            FLine("Microsoft", "Virtual Machines", "Compute", reg,
                  f"{base}/providers/Microsoft.Compute/virtualMachineScaleSets/vmss-app-{reg}",
                  "DZH318Z0BQ4B", "D8s v5 - compute hours", "1 Hour", 0.384, 16 * 24 * scale,
                  rname=f"vmss-app-{reg}", rtype="microsoft.compute/virtualmachinescalesets",
                  sub=az_sub, prof=SOFTWEEK, mod=azure_mod, growth=growth),
            FLine("Microsoft", "Azure SQL Database", "Databases", reg,
                  f"{base}/providers/Microsoft.Sql/servers/sql-{reg}/databases/core",
                  "DZH318Z0BQPS", "vCore - General Purpose Gen5", "1 Hour", 0.2522, 8 * 24 * scale,
                  rname="core", rtype="microsoft.sql/servers/databases", sub=az_sub, noise=0.0,
                  mod=azure_mod),
            FLine("Microsoft", "Storage", "Storage", reg,
                  f"{base}/providers/Microsoft.Storage/storageAccounts/st{reg}data",
                  "DZH317F1HKN0", "Hot LRS Data Stored", "1 GB/Month", 0.0184,
                  60000 * scale / 30.4, rname=f"st{reg}data",
                  rtype="microsoft.storage/storageaccounts", sub=az_sub, noise=0.01, mod=azure_mod,
                  growth=growth),
            FLine("Microsoft", "Azure Kubernetes Service", "Compute", reg,
                  f"{base}/providers/Microsoft.ContainerService/managedClusters/aks-{reg}",
                  "DZH318Z0BPVW", "Standard tier - cluster hours", "1 Hour", 0.10, 24,
                  rname=f"aks-{reg}", rtype="microsoft.containerservice/managedclusters",
                  sub=az_sub, noise=0.0, mod=azure_mod),
        ]
    aw = subs["aws"]
    for reg, scale in aws_regions:
        lines += [
            FLine("Amazon Web Services", "Amazon Elastic Compute Cloud", "Compute", reg,
                  f"arn:aws:autoscaling:{reg}:{aw[0]}:autoScalingGroup:api-{reg}",
                  "EC2-m6i.xlarge", "$0.192 per On Demand Linux m6i.xlarge Instance Hour", "Hrs",
                  0.192, 22 * 24 * scale, rname=f"api-{reg}", rtype="AutoScalingGroup", sub=aw,
                  prof=SOFTWEEK, growth=growth),
            FLine("Amazon Web Services", "Amazon Simple Storage Service", "Storage", reg,
                  f"arn:aws:s3:::{acct}-assets-{reg}", "S3-TimedStorage",
                  "$0.023 per GB-month", "GB-Mo", 0.023, 40000 * scale / 30.4,
                  rname=f"assets-{reg}", rtype="Bucket", sub=aw, noise=0.005, growth=growth),
            FLine("Amazon Web Services", "Amazon Relational Database Service", "Databases", reg,
                  f"arn:aws:rds:{reg}:{aw[0]}:db:accounts-{reg}", "RDS-db.r6g.xlarge",
                  "$0.43 per RDS db.r6g.xlarge instance hour", "Hrs", 0.43, 24 * scale,
                  rname=f"accounts-{reg}", rtype="DBInstance", sub=aw, noise=0.0),
        ]
    wa = subs["wasabi"]
    lines.append(FLine("Wasabi Technologies", "Wasabi Hot Cloud Storage", "Storage", "eu-central-2",
                       f"wasabi://eu-central-2/{wa[1]}-backups", "WAS-HCS-TB",
                       "Hot Cloud Storage, per TB-month (pay as you go)", "TB-Mo", 6.99,
                       180 / 30.4, rname=f"{wa[1]}-backups", rtype="Bucket", sub=wa, noise=0.0,
                       growth=0.002, regionname="Europe (Amsterdam)"))
    return lines


def sc_reseller_azure_pricelist(sdir, rng):
    """Provider: from the 1st, the reseller rates every Azure meter from a wrong price list."""
    acct = "NCR-204117"
    fb = FocusBill(rng, acct, "Halvorsen Marine AS", "Nordic Cloud Reseller AB", currency="EUR")
    start, sw = D(2025, 6, 23), D(2025, 10, 1)
    alert = sw
    t_end = T(2025, 10, 2, 9)
    subs = {"azure": ("8f3c2a61-5d0b-4e7a-9c1e-2b4f6a8d0e13", "halvorsen-prod"),
            "aws": ("559104728836", "halvorsen-aws"),
            "wasabi": ("WSB-88213", "halvorsen")}

    def wrong_list(t, q, p):
        return (q, p * 1.22) if t >= T(sw.year, sw.month, sw.day) else (q, p)

    lines = _reseller_estate(rng, acct, subs, [("westeurope", 1.6), ("northeurope", 1.0),
                                               ("swedencentral", 0.5)],
                             [("eu-north-1", 1.0), ("eu-west-1", 0.5)], azure_mod=wrong_list)
    fb.usage(lines, T(start.year, start.month, start.day), t_end, hourly=False)
    # list prices stay unchanged: fix up ListUnitPrice/ListCost of the re-rated Azure rows
    for r in fb.rows:
        if r["ProviderName"] == "Microsoft" and r["ChargePeriodStart"] >= sw.isoformat():
            cp = float(r["ContractedUnitPrice"]) / 1.22
            r["ListUnitPrice"] = fnum(cp)
            r["ListCost"] = fb.cfmt.format(cp * float(r["PricingQuantity"]))
    mp = FLine("Amazon Web Services", "Kestrel Backup for AWS (SaaS)", "Storage", None,
               None, "MP-kestrel-monthly", "Kestrel Backup Business tier - monthly subscription",
               "Months", 1450.0, 1, pub="Kestrel Data Ltd", sub=subs["aws"])
    monthly_rows(fb, mp, start, alert, lambda m: 1450.0)
    n = fb.write(os.path.join(sdir, "focus.csv"), shuffle=True)
    write_common(sdir, alert, acct, [("Microsoft", "ProviderName")], focus_meta())
    return n


def sc_pricelist_quiet(sdir, rng):
    """Quiet: a published +2 % Azure price-list update on the 1st and the monthly SaaS fees
    that always land on the 1st."""
    acct = "CLX-77310"
    fb = FocusBill(rng, acct, "Ostara Logistics GmbH", "Cloudlux Partner Services GmbH",
                   currency="EUR")
    start, alert = D(2025, 2, 11), D(2025, 7, 1)
    t_end = T(2025, 7, 3, 0)
    subs = {"azure": ("2b9e7d40-11aa-4c3f-8e55-9a0c6f1d7b28", "ostara-prod"),
            "aws": ("440981256317", "ostara-aws"),
            "wasabi": ("WSB-40512", "ostara")}

    def pricelist(t, q, p):
        return (q, p * 1.02) if t >= T(2025, 7, 1) else (q, p)

    lines = _reseller_estate(rng, acct, subs, [("westeurope", 1.0), ("uksouth", 0.4)],
                             [("eu-central-1", 1.0)], azure_mod=pricelist, growth=0.0008)
    fb.usage(lines, T(start.year, start.month, start.day), t_end, hourly=False)
    mp = FLine("Amazon Web Services", "Kestrel Backup for AWS (SaaS)", "Storage", None, None,
               "MP-kestrel-monthly", "Kestrel Backup Business tier - monthly subscription",
               "Months", 980.0, 1, pub="Kestrel Data Ltd", sub=subs["aws"])
    monthly_rows(fb, mp, start, alert, lambda m: 980.0)
    gh = FLine("Microsoft", "GitHub Enterprise (Azure Marketplace)", "Developer Tools", None, None,
               "MP-ghe-seats", "GitHub Enterprise - 120 seats, monthly", "Months", 2520.0, 1,
               pub="GitHub, Inc.", sub=subs["azure"])
    monthly_rows(fb, gh, start, alert, lambda m: 2520.0 if m < D(2025, 5, 1) else 2646.0)
    n = fb.write(os.path.join(sdir, "focus.csv"))
    write_common(sdir, alert, acct, [], focus_meta())
    return n


def sc_azure_zone_redundancy(sdir, rng):
    """Region: a resilience initiative makes everything in northeurope zone-redundant."""
    acct = "87654321"  # EA enrollment
    fb = FocusBill(rng, acct, "Corrib Insurance DAC", "Microsoft", currency="EUR")
    start, sw = D(2025, 3, 10), D(2025, 7, 8)
    alert = sw
    t_end = T(alert.year, alert.month, alert.day) + DAY
    t_sw = T(sw.year, sw.month, sw.day)
    subs = [("c41d9e02-7f6b-4b8e-a1d3-6e2f90b7c455", "corrib-claims-prod"),
            ("0a7f3b96-2e4c-4d71-b0f8-59c1d2e6a3b7", "corrib-policy-prod"),
            ("e93b5c17-8d2a-4f60-9e4b-17a6c0d8f2e9", "corrib-shared")]
    lines = []
    regions = [("northeurope", 1.0, True), ("westeurope", 0.8, False), ("uksouth", 0.35, False)]
    for reg, scale, zr in regions:
        for si, (sid, sname) in enumerate(subs):
            base = f"/subscriptions/{sid}/resourceGroups/rg-{sname}-{reg}"
            s = scale * (1.0, 0.7, 0.4)[si]

            def vm_mod(t, q, p, zr=zr):
                return (q * 1.5, p) if zr and t >= t_sw else (q, p)

            def st_mod(t, q, p, zr=zr):
                return (q, 0.0230) if zr and t >= t_sw else (q, p)

            def sql_mod(t, q, p, zr=zr):
                return (q, p * 1.25) if zr and t >= t_sw else (q, p)

            def agw_mod(t, q, p, zr=zr):
                return (q * 1.6, p) if zr and t >= t_sw else (q, p)

            lines += [
                FLine("Microsoft", "Virtual Machines", "Compute", reg,
                      f"{base}/providers/Microsoft.Compute/virtualMachineScaleSets/vmss-{sname}",
                      "DZH318Z0BQ4B", "D4s v5", "1 Hour", 0.2104, 8 * 24 * s, sub=(sid, sname),
                      rname=f"vmss-{sname}", rtype="microsoft.compute/virtualmachinescalesets",
                      prof=SOFTWEEK, mod=vm_mod, qround=1),
                FLine("Microsoft", "Storage", "Storage", reg,
                      f"{base}/providers/Microsoft.Storage/storageAccounts/st{sname.replace('-', '')[:14]}{reg[:2]}",
                      "DZH317F1HKN0", "Hot LRS Data Stored", "1 GB/Month", 0.0196,
                      90000 * s / 30.4, sub=(sid, sname),
                      rname=f"st{sname.replace('-', '')[:14]}{reg[:2]}",
                      rtype="microsoft.storage/storageaccounts", noise=0.005, growth=0.0006,
                      mod=st_mod),
                FLine("Microsoft", "Azure SQL Database", "Databases", reg,
                      f"{base}/providers/Microsoft.Sql/servers/sql-{sname}-{reg}/databases/main",
                      "DZH318Z0BQPS", "vCore - General Purpose Gen5", "1 Hour", 0.2522,
                      round(8 * s) * 24 or 48, sub=(sid, sname), rname="main",
                      rtype="microsoft.sql/servers/databases", noise=0.0, mod=sql_mod),
            ]
        lines.append(FLine("Microsoft", "Application Gateway", "Networking", reg,
                           f"/subscriptions/{subs[2][0]}/resourceGroups/rg-net-{reg}/providers/Microsoft.Network/applicationGateways/agw-{reg}",
                           "DZH318Z0CSHM", "Standard_v2 Capacity Units", "1 Hour", 0.0080,
                           40 * 24 * scale, sub=subs[2], rname=f"agw-{reg}",
                           rtype="microsoft.network/applicationgateways", prof=SOFTWEEK,
                           mod=(lambda t, q, p, zr=zr: (q * 1.6, p) if zr and t >= t_sw else (q, p))))
    lines.append(FLine("Microsoft", "Azure Monitor", "Management and Governance", "westeurope",
                       f"/subscriptions/{subs[2][0]}/resourceGroups/rg-mon/providers/Microsoft.Insights/components/corrib-ai",
                       "DZH318Z0BP04", "Data Ingestion", "1 GB", 2.30, 18, sub=subs[2],
                       rname="corrib-ai", rtype="microsoft.insights/components", prof=SOFTWEEK))
    fb.usage(lines, T(start.year, start.month, start.day), t_end, hourly=False)
    n = fb.write(os.path.join(sdir, "focus.csv"), shuffle=True)
    write_common(sdir, alert, acct, [("northeurope", "RegionId")], focus_meta())
    return n


def sc_snowflake_xl(sdir, rng):
    """Resource: BI_WH resized S -> XL for a quarter-end board pack and never resized back."""
    acct = "SFORG-KESTREL"
    fb = FocusBill(rng, acct, "kestrel-analytics", "Snowflake Inc.")
    start, sw = D(2025, 8, 4), D(2025, 10, 3)  # Friday
    alert = sw + 4 * DAY  # Tuesday
    t_end = T(alert.year, alert.month, alert.day) + DAY
    t_sw = T(sw.year, sw.month, sw.day)
    R = "aws_eu_central_1"
    sub = ("KX41207", "KESTREL_PROD")
    wh_base = "snowflake://kx41207.eu-central-1/warehouse/"

    def wh(name, credits_day, prof, noise, mod=None):
        return FLine("Snowflake", "Snowflake Compute", "Compute", R, wh_base + name,
                     "SF-WH-CREDITS", "Warehouse compute credits (Enterprise, on demand)",
                     "Credits", 3.0, credits_day, rname=name, rtype="Warehouse", sub=sub,
                     prof=prof, noise=noise, mod=mod, regionname="AWS EU Central 1 (Frankfurt)")

    def xl(t, q, p):
        return (q * 8.0, p) if t >= t_sw else (q, p)

    def backfill(t, q, p):
        # one-day XL backfill on TRANSFORM_WH three weeks earlier (resized back the same night)
        return (q * 2.0 * 2.5, p) if t.date() == D(2025, 9, 11) else (q, p)

    lines = [
        wh("LOAD_WH", 24, FLAT, 0.05),
        wh("TRANSFORM_WH", 24, week(1, 1, 1, 1, 1, 0.6, 0.6), 0.08, backfill),
        wh("BI_WH", 14, week(1, 1.05, 1.05, 1.0, 0.9, 0.15, 0.12), 0.1, xl),
        wh("DS_WH", 8, OFFICE, 0.4),
        wh("ADHOC_WH", 3, OFFICE, 0.3),
        FLine("Snowflake", "Snowflake Storage", "Storage", R, "snowflake://kx41207.eu-central-1/storage",
              "SF-STORAGE-TB", "On-demand storage, per TB-month", "TB-Mo", 23.0, 82 / 30.4,
              rname="database-storage", rtype="Storage", sub=sub, noise=0.0, growth=0.001,
              regionname="AWS EU Central 1 (Frankfurt)"),
        FLine("Snowflake", "Snowflake Cloud Services", "Compute", R,
              "snowflake://kx41207.eu-central-1/cloud-services", "SF-CS-CREDITS",
              "Cloud services credits above the 10% daily allowance", "Credits", 3.0, 1.2,
              rname="cloud-services", rtype="Service", sub=sub, noise=0.3,
              regionname="AWS EU Central 1 (Frankfurt)"),
        FLine("Snowflake", "Snowpipe", "Integration", R, "snowflake://kx41207.eu-central-1/pipe/RAW.EVENTS_PIPE",
              "SF-SNOWPIPE", "Snowpipe serverless credits", "Credits", 3.0, 2.2,
              rname="RAW.EVENTS_PIPE", rtype="Pipe", sub=sub, noise=0.1,
              regionname="AWS EU Central 1 (Frankfurt)"),
        FLine("Snowflake", "Snowflake Data Transfer", "Networking", R,
              "snowflake://kx41207.eu-central-1/transfer", "SF-XFER-TB",
              "Data transfer out to another cloud region, per TB", "TB", 20.0, 0.05,
              rname="replication-to-eu-west-1", rtype="Transfer", sub=sub, noise=0.2,
              regionname="AWS EU Central 1 (Frankfurt)"),
    ]
    fb.usage(lines, T(start.year, start.month, start.day), t_end, hourly=False)
    n = fb.write(os.path.join(sdir, "focus.csv"))
    write_common(sdir, alert, acct, [(wh_base + "BI_WH", "ResourceId")], focus_meta())
    return n


def sc_ibm_monthly_quiet(sdir, rng):
    """Quiet: IBM Cloud classic bare metal is billed monthly on the 1st, every month."""
    acct = "a1f7c3e9b2d84c6e9f0a7b3c5d1e2f40"
    fb = FocusBill(rng, acct, "Verdant Grid Analytics", "Arrowfield Cloud Solutions", null="")
    start, alert = D(2025, 4, 9), D(2025, 9, 1)
    t_end = T(2025, 9, 2, 0)
    ibm = ("2719054", "verdant-ibm-prod")
    aws = ("681239450772", "verdant-aws")
    wsb = ("WSB-61904", "verdant")
    lines = [
        FLine("IBM", "Virtual Server for VPC", "Compute", "eu-de",
              "crn:v1:bluemix:public:is:eu-de:a/2719054::instance:02c7_" + hex_id(rng, 8),
              "IS-bx2-8x32", "bx2-8x32 virtual server instance-hours", "Instance-Hours", 0.3786,
              6 * 24, rname="grid-ingest", rtype="instance", sub=ibm, prof=SOFTWEEK, qround=1),
        FLine("IBM", "Cloud Object Storage", "Storage", "eu-de",
              "crn:v1:bluemix:public:cloud-object-storage:global:a/2719054:" + hex_id(rng, 8) + "::",
              "COS-SMART-GB", "Smart Tier storage, per GB-month", "GB-Mo", 0.0225, 120000 / 30.4,
              rname="verdant-meter-archive", rtype="bucket", sub=ibm, noise=0.0, growth=0.0015),
        FLine("IBM", "Databases for PostgreSQL", "Databases", "eu-de",
              "crn:v1:bluemix:public:databases-for-postgresql:eu-de:a/2719054:" + hex_id(rng, 8) + "::",
              "ICD-PG-RAM", "PostgreSQL RAM, per GB-hour", "GB-Hours", 0.0094, 96 * 24,
              rname="grid-pg", rtype="deployment", sub=ibm, noise=0.0),
        FLine("AWS", "Amazon Elastic Compute Cloud", "Compute", "eu-central-1",
              f"arn:aws:autoscaling:eu-central-1:{aws[0]}:autoScalingGroup:forecast-api",
              "EC2-c6i.xlarge", "$0.194 per On Demand Linux c6i.xlarge Instance Hour", "Hrs",
              0.194, 10 * 24, rname="forecast-api", rtype="AutoScalingGroup", sub=aws,
              prof=SOFTWEEK, qround=1),
        FLine("AWS", "Amazon Simple Storage Service", "Storage", "eu-central-1",
              "arn:aws:s3:::verdant-forecasts", "S3-TimedStorage", "$0.0245 per GB-month",
              "GB-Mo", 0.0245, 30000 / 30.4, rname="verdant-forecasts", rtype="Bucket", sub=aws,
              noise=0.0, growth=0.001),
        FLine("Wasabi Technologies", "Wasabi Hot Cloud Storage", "Storage", "eu-central-1",
              "wasabi://eu-central-1/verdant-offsite", "WAS-HCS-TB",
              "Hot Cloud Storage, per TB-month (pay as you go)", "TB-Mo", 6.99, 240 / 30.4,
              rname="verdant-offsite", rtype="Bucket", sub=wsb, noise=0.0, growth=0.001,
              regionname="EU Central 1 (Amsterdam)"),
    ]
    fb.usage(lines, T(start.year, start.month, start.day), t_end, hourly=False)
    for k, host in enumerate(["gridbm01", "gridbm02"]):
        bm = FLine("IBM", "Bare Metal Servers (Classic)", "Compute", "fra02",
                   f"crn:v1:bluemix:public:classic-infrastructure:fra02:a/2719054::hardware:{host}",
                   "BM-DUAL-XEON-6248-384GB", "Dual Intel Xeon Gold 6248, 384 GB RAM, monthly",
                   "Months", 2890.0, 1, rname=host, rtype="hardware", sub=ibm,
                   regionname="Frankfurt 02")
        monthly_rows(fb, bm, start, alert, lambda m: 2890.0, charge="Usage", freq="Recurring")
        ip = FLine("IBM", "Bare Metal Servers (Classic)", "Networking", "fra02",
                   f"crn:v1:bluemix:public:classic-infrastructure:fra02:a/2719054::hardware:{host}",
                   "BM-PORT-10G-20TB", "10 Gbps public & private ports, 20 TB bandwidth, monthly",
                   "Months", 310.0, 1, rname=host, rtype="hardware", sub=ibm,
                   regionname="Frankfurt 02")
        monthly_rows(fb, ip, start, alert, lambda m: 310.0, charge="Usage", freq="Recurring")
    n = fb.write(os.path.join(sdir, "focus.csv"))
    write_common(sdir, alert, acct, [], focus_meta())
    return n


def sc_oci_adb_scaleup(sdir, rng):
    """Resource: orders-atp scaled 8 -> 32 ECPU for a migration rehearsal and left there."""
    acct = "ocid1.tenancy.oc1..aaaaaaaa" + hex_id(rng, 20)
    fb = FocusBill(rng, acct, "quarzwerk", "Oracle", currency="EUR", qfmt="{:.4f}",
                   cfmt="{:.6f}")
    t_start = T(2025, 1, 2, 6)  # export window starts mid-morning UTC
    t_sw = T(2025, 3, 4, 10)
    alert = t_sw.date()
    t_end = T(2025, 3, 4, 23)
    R = "eu-frankfurt-1"
    comp = ("ocid1.compartment.oc1..aaaaaaaa" + hex_id(rng, 20), "prod")
    adb = "ocid1.autonomousdatabase.oc1.eu-frankfurt-1."

    def scale(t, q, p):
        return (32.0, p) if t >= t_sw else (q, p)

    def hr_auto(h, d):
        # auto-scaling on: up to 3x base ECPU in business hours on weekdays
        return 2.6 if (d.weekday() < 5 and 8 <= h < 17) else 1.0

    lines = [
        FLine("Oracle", "Autonomous Transaction Processing", "Databases", R, adb + hex_id(rng, 24),
              "B95702", "Oracle Autonomous Transaction Processing - ECPU", "ECPU Per Hour", 0.3095,
              8.0, rname="orders-atp", rtype="AutonomousDatabase", sub=comp, noise=0.0, mod=scale),
        FLine("Oracle", "Autonomous Transaction Processing", "Databases", R, adb + hex_id(rng, 24),
              "B95702", "Oracle Autonomous Transaction Processing - ECPU", "ECPU Per Hour", 0.3095,
              2.0, rname="hr-atp", rtype="AutonomousDatabase", sub=comp, noise=0.0, hprof=hr_auto),
        FLine("Oracle", "Autonomous Data Warehouse", "Databases", R, adb + hex_id(rng, 24),
              "B95701", "Oracle Autonomous Data Warehouse - ECPU", "ECPU Per Hour", 0.3095, 16.0,
              rname="insights-adw", rtype="AutonomousDatabase", sub=comp, noise=0.0,
              hprof=lambda h, d: 1.0 if 1 <= h < 7 else 0.5),
        FLine("Oracle", "Autonomous Transaction Processing", "Databases", R, None,
              "B95706", "Autonomous Database Storage", "GB Per Hour", 0.1708 / 744, 1024,
              rname="orders-atp", rtype="AutonomousDatabase", sub=comp, noise=0.0),
        FLine("Oracle", "Object Storage", "Storage", R,
              "ocid1.bucket.oc1.eu-frankfurt-1.aaaaaaaa" + hex_id(rng, 20), "B91628",
              "Object Storage - Storage", "GB Per Hour", 0.0255 / 744, 65000, rname="exports",
              rtype="Bucket", sub=comp, noise=0.0, growth=0.001),
        FLine("Oracle", "Load Balancer", "Networking", R,
              "ocid1.loadbalancer.oc1.eu-frankfurt-1.aaaaaaaa" + hex_id(rng, 20), "B93030",
              "Load Balancer Base", "Load Balancer Hour", 0.0113, 1.0, rname="lb-shop",
              rtype="LoadBalancer", sub=comp, noise=0.0),
    ]
    for k in range(6):
        lines.append(FLine("Oracle", "Compute", "Compute", R,
                           "ocid1.instance.oc1.eu-frankfurt-1.anthe" + hex_id(rng, 20),
                           "B97384", "Compute - Standard - E5 - OCPU", "OCPU Per Hour", 0.0275,
                           4.0, rname=f"shop-app-{k + 1}", rtype="Instance", sub=comp, noise=0.0,
                           az=f"EU-FRANKFURT-1-AD-{k % 3 + 1}"))
        lines.append(FLine("Oracle", "Compute", "Compute", R,
                           "ocid1.instance.oc1.eu-frankfurt-1.anthe" + hex_id(rng, 20),
                           "B97385", "Compute - Standard - E5 - Memory", "GB Per Hour", 0.0018,
                           64.0, rname=f"shop-app-{k + 1}", rtype="Instance", sub=comp, noise=0.0,
                           az=f"EU-FRANKFURT-1-AD-{k % 3 + 1}"))
    lines[3].rid = lines[0].rid  # the database's storage is billed on the same OCID
    fb.usage(lines, t_start, t_end, hourly=True)
    n = fb.write(os.path.join(sdir, "focus.csv"))
    write_common(sdir, alert, acct, [(lines[0].rid, "ResourceId")], focus_meta())
    return n


def sc_msk_storage(sdir, rng):
    """Service: shared Kafka topic module sets retention.ms=-1; MSK storage auto-expansion
    grows provisioned storage on every cluster (ramp)."""
    acct = "590337812046"
    fb = FocusBill(rng, acct, "Tidewater Payments", "Amazon Web Services, Inc.")
    start, sw = D(2025, 2, 3), D(2025, 5, 29)
    alert = sw + 4 * DAY
    t_end = T(alert.year, alert.month, alert.day) + DAY
    t_sw = T(sw.year, sw.month, sw.day)
    sub = (acct, "tidewater-data")
    lines = []
    clusters = [("events-prod", "us-east-1", "kafka.m5.2xlarge", 0.84, 6, 3000),
                ("audit-stream", "us-east-1", "kafka.m5.large", 0.21, 3, 3000),
                ("events-eu", "eu-west-1", "kafka.m5.large", 0.226, 3, 4000),
                ("cdc-pipeline", "eu-west-1", "kafka.m5.xlarge", 0.452, 3, 4000)]
    for name, reg, itype, price, brokers, gb in clusters:
        rid = f"arn:aws:kafka:{reg}:{acct}:cluster/{name}/" + hex_id(rng, 8) + "-" + hex_id(rng, 4)

        def expand(t, q, p):
            if t < t_sw:
                return q, p
            k = (t - t_sw).days + 1
            return q * (1.35 ** min(k, 5)), p

        lines += [
            FLine("AWS", "Amazon Managed Streaming for Apache Kafka", "Analytics", reg, rid,
                  f"MSK-{itype}", f"${price} per {itype} broker-hour", "Hrs", price, brokers * 24,
                  rname=name, rtype="Cluster", sub=sub, noise=0.0),
            FLine("AWS", "Amazon Managed Streaming for Apache Kafka", "Analytics", reg, rid,
                  "MSK-Storage", "$0.10 per GB-month of provisioned broker storage", "GB-Mo", 0.10,
                  gb * brokers / 30.4, rname=name, rtype="Cluster", sub=sub, noise=0.0,
                  mod=expand),
        ]
    for reg, scale in [("us-east-1", 1.0), ("eu-west-1", 0.5)]:
        lines += [
            FLine("AWS", "Amazon Elastic Kubernetes Service", "Compute", reg,
                  f"arn:aws:eks:{reg}:{acct}:cluster/payments-{reg}", "EKS-Cluster",
                  "$0.10 per cluster hour", "Hrs", 0.10, 24, rname=f"payments-{reg}",
                  rtype="Cluster", sub=sub, noise=0.0),
            FLine("AWS", "Amazon Elastic Compute Cloud", "Compute", reg,
                  f"arn:aws:autoscaling:{reg}:{acct}:autoScalingGroup:payments-nodes-{reg}",
                  "EC2-m6i.2xlarge", "$0.384 per On Demand Linux m6i.2xlarge Instance Hour", "Hrs",
                  0.384, 30 * 24 * scale, rname=f"payments-nodes-{reg}", rtype="AutoScalingGroup",
                  sub=sub, prof=SOFTWEEK, qround=1),
            FLine("AWS", "Amazon Relational Database Service", "Databases", reg,
                  f"arn:aws:rds:{reg}:{acct}:cluster:ledger-{reg}", "Aurora-db.r6g.2xlarge",
                  "$1.038 per Aurora PostgreSQL db.r6g.2xlarge instance hour", "Hrs", 1.038,
                  3 * 24 * scale, rname=f"ledger-{reg}", rtype="DBCluster", sub=sub, noise=0.0),
            FLine("AWS", "AWS Glue", "Analytics", reg,
                  f"arn:aws:glue:{reg}:{acct}:job/settlement-compaction", "GLU-ETL-DPU-Hour",
                  "$0.44 per DPU-Hour", "DPU-Hours", 0.44, 40 * scale, rname="settlement-compaction",
                  rtype="Job", sub=sub, prof=OFFICE, noise=0.15),
            FLine("AWS", "Amazon Athena", "Analytics", reg,
                  f"arn:aws:athena:{reg}:{acct}:workgroup/finance", "ATH-DataScannedInTB",
                  "$5.00 per TB scanned", "Terabytes", 5.0, 1.6 * scale, rname="finance",
                  rtype="WorkGroup", sub=sub, prof=OFFICE, noise=0.3),
        ]
    fb.usage(lines, T(start.year, start.month, start.day), t_end, hourly=False)
    n = fb.write(os.path.join(sdir, "focus.csv"), shuffle=True)
    write_common(sdir, alert, acct, [("Amazon Managed Streaming for Apache Kafka", "ServiceName")],
                 focus_meta())
    return n


GCP_SVC = {"ce": "Compute Engine", "net": "Networking", "gke": "Kubernetes Engine",
           "sql": "Cloud SQL", "gcs": "Cloud Storage", "bq": "BigQuery"}


def sc_gcp_devweek_quiet(sdir, rng):
    """Quiet: dev clusters scale to ~zero at night and on weekends; the Monday morning ramp,
    CUD fee + credit rows and a partial last export day are all normal."""
    acct = "01A2B3-C4D5E6-F7A8B9"
    fb = FocusBill(rng, acct, "Saffron Health billing", "Google", qfmt="{:.6f}")
    t_start = T(2025, 8, 28, 0)
    alert = D(2025, 10, 27)  # Monday
    t_end = T(2025, 10, 28, 9)  # export cut-off Tuesday 09:00 UTC
    proj = {"prod": ("saffron-prod-3821", "saffron-prod"), "dev": ("saffron-dev-1190", "saffron-dev"),
            "data": ("saffron-data-7752", "saffron-data")}
    lines = []
    for p, reg, n, hp in [("prod", "europe-west4", 24, daynight(1.25, 0.8, 13)),
                          ("prod", "europe-west1", 8, daynight(1.25, 0.8, 13)),
                          ("dev", "europe-west4", 30, business_hours(1.0, 0.07, 7, 20, 0.03)),
                          ("data", "europe-west4", 10, daynight(1.1, 0.9, 3))]:
        pid, pn = proj[p]
        lines.append(FLine("Google Cloud", GCP_SVC["ce"], "Compute", reg,
                           f"//container.googleapis.com/projects/{pid}/locations/{reg}/clusters/{p}-gke/nodePools/default",
                           "CP-N2D-CORE", "N2D AMD Instance Core running in " + reg, "hour",
                           0.0311, n * 8, rname=f"{p}-gke-default", rtype="NodePool", sub=(pid, pn),
                           hprof=hp, noise=0.03))
        lines.append(FLine("Google Cloud", GCP_SVC["ce"], "Compute", reg,
                           f"//container.googleapis.com/projects/{pid}/locations/{reg}/clusters/{p}-gke/nodePools/default",
                           "CP-N2D-RAM", "N2D AMD Instance Ram running in " + reg, "gibibyte hour",
                           0.00417, n * 32, rname=f"{p}-gke-default", rtype="NodePool",
                           sub=(pid, pn), hprof=hp, noise=0.03))
        lines.append(FLine("Google Cloud", GCP_SVC["gke"], "Compute", reg,
                           f"//container.googleapis.com/projects/{pid}/locations/{reg}/clusters/{p}-gke",
                           "GKE-CLUSTER-MGMT", "Regional Kubernetes Clusters", "hour", 0.10, 1,
                           rname=f"{p}-gke", rtype="Cluster", sub=(pid, pn), noise=0.0))
    pid, pn = proj["prod"]
    lines += [
        FLine("Google Cloud", GCP_SVC["sql"], "Databases", "europe-west4",
              f"//cloudsql.googleapis.com/projects/{pid}/instances/ehr-primary", "SQL-PG-VCPU",
              "Cloud SQL for PostgreSQL: Regional - vCPU", "hour", 0.0826, 16,
              rname="ehr-primary", rtype="Instance", sub=(pid, pn), noise=0.0),
        FLine("Google Cloud", GCP_SVC["sql"], "Databases", "europe-west4",
              f"//cloudsql.googleapis.com/projects/{pid}/instances/ehr-primary", "SQL-PG-RAM",
              "Cloud SQL for PostgreSQL: Regional - RAM", "gibibyte hour", 0.014, 64,
              rname="ehr-primary", rtype="Instance", sub=(pid, pn), noise=0.0),
        FLine("Google Cloud", GCP_SVC["gcs"], "Storage", "europe-west4",
              f"//storage.googleapis.com/projects/_/buckets/{pid}-imaging", "GCS-STD-REGIONAL",
              "Standard Storage Netherlands", "gibibyte month", 0.020, 140000 / 730.0,
              rname=f"{pid}-imaging", rtype="Bucket", sub=(pid, pn), noise=0.0, growth=0.001),
        FLine("Google Cloud", GCP_SVC["net"], "Networking", "europe-west4",
              f"//compute.googleapis.com/projects/{pid}/global/forwardingRules/web", "NET-EGRESS",
              "Network Internet Data Transfer Out from Netherlands to Europe", "gibibyte", 0.085,
              30, rname="web", rtype="ForwardingRule", sub=(pid, pn), hprof=daynight(1.5, 0.4, 11),
              prof=SOFTWEEK),
        # 1-year CUD: fee is flat every hour, the matching credit is a negative row
        FLine("Google Cloud", GCP_SVC["ce"], "Compute", "europe-west4", None, "CUD-N2D-CORE-1Y",
              "Commitment v1: N2D AMD Cpu in Netherlands for 1 Year", "hour", 0.0196, 200,
              sub=(pid, pn), noise=0.0, pricing="Committed"),
    ]
    fb.usage(lines, t_start, t_end, hourly=True)
    # CUD credits: the commitment covers 200 prod cores; one negative row per hour
    t = t_start
    cred = FLine("Google Cloud", GCP_SVC["ce"], "Compute", "europe-west4", None,
                 "CUD-CREDIT-N2D-CORE", "Committed use discount: N2D AMD Cpu", "hour", -0.0311, 200,
                 sub=(pid, pn), noise=0.0, charge="Credit", pricing="Committed")
    while t < t_end:
        fb.add(cred, t, t + HOUR, 200.0, price=-0.0311)
        t += HOUR
    n = fb.write(os.path.join(sdir, "focus.csv"))
    write_common(sdir, alert, acct, [], focus_meta())
    return n


def sc_gcp_l7_ddos(sdir, rng):
    """Region: an L7 flood against the Tokyo regional load balancer (30 h, over by the alert)."""
    acct = "0F3C21-9B7A44-E1D052"
    fb = FocusBill(rng, acct, "Hoshino Games billing", "Google")
    t_start = T(2025, 10, 28, 0)
    ta = T(2025, 12, 27, 2)
    tb = ta + dt.timedelta(hours=30)
    alert = (ta + dt.timedelta(days=2)).date()
    t_end = T(alert.year, alert.month, alert.day, 23)
    pid, pn = "hoshino-live-5120", "hoshino-live"
    lines = []

    def attack(mult, add=0.0):
        def f(t, q, p):
            if ta <= t < tb:
                h = (t - ta).total_seconds() / 3600.0
                env = min(1.0, h / 3.0) * (0.7 + 0.3 * math.sin(h / 4.0) ** 2)
                return q * (1 + (mult - 1) * env) + add * env, p
            return q, p
        return f

    for reg, scale in [("us-central1", 1.0), ("europe-west1", 0.6), ("asia-northeast1", 0.8)]:
        tokyo = reg == "asia-northeast1"
        hp = daynight(1.4, 0.6, {"us-central1": 2, "europe-west1": 19, "asia-northeast1": 12}[reg])
        lines += [
            FLine("Google Cloud", GCP_SVC["ce"], "Compute", reg,
                  f"//container.googleapis.com/projects/{pid}/locations/{reg}/clusters/game-{reg}/nodePools/api",
                  "CP-N2-STD-8", "N2 Instance running in " + reg, "hour", 0.4917, 6 * scale,
                  rname=f"game-{reg}-api", rtype="NodePool", sub=(pid, pn), hprof=hp, noise=0.03,
                  mod=attack(8.0) if tokyo else None),
            FLine("Google Cloud", GCP_SVC["net"], "Networking", reg,
                  f"//compute.googleapis.com/projects/{pid}/regions/{reg}/forwardingRules/api-{reg}",
                  "NET-LB-DATA", "Regional External Application Load Balancer Data Processing",
                  "gibibyte", 0.008, 40 * scale, rname=f"api-{reg}", rtype="ForwardingRule",
                  sub=(pid, pn), hprof=hp, noise=0.05, mod=attack(30.0) if tokyo else None),
            FLine("Google Cloud", GCP_SVC["net"], "Networking", reg,
                  f"//compute.googleapis.com/projects/{pid}/regions/{reg}/forwardingRules/api-{reg}",
                  "NET-EGRESS-INET", "Network Internet Data Transfer Out", "gibibyte", 0.12,
                  60 * scale, rname=f"api-{reg}", rtype="ForwardingRule", sub=(pid, pn), hprof=hp,
                  noise=0.05, mod=attack(3.0) if tokyo else None),
            FLine("Google Cloud", GCP_SVC["net"], "Networking", reg,
                  f"//compute.googleapis.com/projects/{pid}/global/securityPolicies/edge-{reg}",
                  "ARMOR-REQ", "Cloud Armor requests", "count (millions)", 0.75, 2.0 * scale,
                  rname=f"edge-{reg}", rtype="SecurityPolicy", sub=(pid, pn), hprof=hp,
                  noise=0.05, mod=attack(10.0) if tokyo else None),
            FLine("Google Cloud", "Cloud Run", "Compute", reg,
                  f"//run.googleapis.com/projects/{pid}/locations/{reg}/services/auth",
                  "RUN-CPU", "Cloud Run CPU allocation time (tier 2)", "vCPU-hour", 0.0864, 6.0 * scale,
                  rname="auth", rtype="Service", sub=(pid, pn), hprof=hp, noise=0.05,
                  mod=attack(15.0) if tokyo else None),
            FLine("Google Cloud", GCP_SVC["sql"], "Databases", reg,
                  f"//cloudsql.googleapis.com/projects/{pid}/instances/players-{reg}", "SQL-MYSQL-HA",
                  "Cloud SQL for MySQL: Regional - vCPU and RAM", "hour", 1.46, 1.0,
                  rname=f"players-{reg}", rtype="Instance", sub=(pid, pn), noise=0.0),
            FLine("Google Cloud", GCP_SVC["gcs"], "Storage", reg,
                  f"//storage.googleapis.com/projects/_/buckets/hoshino-assets-{reg}", "GCS-STD",
                  "Standard Storage", "gibibyte month", 0.023, 50000 * scale / 730.0,
                  rname=f"hoshino-assets-{reg}", rtype="Bucket", sub=(pid, pn), noise=0.0),
        ]
    lines.append(FLine("Google Cloud", GCP_SVC["bq"], "Analytics", "US",
                       f"//bigquery.googleapis.com/projects/{pid}/datasets/telemetry", "BQ-ANALYSIS",
                       "Analysis (on-demand)", "tebibyte", 6.25, 0.15, rname="telemetry",
                       rtype="Dataset", sub=(pid, pn), hprof=business_hours(1.0, 0.2, 0, 10, 0.5),
                       noise=0.4, regionname="US (multi-region)"))
    fb.usage(lines, t_start, t_end, hourly=True)
    n = fb.write(os.path.join(sdir, "focus.csv"), shuffle=True)
    write_common(sdir, alert, acct, [("asia-northeast1", "RegionId")], focus_meta())
    return n


def sc_annual_renewal_quiet(sdir, rng):
    """Quiet: a marketplace annual contract renews on the same date as last year (+5 %)."""
    acct = "276604918335"
    fb = FocusBill(rng, acct, "Orchard Retail Group", "Amazon Web Services, Inc.")
    start, alert = D(2024, 10, 18), D(2025, 11, 14)
    t_end = T(2025, 11, 15, 0)
    sub = (acct, "orchard-prod")
    lines = []
    for reg, scale in [("us-east-1", 1.0), ("us-east-2", 0.45)]:
        lines += [
            FLine("AWS", "Amazon Elastic Compute Cloud", "Compute", reg,
                  f"arn:aws:autoscaling:{reg}:{acct}:autoScalingGroup:shop-{reg}",
                  "EC2-c7g.xlarge", "$0.145 per On Demand Linux c7g.xlarge Instance Hour", "Hrs",
                  0.145, 36 * 24 * scale, rname=f"shop-{reg}", rtype="AutoScalingGroup", sub=sub,
                  prof=SOFTWEEK, noise=0.05, qround=1),
            FLine("AWS", "Amazon Relational Database Service", "Databases", reg,
                  f"arn:aws:rds:{reg}:{acct}:db:orders-{reg}", "RDS-db.r7g.2xlarge",
                  "$0.9656 per RDS db.r7g.2xlarge Multi-AZ instance hour", "Hrs", 0.9656, 24,
                  rname=f"orders-{reg}", rtype="DBInstance", sub=sub, noise=0.0),
            FLine("AWS", "Amazon Simple Storage Service", "Storage", reg,
                  f"arn:aws:s3:::orchard-media-{reg}", "S3-TimedStorage", "$0.023 per GB-month",
                  "GB-Mo", 0.023, 70000 * scale / 30.4, rname=f"orchard-media-{reg}",
                  rtype="Bucket", sub=sub, noise=0.0, growth=0.0007),
            FLine("AWS", "Amazon ElastiCache", "Databases", reg,
                  f"arn:aws:elasticache:{reg}:{acct}:cluster:sessions-{reg}", "EC-cache.r7g.large",
                  "$0.219 per cache.r7g.large node hour", "Hrs", 0.219, 3 * 24, rname=f"sessions-{reg}",
                  rtype="CacheCluster", sub=sub, noise=0.0),
        ]
    fb.usage(lines, T(start.year, start.month, start.day), t_end, hourly=False)
    # sales tax: one Tax row per service per day at 6.25 %
    taxed = {}
    for r in fb.rows:
        k = (r["ChargePeriodStart"], r["ServiceName"], r["ChargePeriodEnd"])
        taxed[k] = taxed.get(k, 0.0) + float(r["BilledCost"])
    tax_ln = FLine("AWS", None, None, None, None, "TAX", "Sales tax", "USD", 0.0625, 1, sub=sub,
                   charge="Tax", freq="Usage-Based")
    svc_cat = {"Amazon Elastic Compute Cloud": "Compute",
               "Amazon Relational Database Service": "Databases",
               "Amazon Simple Storage Service": "Storage", "Amazon ElastiCache": "Databases",
               "Tessera Runtime Security - Annual Contract": "Security"}
    # annual contract (purchased 2024-11-14, renewed 2025-11-14)
    mk = FLine("AWS", "Tessera Runtime Security - Annual Contract", "Security", None, None,
               "MP-tessera-annual", "Tessera Runtime Security, Enterprise, 12-month contract",
               "Contract", 48000.0, 1, pub="Tessera Labs, Inc.", sub=sub, charge="Purchase",
               freq="One-Time")
    for day, amount in [(D(2024, 11, 14), 48000.0), (D(2025, 11, 14), 50400.0)]:
        t0 = T(day.year, day.month, day.day)
        fb.add(mk, t0, t0 + DAY, 1.0, price=amount)
        taxed[(fb._ts(t0), mk.svc, fb._ts(t0 + DAY))] = amount
    for (s0, svc, s1), cost in sorted(taxed.items()):
        ln = FLine("AWS", svc, svc_cat[svc], None, None, "TAX-" + svc_cat[svc].upper(),
                   "Sales tax (6.25%)", "USD", 0.0625, 1, sub=sub, charge="Tax")
        t0 = T.strptime(s0, "%Y-%m-%d %H:%M:%S")
        t1 = T.strptime(s1, "%Y-%m-%d %H:%M:%S")
        fb.add(ln, t0, t1, cost, price=0.0625, charge="Tax")
    del tax_ln
    n = fb.write(os.path.join(sdir, "focus.csv"))
    write_common(sdir, alert, acct, [], focus_meta())
    return n


# ============================================================================= main
SCENARIOS = [
    (sc_aks_os_disk, 1701),
    (sc_athena_workgroup, 1702),
    (sc_payroll_quiet, 1703),
    (sc_cryptomining, 1704),
    (sc_dataproc_policy, 1705),
    (sc_reseller_azure_pricelist, 1706),
    (sc_doc_ocr, 1707),
    (sc_snowflake_xl, 1708),
    (sc_ibm_monthly_quiet, 1709),
    (sc_waf_marketplace, 1710),
    (sc_t3_unlimited, 1711),
    (sc_azure_zone_redundancy, 1712),
    (sc_growth_quiet, 1713),
    (sc_acquisition_gcp, 1714),
    (sc_oci_adb_scaleup, 1715),
    (sc_kiosk_sync, 1716),
    (sc_pricelist_quiet, 1717),
    (sc_msk_storage, 1718),
    (sc_rhel_image, 1719),
    (sc_gcp_devweek_quiet, 1720),
    (sc_gcp_l7_ddos, 1721),
    (sc_ediscovery, 1722),
    (sc_annual_renewal_quiet, 1723),
]


def main():
    if len(sys.argv) != 2:
        print("usage: python gen.py OUT", file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for i, (fn, seed) in enumerate(SCENARIOS, 1):
        sdir = os.path.join(out, f"Scenario-{i}")
        os.makedirs(sdir, exist_ok=True)
        for f in ("data.csv", "focus.csv", "anomaly.json", "ground_truth.yaml", "scenario.json"):
            p = os.path.join(sdir, f)
            if os.path.exists(p):
                os.remove(p)
        rng = random.Random(seed)
        n = fn(sdir, rng)
        print(f"Scenario-{i}: {fn.__name__} ({n} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
