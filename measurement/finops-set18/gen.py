#!/usr/bin/env python3
"""finops-set18: held-out FinOps billing scenarios (ITBench-Lite data.csv and FOCUS-like focus.csv).

Usage: python gen.py OUT     (stdlib only, deterministic)
"""
import csv
import datetime as dt
import io
import json
import os
import random
import sys

D = dt.date


def drange(start, n):
    return [start + dt.timedelta(days=i) for i in range(n)]


def wkf(d, sat=1.0, sun=1.0):
    return sat if d.weekday() == 5 else sun if d.weekday() == 6 else 1.0


def jit(rng, s=0.03):
    return 1.0 + rng.uniform(-s, s)


def f4(x):
    return "%.4f" % x


def f8(x):
    return "%.8f" % x


# ----------------------------------------------------------------------------- writers

LITE_HDR = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
            "Price ($/hr)", "Num_Instances", "unblended_cost"]


def write_lite(path, rows, shuffle_seed=None):
    """rows: (date, acct, csp, svc, app, fam, price, num, hours)"""
    out = []
    for (d, acct, csp, svc, app, fam, price, num, hours) in rows:
        price = round(price, 4)
        out.append([d.isoformat(), acct, csp, svc, app, fam, f4(price), str(num), f4(price * num * hours)])
    if shuffle_seed is not None:
        random.Random(shuffle_seed).shuffle(out)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(LITE_HDR)
    w.writerows(out)
    with open(path, "w", newline="") as fh:
        fh.write(buf.getvalue())


FOCUS_HDR = ["AvailabilityZone", "BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency",
             "BillingPeriodEnd", "BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription",
             "ChargeFrequency", "ChargePeriodEnd", "ChargePeriodStart", "CommitmentDiscountId",
             "ConsumedQuantity", "ConsumedUnit", "EffectiveCost", "InvoiceIssuerName", "ListCost",
             "ListUnitPrice", "PricingCategory", "PricingQuantity", "PricingUnit", "ProviderName",
             "PublisherName", "RegionId", "RegionName", "ResourceId", "ResourceName", "ResourceType",
             "ServiceCategory", "ServiceName", "SkuId", "SubAccountId", "SubAccountName", "Tags"]

REGION_NAMES = {
    "us-east-1": "US East (N. Virginia)", "us-east-2": "US East (Ohio)", "us-west-2": "US West (Oregon)",
    "eu-west-1": "Europe (Ireland)", "eu-west-2": "Europe (London)", "eu-central-1": "Europe (Frankfurt)",
    "sa-east-1": "South America (Sao Paulo)", "ap-southeast-2": "Asia Pacific (Sydney)",
    "ap-northeast-1": "Asia Pacific (Tokyo)", "global": "Global",
    "europe-west4": "Netherlands", "europe-west1": "Belgium", "us-central1": "Iowa", "asia-northeast1": "Tokyo",
    "westeurope": "West Europe", "northeurope": "North Europe", "eastus2": "East US 2", "uksouth": "UK South",
    "germanywestcentral": "Germany West Central", "": "",
}


def month_bounds(ts):
    s = dt.datetime(ts.year, ts.month, 1)
    e = dt.datetime(ts.year + (ts.month == 12), ts.month % 12 + 1, 1)
    return s, e


def frow(line, start, end, qty, billed=None, list_price=None, extra=None):
    """line: dict of static attrs. qty: pricing quantity. Returns FOCUS dict row."""
    up = line["price"]
    cost = qty * up if billed is None else billed
    lp = line.get("list", up) if list_price is None else list_price
    bs, be = month_bounds(start)
    r = {
        "AvailabilityZone": line.get("az", ""),
        "BilledCost": f8(cost),
        "BillingAccountId": line["acct"],
        "BillingAccountName": line.get("acctname", ""),
        "BillingCurrency": line.get("cur", "USD"),
        "BillingPeriodEnd": be.strftime("%Y-%m-%d %H:%M:%S"),
        "BillingPeriodStart": bs.strftime("%Y-%m-%d %H:%M:%S"),
        "ChargeCategory": line.get("cat", "Usage"),
        "ChargeClass": "",
        "ChargeDescription": line.get("desc", ""),
        "ChargeFrequency": line.get("freq", "Usage-Based"),
        "ChargePeriodEnd": end.strftime("%Y-%m-%d %H:%M:%S"),
        "ChargePeriodStart": start.strftime("%Y-%m-%d %H:%M:%S"),
        "CommitmentDiscountId": line.get("cd", ""),
        "ConsumedQuantity": f8(qty) if line.get("cat", "Usage") == "Usage" else "",
        "ConsumedUnit": line.get("unit", "") if line.get("cat", "Usage") == "Usage" else "",
        "EffectiveCost": f8(cost),
        "InvoiceIssuerName": line.get("issuer", line["provider_full"]),
        "ListCost": f8(qty * lp) if line.get("cat", "Usage") == "Usage" else f8(cost),
        "ListUnitPrice": ("%.6f" % lp) if line.get("cat", "Usage") == "Usage" else "",
        "PricingCategory": line.get("pcat", "Standard"),
        "PricingQuantity": f8(qty),
        "PricingUnit": line.get("unit", ""),
        "ProviderName": line["provider"],
        "PublisherName": line.get("publisher", line["provider_full"]),
        "RegionId": line.get("region", ""),
        "RegionName": REGION_NAMES.get(line.get("region", ""), line.get("region", "")),
        "ResourceId": line.get("rid", ""),
        "ResourceName": line.get("rname", ""),
        "ResourceType": line.get("rtype", ""),
        "ServiceCategory": line["scat"],
        "ServiceName": line["service"],
        "SkuId": line.get("sku", ""),
        "SubAccountId": line.get("sub", ""),
        "SubAccountName": line.get("subname", ""),
        "Tags": json.dumps(line["tags"], sort_keys=True) if line.get("tags") else "",
    }
    if extra:
        r.update(extra)
    return r


def write_focus(path, rows, extra_cols=(), shuffle_seed=None):
    hdr = FOCUS_HDR + list(extra_cols)
    if shuffle_seed is not None:
        random.Random(shuffle_seed).shuffle(rows)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=hdr, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    with open(path, "w", newline="") as fh:
        fh.write(buf.getvalue())


def daily(d):
    s = dt.datetime(d.year, d.month, d.day)
    return s, s + dt.timedelta(days=1)


AWS = dict(provider="AWS", provider_full="Amazon Web Services, Inc.")
AZ = dict(provider="Microsoft", provider_full="Microsoft")
GCP = dict(provider="Google Cloud", provider_full="Google")


def L(base, **kw):
    x = dict(base)
    x.update(kw)
    return x


# ============================================================================ scenarios
# Each returns dict(kind, files written by caller): we write directly.

SCEN = []


def scenario(fn):
    SCEN.append(fn)
    return fn


def lite_fleet(rng, acct, dates, lines, hours_last=24, hours_first=24):
    """lines: list of (csp, svc, app, fam, price, base_num, weekend_factor, trend_per_day, fn)
    fn(i, d, num) -> (price, num) or None (default)."""
    rows = []
    n = len(dates)
    for i, d in enumerate(dates):
        hrs = hours_first if i == 0 else hours_last if i == n - 1 else 24
        for (csp, svc, app, fam, price, base, wf, tr, fn) in lines:
            h = hrs
            num = base * (1 + tr * i) * (wf if d.weekday() >= 5 else 1.0) * jit(rng, 0.04)
            p = price
            if fn is not None:
                res = fn(i, d, num, p)
                if res is None:
                    continue
                if len(res) == 3:
                    p, num, h2 = res
                    h = min(hrs, h2)
                else:
                    p, num = res
            num = max(0, int(round(num)))
            rows.append((d, acct, csp, svc, app, fam, p, num, h))
    return rows


# ---------------------------------------------------------------- P1 provider (Lite): Azure Dev/Test -> PAYG
@scenario
def s01(out):
    rng = random.Random(101)
    acct = "704215589316"
    dates = drange(D(2025, 3, 3), 120)
    ab = dates.index(D(2025, 6, 9))  # Monday
    up = lambda k: (lambda i, d, n, p: (p * k if i >= ab else p, n))
    lines = [
        ("AWS", "EC2", "web-storefront", "m6i.xlarge", 0.192, 42, 0.8, 0.001, None),
        ("AWS", "EC2", "web-storefront", "c6i.2xlarge", 0.34, 18, 0.8, 0.001, None),
        ("AWS", "RDS", "web-storefront", "db.r6g.2xlarge", 0.96, 2, 1.0, 0.0, None),
        ("AWS", "EKS", "recommendation", "m6g.2xlarge", 0.308, 26, 0.9, 0.0015, None),
        ("AWS", "ElastiCache", "recommendation", "cache.r6g.large", 0.206, 6, 1.0, 0.0, None),
        ("GCP", "Compute Engine", "analytics-etl", "n2-standard-16", 0.777, 8, 0.5, 0.0, None),
        ("GCP", "GKE", "analytics-etl", "e2-standard-8", 0.268, 14, 0.6, 0.0, None),
        # Azure: dev/test estates of several teams, Windows + SQL licence waived under Dev/Test
        ("Azure", "Virtual Machines", "erp-dev", "D8s_v5", 0.384, 22, 0.35, 0.0, up(1.48)),
        ("Azure", "Virtual Machines", "erp-dev", "E8s_v5", 0.504, 9, 0.35, 0.0, up(1.41)),
        ("Azure", "Virtual Machines", "qa-lab", "B4ms", 0.166, 30, 0.35, 0.0, up(1.56)),
        ("Azure", "SQL Database", "erp-dev", "GP_Gen5_8", 1.012, 3, 1.0, 0.0, up(1.37)),
        ("Azure", "SQL Database", "qa-lab", "GP_Gen5_4", 0.506, 4, 1.0, 0.0, up(1.37)),
        ("Azure", "App Service", "qa-lab", "P1v3", 0.113, 6, 1.0, 0.0, up(1.33)),
    ]
    rows = lite_fleet(rng, acct, dates, lines)
    return dict(kind="lite", rows=rows, alert=D(2025, 6, 9), acct=acct,
                truth=[("Azure", "CSP")])


# ---------------------------------------------------------------- P2 provider (FOCUS): Azure Hybrid Benefit lost
@scenario
def s02(out):
    rng = random.Random(102)
    acct = "8b2f6c1e-3a90-4d4e-9d7e-51c0a7e2b114"
    dates = drange(D(2025, 8, 1), 95)
    ab = D(2025, 10, 14)
    common = dict(acct=acct, acctname="Nordlicht Logistik GmbH", cur="EUR")
    res = []
    # Azure (Microsoft) resources, Windows/SQL licence normally covered by AHB
    for i, (svc, scat, reg, name, qty, price, ahb, unit) in enumerate([
        ("Virtual Machines", "Compute", "westeurope", "vm-tms-app-01", 24, 0.42, 1.62, "Hours"),
        ("Virtual Machines", "Compute", "westeurope", "vm-tms-app-02", 24, 0.42, 1.62, "Hours"),
        ("Virtual Machines", "Compute", "northeurope", "vm-wms-batch-01", 24, 0.84, 1.55, "Hours"),
        ("Virtual Machines", "Compute", "germanywestcentral", "vm-edi-gw-01", 24, 0.21, 1.7, "Hours"),
        ("SQL Database", "Databases", "westeurope", "sqldb-tms-prod", 24 * 8, 0.128, 1.45, "vCore Hours"),
        ("SQL Managed Instance", "Databases", "northeurope", "sqlmi-wms-prod", 24 * 16, 0.131, 1.47, "vCore Hours"),
        ("Azure Kubernetes Service", "Compute", "westeurope", "aks-win-np01", 24 * 6, 0.23, 1.52, "Hours"),
    ]):
        sub = "3f1c0e2a-77d1-4b8b-b0a4-%012d" % (i % 3)
        res.append((L(AZ, **common, service=svc, scat=scat, region=reg, rname=name,
                      rid="/subscriptions/%s/resourceGroups/rg-%s/providers/Microsoft.Compute/%s" % (sub, name.split('-')[1], name),
                      sub=sub, subname=["prod-tms", "prod-wms", "shared-edi"][i % 3], unit=unit, price=price,
                      desc="%s %s" % (svc, unit), tags={"costcenter": "CC-%d" % (410 + i % 3)}), qty, ahb, True))
    # Azure non-licensed services (unchanged)
    for name, svc, scat, reg, qty, price in [
        ("stnlltmsdocs", "Storage", "Storage", "westeurope", 18500, 0.0184 / 30),
        ("kv-nll-prod", "Key Vault", "Security", "westeurope", 52000, 0.00003),
        ("agw-nll-edge", "Application Gateway", "Networking", "westeurope", 24, 0.292),
    ]:
        res.append((L(AZ, **common, service=svc, scat=scat, region=reg, rname=name, rid="/subscriptions/x/%s" % name,
                      unit="Units", price=price, desc=svc), qty, 1.0, False))
    # AWS beside it
    for name, svc, scat, reg, qty, price in [
        ("i-0a7c3e5d9b1f24680", "Amazon Elastic Compute Cloud", "Compute", "eu-central-1", 24 * 4, 0.192),
        ("i-0b8d4f6e0c2a35791", "Amazon Elastic Compute Cloud", "Compute", "eu-central-1", 24 * 4, 0.192),
        ("nll-edi-archive", "Amazon Simple Storage Service", "Storage", "eu-central-1", 42000 / 30, 0.0245),
        ("db-edi-replica", "Amazon Relational Database Service", "Databases", "eu-central-1", 24, 0.71),
    ]:
        res.append((L(AWS, **common, service=svc, scat=scat, region=reg, rname=name,
                      rid="arn:aws:%s:%s:318840211902:%s" % (svc.split()[-1].lower(), reg, name),
                      unit="Hrs", price=price, desc=svc, issuer="Amazon Web Services EMEA SARL"), qty, 1.0, False))
    rows = []
    for d in dates:
        s, e = daily(d)
        for line, qty, ahb, licensed in res:
            q = qty * jit(rng, 0.02)
            if "batch" in line.get("rname", "") and d.weekday() >= 5:
                q *= 0.3
            p = line["price"] * (ahb if (licensed and d >= ab) else 1.0)
            rows.append(frow(line, s, e, q, billed=q * p, list_price=line["price"] * ahb if licensed else None))
        # monthly Azure reservation purchase (normal, same every month)
        if d.day == 1:
            line = L(AZ, **common, service="Virtual Machines", scat="Compute", region="westeurope", cat="Purchase",
                     freq="Recurring", desc="Reserved VM Instance, D4s v5, 1 Year, monthly", unit="", price=0.0,
                     cd="/providers/Microsoft.Capacity/reservationOrders/5c7e0a1b")
            rows.append(frow(line, s, e, 1, billed=1380.0))
    return dict(kind="focus", rows=rows, alert=D(2025, 10, 17), acct=acct, truth=[("Microsoft", "ProviderName")],
                levels=["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"],
                shuffle=True)


# ---------------------------------------------------------------- P3 provider (Lite): DigitalOcean token leaked
@scenario
def s03(out):
    rng = random.Random(103)
    acct = "219934507781"
    dates = drange(D(2024, 11, 18), 85)
    ab = dates.index(D(2025, 1, 27))

    def ramp(k):
        def fn(i, d, n, p):
            if i < ab:
                return p, n
            step = min(i - ab + 1, 4)
            return p, n * (1 + (k - 1) * step / 4.0)
        return fn
    lines = [
        ("AWS", "EC2", "api-gateway", "c7g.xlarge", 0.145, 36, 0.85, 0.002, None),
        ("AWS", "EC2", "api-gateway", "c7g.2xlarge", 0.29, 10, 0.85, 0.002, None),
        ("AWS", "Aurora", "api-gateway", "db.r7g.xlarge", 0.55, 3, 1.0, 0.0, None),
        ("AWS", "OpenSearch", "search", "r6g.large.search", 0.167, 6, 1.0, 0.0, None),
        ("AWS", "EKS", "search", "m7g.xlarge", 0.163, 12, 0.9, 0.0, None),
        ("DigitalOcean", "Droplets", "marketing-site", "s-4vcpu-8gb", 0.07143, 8, 1.0, 0.0, ramp(6.0)),
        ("DigitalOcean", "Droplets", "status-page", "s-2vcpu-4gb", 0.03571, 3, 1.0, 0.0, ramp(6.5)),
        ("DigitalOcean", "Kubernetes", "marketing-site", "s-8vcpu-16gb", 0.14286, 3, 1.0, 0.0, ramp(5.5)),
        ("DigitalOcean", "Managed Databases", "marketing-site", "db-s-2vcpu-4gb", 0.08929, 2, 1.0, 0.0, ramp(4.0)),
        ("DigitalOcean", "Spaces", "marketing-site", "spaces-250gb", 0.00744, 4, 1.0, 0.0, ramp(7.0)),
    ]
    rows = lite_fleet(rng, acct, dates, lines, hours_last=13.0)
    return dict(kind="lite", rows=rows, alert=D(2025, 1, 29), acct=acct, truth=[("DigitalOcean", "CSP")])


# ---------------------------------------------------------------- S1 service (FOCUS): CloudFront Origin Shield on all distributions
@scenario
def s04(out):
    rng = random.Random(104)
    acct = "552019348807"
    dates = drange(D(2025, 1, 6), 150)
    ab = D(2025, 5, 20)
    common = dict(acct=acct, acctname="Parcelwise Inc", sub="552019348807", subname="media-prod")
    lines = []
    for did, app, gb, req in [("E2QWRUHAAMPLE1", "web", 3100, 31e6), ("E1P0S7X9K2DIST", "images", 8800, 79e6),
                              ("E3M8TS4VIDEO77", "video", 22000, 176e6), ("E9DOCSSTATIC02", "docs", 450, 4.9e6),
                              ("E7APPDL0ADS555", "downloads", 5200, 41e6)]:
        base = L(AWS, **common, service="Amazon CloudFront", scat="Networking", region="global",
                 rid="arn:aws:cloudfront::552019348807:distribution/%s" % did, rname=did, rtype="Distribution",
                 tags={"app": app})
        lines.append(("xfer", L(base, unit="GB", price=0.085, desc="$0.085 per GB data transfer out (US)"), gb))
        lines.append(("req", L(base, unit="Requests", price=0.0000012, desc="$0.012 per 10,000 HTTPS requests"), req))
        lines.append(("os", L(base, unit="Requests", price=0.0000075, sku="OriginShield-USE1",
                              desc="$0.0075 per 10,000 Origin Shield requests (us-east-1)"), req))
    other = []
    for svc, scat, reg, rid, qty, price, unit in [
        ("Amazon Simple Storage Service", "Storage", "us-east-1", "arn:aws:s3:::parcelwise-media-origin", 210000 / 30, 0.023, "GB-Mo"),
        ("Amazon Simple Storage Service", "Storage", "us-east-1", "arn:aws:s3:::parcelwise-static", 9000 / 30, 0.023, "GB-Mo"),
        ("Amazon Elastic Compute Cloud", "Compute", "us-east-1", "arn:aws:ec2:us-east-1:552019348807:instance/i-04f1c2b3a5d6e7f80", 24 * 6, 0.34, "Hrs"),
        ("Amazon Elastic Compute Cloud", "Compute", "us-east-1", "arn:aws:ec2:us-east-1:552019348807:instance/i-0a1b2c3d4e5f60718", 24 * 6, 0.34, "Hrs"),
        ("AWS Elemental MediaConvert", "Media", "us-east-1", "arn:aws:mediaconvert:us-east-1:552019348807:queues/Default", 1400, 0.0075, "Minutes"),
        ("Amazon Relational Database Service", "Databases", "us-east-1", "arn:aws:rds:us-east-1:552019348807:db:parcelwise-catalog", 24, 1.04, "Hrs"),
    ]:
        other.append((L(AWS, **common, service=svc, scat=scat, region=reg, rid=rid, unit=unit, price=price, desc=svc), qty))
    rows = []
    for i, d in enumerate(dates):
        s, e = daily(d)
        wf = wkf(d, 1.18, 1.25) * (1 + 0.0015 * i)
        for kind, line, q in lines:
            if kind == "os":
                if d < ab:
                    continue
                q = q * 0.62  # requests that reach the shield
            rows.append(frow(line, s, e, q * wf * jit(rng, 0.05)))
        for line, q in other:
            rows.append(frow(line, s, e, q * jit(rng, 0.02)))
        if d.day == 1:  # CloudFront security savings bundle, monthly (normal)
            b = L(AWS, **common, service="Amazon CloudFront", scat="Networking", region="global", cat="Purchase",
                  freq="Recurring", desc="CloudFront Security Savings Bundle monthly commitment", unit="", price=0.0)
            rows.append(frow(b, s, e, 1, billed=1800.0))
    return dict(kind="focus", rows=rows, alert=D(2025, 5, 20), acct=acct, truth=[("Amazon CloudFront", "ServiceName")],
                levels=["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"])


# ---------------------------------------------------------------- S2 service (Lite): Azure Firewall Standard -> Premium everywhere
@scenario
def s05(out):
    rng = random.Random(105)
    acct = "430077125590"
    dates = drange(D(2025, 2, 1), 210)
    ab = dates.index(D(2025, 8, 12))
    prem = lambda i, d, n, p: ((1.75 if i >= ab else 1.25), n)
    lines = [
        ("Azure", "Virtual Machines", "core-banking", "E16ds_v5", 1.008, 14, 1.0, 0.0, None),
        ("Azure", "Virtual Machines", "core-banking", "D4ds_v5", 0.226, 40, 0.7, 0.0, None),
        ("Azure", "Virtual Machines", "payments-hub", "F8s_v2", 0.338, 22, 0.6, 0.0008, None),
        ("Azure", "SQL Managed Instance", "core-banking", "BC_Gen5_16", 4.32, 2, 1.0, 0.0, None),
        ("Azure", "Azure Kubernetes Service", "payments-hub", "D8ds_v5", 0.452, 30, 0.75, 0.0008, None),
        ("Azure", "Azure Firewall", "hub-weu", "Firewall-Deployment", 1.25, 3, 1.0, 0.0, prem),
        ("Azure", "Azure Firewall", "hub-neu", "Firewall-Deployment", 1.25, 2, 1.0, 0.0, prem),
        ("Azure", "Azure Firewall", "payments-hub", "Firewall-Deployment", 1.25, 2, 1.0, 0.0, prem),
        ("Azure", "Azure Firewall", "core-banking", "Firewall-Deployment", 1.25, 2, 1.0, 0.0, prem),
        ("Azure", "Application Gateway", "payments-hub", "WAF_v2", 0.443, 4, 1.0, 0.0, None),
        ("Azure", "Azure Bastion", "hub-weu", "Standard", 0.29, 2, 1.0, 0.0, None),
        ("Azure", "VPN Gateway", "hub-weu", "VpnGw2AZ", 0.66, 2, 1.0, 0.0, None),
    ]
    rows = lite_fleet(rng, acct, dates, lines)
    # a pre-existing month-start fee line (Azure Monitor commitment, same each month) - stays normal
    for d in dates:
        if d.day == 1:
            rows.append((d, acct, "Azure", "Azure Monitor", "platform-logging", "CommitmentTier-500GB", 49.0, 1, 24))
    rows.sort(key=lambda r: r[0])
    return dict(kind="lite", rows=rows, alert=D(2025, 8, 12), acct=acct, truth=[("Azure Firewall", "Cloud_Service")])


# ---------------------------------------------------------------- S3 service (FOCUS, GCP+AWS): BigQuery reservation dropped -> on-demand
@scenario
def s06(out):
    rng = random.Random(106)
    acct = "01A2B3-C4D5E6-F7A8B9"
    dates = drange(D(2025, 4, 1), 180)
    ab = D(2025, 9, 1)  # reservation deleted at the commitment end, first of month
    common = dict(acct=acct, acctname="Kestrel Media billing", cur="USD")
    projects = [("kestrel-bi-prod", "bi"), ("kestrel-ads-ml", "ads"), ("kestrel-finance", "finance"), ("kestrel-adhoc", "adhoc")]
    rows = []
    for i, d in enumerate(dates):
        s, e = daily(d)
        wd = d.weekday() < 5
        for p, team in projects:
            tib = {"bi": 42, "ads": 65, "finance": 9, "adhoc": 18}[team] * (1.0 if wd else 0.25) * jit(rng, 0.12)
            line = L(GCP, **common, service="BigQuery", scat="Analytics", region="US", sub=p, subname=p,
                     rid="projects/%s" % p, tags={"team": team})
            if d < ab:
                # analysis billed through the reservation; usage line at zero, slot commitment below
                rows.append(frow(L(line, unit="Tebibytes", price=0.0, pcat="Committed",
                                   desc="Analysis (covered by Enterprise edition reservation)", sku="BQ-RES-ENT"), s, e, tib,
                                 list_price=6.25))
            else:
                rows.append(frow(L(line, unit="Tebibytes", price=6.25, desc="Analysis (on-demand)", sku="BQ-ANALYSIS-OD"),
                                 s, e, tib))
            # storage, always
            rows.append(frow(L(line, unit="Gibibyte months", price=0.02 / 30,
                               desc="Active logical storage", sku="BQ-STORAGE-ACT"), s, e,
                             {"bi": 48000, "ads": 91000, "finance": 6000, "adhoc": 12000}[team] * (1 + 0.001 * i)))
        if d < ab:
            # 500-slot annual commitment billed hourly-equivalent daily to the admin project
            rl = L(GCP, **common, service="BigQuery Reservation API", scat="Analytics", region="US",
                   sub="kestrel-bq-admin", subname="kestrel-bq-admin", rid="projects/kestrel-bq-admin/reservations/prod",
                   unit="Slot hours", price=0.048, pcat="Committed", desc="Enterprise edition slots (1 yr commit)")
            rows.append(frow(rl, s, e, 500 * 24))
        for svc, scat, rid, q, pr, unit in [
            ("Compute Engine", "Compute", "projects/kestrel-ads-ml/instances/ads-trainer-1", 24 * 16, 0.0475, "vCPU hours"),
            ("Cloud Storage", "Storage", "projects/kestrel-bi-prod/buckets/kestrel-lake", 380000 / 30, 0.02, "GiB months"),
            ("Cloud Composer", "Analytics", "projects/kestrel-bi-prod/environments/orchestrator", 24, 0.35, "hours"),
        ]:
            rows.append(frow(L(GCP, **common, service=svc, scat=scat, region="us-central1", rid=rid, unit=unit, price=pr,
                               desc=svc, sub=rid.split('/')[1]), s, e, q * jit(rng, 0.03)))
        for rid, q, pr in [("arn:aws:ec2:us-east-1:771203984411:instance/i-0c2e4a6b8d0f13579", 24, 1.536),
                           ("arn:aws:rds:us-east-1:771203984411:db:kestrel-cms", 24, 0.48)]:
            rows.append(frow(L(AWS, **common, service="Amazon Elastic Compute Cloud" if ":ec2:" in rid else "Amazon Relational Database Service",
                               scat="Compute" if ":ec2:" in rid else "Databases", region="us-east-1", rid=rid, unit="Hrs", price=pr,
                               desc="On-demand", sub="771203984411"), s, e, q))
    return dict(kind="focus", rows=rows, alert=D(2025, 9, 1), acct=acct, truth=[("BigQuery", "ServiceName")],
                levels=["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"])


# ---------------------------------------------------------------- F1 family (Lite): Batch compute env minvCpus left at 512
@scenario
def s07(out):
    rng = random.Random(107)
    acct = "889120457736"
    dates = drange(D(2025, 5, 12), 75)
    ab = dates.index(D(2025, 7, 8))

    def batch(i, d, n, p):
        # nightly bursts normally; after change a floor of 16 instances all day
        if i >= ab:
            return p, max(n, 16 + rng.randint(0, 2))
        return p, n
    lines = [
        ("AWS", "EC2", "genomics-pipeline", "c6i.8xlarge", 1.36, 2.2, 0.4, 0.0, batch),
        ("AWS", "EC2", "genomics-pipeline", "r6i.4xlarge", 1.008, 3, 0.5, 0.0, None),
        ("AWS", "EC2", "genomics-pipeline", "m6i.large", 0.096, 4, 1.0, 0.0, None),
        ("AWS", "EC2", "lims-portal", "c6i.8xlarge", 1.36, 1, 1.0, 0.0, None),
        ("AWS", "EC2", "lims-portal", "t3.large", 0.0832, 10, 1.0, 0.0, None),
        ("AWS", "RDS", "lims-portal", "db.m6i.2xlarge", 0.684, 2, 1.0, 0.0, None),
        ("AWS", "FSx", "genomics-pipeline", "Lustre-Persistent2-125", 1.3, 6, 1.0, 0.0, None),
        ("AWS", "EKS", "variant-api", "m6i.2xlarge", 0.384, 12, 0.8, 0.0, None),
        ("AWS", "EKS", "variant-api", "c6i.8xlarge", 1.36, 2, 0.8, 0.0, None),
    ]
    rows = lite_fleet(rng, acct, dates, lines)
    return dict(kind="lite", rows=rows, alert=D(2025, 7, 8), acct=acct, truth=[("c6i.8xlarge", "Instance_Family")],
                shuffle=1071)


# ---------------------------------------------------------------- F2 family (Lite): auto-shutdown schedule deleted on SAP dev boxes
@scenario
def s08(out):
    rng = random.Random(108)
    acct = "164400928813"
    dates = drange(D(2025, 1, 1), 160)
    ab = dates.index(D(2025, 5, 16))  # Friday night schedule removed

    def sched(i, d, n, p):
        # billed hours per instance: 10h weekdays, none at weekends before; 24h all days after
        if i >= ab:
            return p, 14, 24.0
        return (p, 14, 10.0) if d.weekday() < 5 else (p, 0, 24.0)
    lines = [
        ("Azure", "Virtual Machines", "sap-s4-dev", "M32ls", 6.67, 2, 1.0, 0.0, None),
        ("Azure", "Virtual Machines", "sap-s4-dev", "E16ds_v5", 1.008, 14, 1.0, 0.0, sched),
        ("Azure", "Virtual Machines", "sap-s4-dev", "D4ds_v5", 0.226, 8, 1.0, 0.0, None),
        ("Azure", "Virtual Machines", "sap-s4-prd", "M64s", 13.34, 2, 1.0, 0.0, None),
        ("Azure", "Virtual Machines", "sap-s4-prd", "E16ds_v5", 1.008, 8, 1.0, 0.0, None),
        ("Azure", "Azure NetApp Files", "sap-s4-prd", "Premium-4TiB", 1.64, 4, 1.0, 0.0, None),
        ("Azure", "Azure NetApp Files", "sap-s4-dev", "Standard-2TiB", 0.55, 2, 1.0, 0.0, None),
        ("Azure", "Azure Backup", "sap-s4-prd", "Instance-500GB+", 0.0139, 12, 1.0, 0.0, None),
    ]
    rows = lite_fleet(rng, acct, dates, lines)
    return dict(kind="lite", rows=rows, alert=D(2025, 5, 19), acct=acct, truth=[("E16ds_v5", "Instance_Family")])


# ---------------------------------------------------------------- F3 family (Lite): read replicas 1 -> 3 on one RDS class
@scenario
def s09(out):
    rng = random.Random(109)
    acct = "306611875042"
    dates = drange(D(2024, 10, 1), 240)
    ab = dates.index(D(2025, 5, 2))

    def rep(i, d, n, p):
        return p, (4 if i >= ab else 2)
    lines = [
        ("AWS", "RDS", "orders", "db.r6g.4xlarge", 1.89, 2, 1.0, 0.0, rep),
        ("AWS", "RDS", "orders", "db.t4g.medium", 0.065, 3, 1.0, 0.0, lambda i, d, n, p: (p, 3)),
        ("AWS", "RDS", "customers", "db.r6g.2xlarge", 0.945, 2, 1.0, 0.0, lambda i, d, n, p: (p, 2)),
        ("AWS", "EC2", "orders", "m6g.xlarge", 0.154, 24, 0.75, 0.0006, None),
        ("AWS", "EC2", "customers", "m6g.xlarge", 0.154, 12, 0.75, 0.0006, None),
        ("AWS", "EC2", "warehouse-sync", "c6g.2xlarge", 0.272, 6, 1.0, 0.0, None),
        ("AWS", "ElastiCache", "orders", "cache.r6g.xlarge", 0.411, 4, 1.0, 0.0, lambda i, d, n, p: (p, 4)),
        ("AWS", "MSK", "warehouse-sync", "kafka.m5.large", 0.21, 3, 1.0, 0.0, lambda i, d, n, p: (p, 3)),
    ]
    rows = lite_fleet(rng, acct, dates, lines)
    # reserved-instance style: RDS r6g.2xlarge is covered; shows as 0-cost rows after RI purchase in Jan
    out_rows = []
    for r in rows:
        if r[5] == "db.r6g.2xlarge" and r[0] >= D(2025, 1, 1):
            r = r[:6] + (0.0,) + r[7:]
        out_rows.append(r)
    for d in dates:
        if d.day == 1 and d >= D(2025, 1, 1):
            out_rows.append((d, acct, "AWS", "RDS", "customers", "RI-db.r6g.2xlarge-monthly", 849.72, 1, 1))
    out_rows.sort(key=lambda r: (r[0], r[3], r[4]))
    return dict(kind="lite", rows=out_rows, alert=D(2025, 5, 7), acct=acct, truth=[("db.r6g.4xlarge", "Instance_Family")])


# ---------------------------------------------------------------- R1 region (FOCUS): bot storm on the sa-east-1 API stack, over by alert
@scenario
def s10(out):
    rng = random.Random(110)
    acct = "613377024598"
    dates = drange(D(2025, 6, 2), 110)
    spike = [D(2025, 9, 3), D(2025, 9, 4)]
    common = dict(acct=acct, acctname="Tramo Pagos", sub=acct, subname="tramo-prod")
    lines = []
    for reg in ["us-east-1", "sa-east-1", "eu-west-1"]:
        w = {"us-east-1": 1.0, "sa-east-1": 0.7, "eu-west-1": 0.4}[reg]
        for svc, scat, rid, q, pr, unit, elastic in [
            ("Elastic Load Balancing", "Networking", "loadbalancer/app/api-%s/8f1e2d" % reg, 1900, 0.008, "LCU-Hrs", 1),
            ("Amazon API Gateway", "Networking", "restapis/pay-%s" % reg, 22e6, 3.5e-6, "Requests", 1),
            ("AWS Lambda", "Compute", "function:authz-%s" % reg, 3.1e6, 1.66667e-5, "Lambda-GB-Second", 1),
            ("Amazon DynamoDB", "Databases", "table/sessions-%s" % reg, 40e6, 1.25e-6, "WriteRequestUnits", 1),
            ("AWS WAF", "Security", "webacl/edge-%s" % reg, 22e6, 6e-7, "Requests", 1),
            ("Amazon Elastic Compute Cloud", "Compute", "instance/i-%s-core" % reg.replace('-', ''), 24 * 10, 0.192, "Hrs", 0),
            ("Amazon Relational Database Service", "Databases", "db:ledger-%s" % reg, 24, 1.62, "Hrs", 0),
        ]:
            lines.append((L(AWS, **common, service=svc, scat=scat, region=reg, unit=unit, price=pr * (1.3 if reg == "sa-east-1" else 1.0),
                            rid="arn:aws:%s:%s:%s:%s" % (svc.split()[-1].lower(), reg, acct, rid), desc="%s %s" % (svc, unit)),
                          q * (w if elastic else 1.0), elastic))
    rows = []
    for i, d in enumerate(dates):
        s, e = daily(d)
        payday = 1.35 if d.day in (5, 20) else 1.0  # Brazilian payday peaks (normal)
        for line, q, el in lines:
            f = jit(rng, 0.04)
            if el:
                f *= wkf(d, 0.8, 0.7) * (payday if line["region"] == "sa-east-1" else 1.0)
                if line["region"] == "sa-east-1" and d in spike:
                    f *= 6.5 if d == spike[0] else 4.0
            rows.append(frow(line, s, e, q * f))
        if d.day == 1:
            cr = L(AWS, **common, service="AWS Lambda", scat="Compute", region="", cat="Credit", freq="One-Time",
                   desc="AWS Activate credit", unit="", price=0.0)
            rows.append(frow(cr, s, e, 1, billed=-250.0))
    return dict(kind="focus", rows=rows, alert=D(2025, 9, 6), acct=acct, truth=[("sa-east-1", "RegionId")],
                levels=["BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId"])


# ---------------------------------------------------------------- R2 region (FOCUS, GCP hourly): HPA target halved in europe-west4 clusters
@scenario
def s11(out):
    rng = random.Random(111)
    acct = "0192AB-77CD10-EF3456"
    start = D(2025, 10, 1)
    ndays = 62
    change = dt.datetime(2025, 11, 18, 9, 0)
    common = dict(acct=acct, acctname="Velo Europe", cur="EUR")
    regions = {"europe-west4": 1.0, "europe-west1": 0.8, "us-central1": 0.5}
    lines = []
    for reg, w in regions.items():
        proj = "velo-%s" % reg
        for svc, scat, rid, q, pr, unit, elastic in [
            ("Compute Engine", "Compute", "projects/%s/zones/%s-a/instanceGroups/gke-main-pool" % (proj, reg), 48, 0.0389, "vCPU hours", 1),
            ("Compute Engine", "Compute", "projects/%s/zones/%s-a/instanceGroups/gke-main-pool-ram" % (proj, reg), 192, 0.0052, "GiB hours", 1),
            ("Networking", "Networking", "projects/%s/global/forwardingRules/ingress" % proj, 140, 0.008, "GiB", 1),
            ("Cloud Logging", "Management and Governance", "projects/%s/logs/k8s" % proj, 2.5, 0.5, "GiB", 1),
            ("Cloud SQL", "Databases", "projects/%s/instances/orders-pg" % proj, 8, 0.0413, "vCPU hours", 0),
            ("Cloud Memorystore for Redis", "Databases", "projects/%s/instances/cart-cache" % proj, 13, 0.0158, "GiB hours", 0),
        ]:
            lines.append((L(GCP, **common, service=svc, scat=scat, region=reg, rid=rid, unit=unit, price=pr, sub=proj, subname=proj,
                            desc=svc), q * (w if elastic else 1.0), elastic))
    rows = []
    for k in range(ndays * 24 - 7):  # last day partial (export at 17:00)
        ts = dt.datetime(start.year, start.month, start.day) + dt.timedelta(hours=k)
        h = ts.hour
        diurnal = 0.55 + 0.45 * max(0.0, min(1.0, (1 - abs(h - 14) / 9.0)))
        for line, q, el in lines:
            f = jit(rng, 0.05)
            if el:
                f *= diurnal * wkf(ts.date(), 0.85, 0.8)
                if line["region"] == "europe-west4" and ts >= change:
                    f *= 2.1
            rows.append(frow(line, ts, ts + dt.timedelta(hours=1), q * f))
    return dict(kind="focus", rows=rows, alert=D(2025, 11, 18), acct=acct, truth=[("europe-west4", "RegionId")],
                levels=["BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId"])


# ---------------------------------------------------------------- R3 region (FOCUS): archived EBS snapshots restored for an audit in eu-west-2
@scenario
def s12(out):
    rng = random.Random(112)
    acct = "240918553107"
    dates = drange(D(2025, 2, 10), 130)
    ab = D(2025, 6, 10)
    common = dict(acct=acct, acctname="Harbourline Insurance", cur="GBP")
    rows = []
    base = []
    for reg in ["eu-west-2", "eu-west-1", "us-east-1"]:
        w = {"eu-west-2": 1.0, "eu-west-1": 0.6, "us-east-1": 0.3}[reg]
        for svc, scat, rid, q, pr, unit in [
            ("Amazon Elastic Compute Cloud", "Compute", "instance/i-%s-app" % reg.replace('-', ''), 24 * 12 * w, 0.11, "Hrs"),
            ("Amazon Elastic Compute Cloud", "Compute", "volume/vol-%s-data" % reg.replace('-', ''), 20000 * w / 30, 0.0928, "GB-Mo"),
            ("Amazon Elastic Compute Cloud", "Compute", "snapshot/archive-%s" % reg.replace('-', ''), 140000 * w / 30, 0.0125, "GB-Mo"),
            ("AWS Backup", "Storage", "backup-vault:claims-%s" % reg, 60000 * w / 30, 0.05, "GB-Mo"),
            ("Amazon Simple Storage Service", "Storage", "claims-docs-%s" % reg, 90000 * w / 30, 0.024, "GB-Mo"),
        ]:
            base.append(L(AWS, **common, service=svc, scat=scat, region=reg, unit=unit, price=pr, desc="%s %s" % (svc, unit),
                          rid="arn:aws:%s:%s:%s:%s" % ("ec2" if "Compute" in svc else svc.split()[-1].lower(), reg, acct, rid), q=q))
    for i, d in enumerate(dates):
        s, e = daily(d)
        for line in base:
            rows.append(frow(line, s, e, line["q"] * (1 + 0.0005 * i) * jit(rng, 0.02)))
        if d >= ab:
            k = (d - ab).days
            reg = "eu-west-2"
            extra = [
                ("Amazon Elastic Compute Cloud", "Compute", "snapshot/restore-archive", "GB", 0.0275,
                 38000 if k < 6 else 0.0, "EBS:SnapshotArchiveRestore"),
                ("Amazon Elastic Compute Cloud", "Compute", "volume/vol-audit-restored", "GB-Mo", 0.0928,
                 min(k + 1, 6) * 38000 / 30, "EBS:VolumeUsage.gp3"),
                ("Amazon Elastic Compute Cloud", "Compute", "instance/i-audit-scanner", "Hrs", 0.768, 24 * 8, "BoxUsage:r6i.4xlarge"),
                ("AWS Backup", "Storage", "recovery-point:audit-restore", "GB", 0.02, 52000 if k < 5 else 0.0, "Restore:Warm"),
                ("Amazon Simple Storage Service", "Storage", "harbourline-audit-export", "Requests", 0.0000054, 2.6e6, "Requests-Tier1"),
            ]
            for svc, scat, rid, unit, pr, q, sku in extra:
                if q <= 0:
                    continue
                line = L(AWS, **common, service=svc, scat=scat, region=reg, unit=unit, price=pr, sku=sku, desc=sku,
                         rid="arn:aws:%s:%s:%s:%s" % ("ec2" if "Compute" in svc else svc.split()[-1].lower(), reg, acct, rid + "-%d" % 1),
                         tags={"project": "fca-audit-2025"})
                rows.append(frow(line, s, e, q * jit(rng, 0.03)))
        if d.day == 1:
            t = L(AWS, **common, service="Amazon Elastic Compute Cloud", scat="Compute", region="", cat="Tax", freq="Recurring",
                  desc="VAT 20%", unit="", price=0.0)
            rows.append(frow(t, s, e, 1, billed=0.0))
    return dict(kind="focus", rows=rows, alert=D(2025, 6, 14), acct=acct, truth=[("eu-west-2", "RegionId")],
                levels=["BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId"])


# ---------------------------------------------------------------- A1 application (Lite): AV1 default encoding in media-transcode
@scenario
def s13(out):
    rng = random.Random(113)
    acct = "991234007652"
    dates = drange(D(2025, 3, 15), 100)
    ab = dates.index(D(2025, 6, 3))
    av1 = lambda k: (lambda i, d, n, p: (p, n * k if i >= ab else n))
    lines = [
        ("AWS", "EC2", "media-transcode", "c7g.4xlarge", 0.58, 20, 0.9, 0.0, av1(3.4)),
        ("AWS", "EC2", "media-transcode", "c7g.8xlarge", 1.16, 6, 0.9, 0.0, av1(3.1)),
        ("AWS", "EKS", "media-transcode", "c7g.2xlarge", 0.29, 8, 0.9, 0.0, av1(2.6)),
        ("AWS", "EC2", "player-api", "m7g.large", 0.0816, 30, 0.85, 0.001, None),
        ("AWS", "EC2", "player-api", "c7g.4xlarge", 0.58, 4, 0.85, 0.001, None),
        ("AWS", "EKS", "catalog", "m7g.xlarge", 0.163, 18, 0.9, 0.0, None),
        ("AWS", "RDS", "catalog", "db.r7g.2xlarge", 0.955, 2, 1.0, 0.0, None),
        ("AWS", "ElastiCache", "player-api", "cache.r7g.large", 0.219, 6, 1.0, 0.0, None),
        ("AWS", "EC2", "ads-insertion", "c7g.xlarge", 0.145, 14, 1.2, 0.0, None),
    ]
    rows = lite_fleet(rng, acct, dates, lines, hours_first=7.0)
    return dict(kind="lite", rows=rows, alert=D(2025, 6, 3), acct=acct, truth=[("media-transcode", "Application")])


# ---------------------------------------------------------------- A2 application (FOCUS + x_Application): Document AI on every page
@scenario
def s14(out):
    rng = random.Random(114)
    acct = "015C2A-9E81F0-44D7B2"
    dates = drange(D(2025, 7, 7), 90)
    ab = D(2025, 9, 16)
    common = dict(acct=acct, acctname="Lumen Lending")
    rows = []
    apps = {
        "kyc-verify": [("Document AI", "AI and Machine Learning", "processors/ocr-1", 9000, 0.0015, "Pages", 4.2),
                       ("Document AI", "AI and Machine Learning", "processors/form-parser", 3000, 0.03, "Pages", 4.5),
                       ("Cloud Storage", "Storage", "buckets/kyc-uploads", 6.0e5, 0.000005, "Class A operations", 3.5),
                       ("Cloud Run", "Compute", "services/kyc-orchestrator", 90000, 0.000024, "vCPU-seconds", 2.9)],
        "loan-origination": [("Cloud Run", "Compute", "services/lo-api", 400000, 0.000024, "vCPU-seconds", 1.0),
                             ("Cloud SQL", "Databases", "instances/lo-pg", 96, 0.0413, "vCPU hours", 1.0),
                             ("Document AI", "AI and Machine Learning", "processors/bank-statement", 1200, 0.1, "Pages", 1.0)],
        "collections": [("Compute Engine", "Compute", "instances/dialer-1", 24 * 8, 0.0475, "vCPU hours", 1.0),
                        ("Cloud SQL", "Databases", "instances/coll-pg", 48, 0.0413, "vCPU hours", 1.0)],
        "data-platform": [("BigQuery", "Analytics", "datasets/risk", 2.2, 6.25, "Tebibytes", 1.0),
                          ("Cloud Storage", "Storage", "buckets/lake", 210000 / 30, 0.02, "GiB months", 1.0)],
    }
    for i, d in enumerate(dates):
        s, e = daily(d)
        for app, items in apps.items():
            for svc, scat, rid, q, pr, unit, k in items:
                line = L(GCP, **common, service=svc, scat=scat, region="us-central1" if svc != "Document AI" else "us",
                         rid="projects/lumen-%s/%s" % (app, rid), unit=unit, price=pr, desc=svc, sub="lumen-%s" % app,
                         subname="lumen-%s" % app, tags={"app": app})
                f = jit(rng, 0.06)
                if app != "data-platform" and svc not in ("Cloud SQL", "Compute Engine"):
                    f *= wkf(d, 0.45, 0.35)
                if d >= ab:
                    f *= k
                rows.append(frow(line, s, e, q * f, extra={"x_Application": app}))
        if d.day == 1:
            line = L(GCP, **common, service="Cloud Run", scat="Compute", region="", cat="Credit", freq="Recurring",
                     desc="Free tier", unit="", price=0.0)
            rows.append(frow(line, s, e, 1, billed=-4.2, extra={"x_Application": ""}))
    return dict(kind="focus", rows=rows, alert=D(2025, 9, 19), acct=acct, truth=[("kyc-verify", "x_Application")],
                levels=["BillingAccountId", "ProviderName", "x_Application", "ServiceName", "ResourceId"],
                extra_cols=["x_Application"])


# ---------------------------------------------------------------- A3 application (Lite): geo-tiles pre-render of zoom 18, ramp
@scenario
def s15(out):
    rng = random.Random(115)
    acct = "377405118826"
    dates = drange(D(2024, 9, 2), 300)
    ab = dates.index(D(2025, 6, 16))

    def ramp(k):
        def fn(i, d, n, p):
            if i < ab:
                return p, n
            return p, n * (1 + (k - 1) * min(1.0, (i - ab + 1) / 3.0))
        return fn
    lines = [
        ("GCP", "Compute Engine", "geo-tiles", "c3-highcpu-22", 0.95, 6, 1.0, 0.0, ramp(3.8)),
        ("GCP", "Compute Engine", "geo-tiles", "n2-highmem-8", 0.524, 3, 1.0, 0.0, ramp(2.9)),
        ("GCP", "Cloud Storage", "geo-tiles", "Standard-Regional", 0.0274, 40, 1.0, 0.001, ramp(2.2)),
        ("GCP", "Compute Engine", "routing-api", "n2-standard-4", 0.194, 24, 0.8, 0.0004, None),
        ("GCP", "GKE", "routing-api", "e2-standard-8", 0.268, 16, 0.8, 0.0004, None),
        ("GCP", "Cloud SQL", "routing-api", "db-custom-8-32768", 0.62, 2, 1.0, 0.0, None),
        ("GCP", "GKE", "fleet-telemetry", "n2d-standard-8", 0.338, 12, 1.0, 0.0006, None),
        ("GCP", "Cloud Storage", "fleet-telemetry", "Standard-Regional", 0.0274, 60, 1.0, 0.002, None),
    ]
    rows = lite_fleet(rng, acct, dates, lines)
    # monthly marketplace line (Mapbox-like licence), normal
    for d in dates:
        if d.day == 1:
            rows.append((d, acct, "GCP", "Marketplace", "routing-api", "MapDataLicence-Enterprise", 850.0, 1, 1))
    rows.sort(key=lambda r: r[0])
    return dict(kind="lite", rows=rows, alert=D(2025, 6, 18), acct=acct, truth=[("geo-tiles", "Application")])


# ---------------------------------------------------------------- RS1 resource (FOCUS): Aurora I/O on one cluster after a dropped index
@scenario
def s16(out):
    rng = random.Random(116)
    acct = "458801226693"
    dates = drange(D(2025, 4, 14), 140)
    ab = D(2025, 8, 26)
    common = dict(acct=acct, acctname="Quillspace", sub=acct, subname="prod")
    clusters = [("cluster:docs-aurora", 1.8e9, 1), ("cluster:billing-aurora", 0.4e9, 0), ("cluster:auth-aurora", 0.25e9, 0),
                ("cluster:search-meta", 0.6e9, 0)]
    rows = []
    for i, d in enumerate(dates):
        s, e = daily(d)
        wf = wkf(d, 0.55, 0.5)
        for cid, io, hit in clusters:
            rid = "arn:aws:rds:us-east-1:%s:%s" % (acct, cid)
            a = L(AWS, **common, service="Amazon Relational Database Service", scat="Databases", region="us-east-1", rid=rid,
                  rname=cid.split(':')[1], rtype="DBCluster", tags={"service": cid.split(':')[1].split('-')[0]})
            q = io * wf * jit(rng, 0.06)
            if hit and d >= ab:
                q *= 7.5
            rows.append(frow(L(a, unit="IOs", price=2e-7, desc="Aurora I/O requests", sku="Aurora:StorageIOUsage"), s, e, q))
            rows.append(frow(L(a, unit="GB-Mo", price=0.1 / 30, desc="Aurora storage", sku="Aurora:StorageUsage"), s, e,
                             {1: 1900, 0: 600}[hit] * (1 + 0.001 * i)))
            for inst in range(2):
                rows.append(frow(L(a, unit="Hrs", price=0.58, desc="db.r6g.xlarge instance hours", sku="InstanceUsage:db.r6g.xl",
                                   rid=rid.replace("cluster:", "db:") + "-%d" % inst, rtype="DBInstance"), s, e, 24))
        for svc, scat, rid, q, pr, unit in [
            ("Amazon Elastic Compute Cloud", "Compute", "instance/i-0e7a21c3b5d7f9113", 24 * 14, 0.17, "Hrs"),
            ("Amazon Elastic Container Service", "Compute", "service/docs-api", 24 * 30, 0.04048, "vCPU-Hours"),
            ("Amazon Simple Storage Service", "Storage", "quill-attachments", 310000 / 30, 0.023, "GB-Mo"),
            ("Amazon CloudWatch", "Management and Governance", "metrics", 12000 / 30, 0.3, "Metrics"),
        ]:
            rows.append(frow(L(AWS, **common, service=svc, scat=scat, region="us-east-1",
                               rid="arn:aws:%s:us-east-1:%s:%s" % (svc.split()[-1].lower(), acct, rid), unit=unit, price=pr,
                               desc=svc), s, e, q * jit(rng, 0.03)))
        if d.day == 1:
            rows.append(frow(L(AWS, **common, service="AWS Support (Business)", scat="Other", region="", cat="Purchase",
                               freq="Recurring", desc="Business support, monthly", unit="", price=0.0), s, e, 1, billed=1240.0))
    return dict(kind="focus", rows=rows, alert=D(2025, 8, 26), acct=acct,
                truth=[("arn:aws:rds:us-east-1:458801226693:cluster:docs-aurora", "ResourceId")],
                levels=["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"], shuffle=True)


# ---------------------------------------------------------------- RS2 resource (FOCUS): one storage account LRS -> GZRS
@scenario
def s17(out):
    rng = random.Random(117)
    acct = "a41f0d3c-5b77-4e02-8c19-7d3e6f8a9b20"
    dates = drange(D(2025, 5, 1), 125)
    ab = D(2025, 8, 20)
    common = dict(acct=acct, acctname="Ostrava Health", cur="EUR")
    accts = [("stohclinicalimg", 410000, 1), ("stohbackups", 260000, 0), ("stohlogsarchive", 150000, 0), ("stohwebassets", 2200, 0)]
    rows = []
    for i, d in enumerate(dates):
        s, e = daily(d)
        for name, gb, hit in accts:
            rid = "/subscriptions/7c1e/resourceGroups/rg-storage/providers/Microsoft.Storage/storageAccounts/%s" % name
            base = L(AZ, **common, service="Storage", scat="Storage", region="germanywestcentral", rid=rid, rname=name,
                     rtype="StorageAccount", tags={"dept": "radiology" if hit else "it"})
            after = hit and d >= ab
            cap = L(base, unit="GB/Month", price=(0.0468 if after else 0.0196) / 30,
                    desc="Hot %s Data Stored" % ("GZRS" if after else "LRS"), sku="Hot-%s" % ("GZRS" if after else "LRS"))
            rows.append(frow(cap, s, e, gb * (1 + 0.0008 * i)))
            ops = L(base, unit="10K", price=(0.0117 if after else 0.0065), desc="Write Operations")
            rows.append(frow(ops, s, e, 900 * (gb / 410000.0 + 0.05) * wkf(d, 0.6, 0.5) * jit(rng, 0.08)))
            if after:
                rows.append(frow(L(base, unit="GB", price=0.02, desc="Geo-Replication Data Transfer", sku="GRS-Transfer"),
                                 s, e, (gb / 30.0 if (d - ab).days < 5 else 900) * jit(rng, 0.05)))
        for svc, scat, rid, q, pr, unit in [
            ("Virtual Machines", "Compute", "vm-pacs-01", 24, 1.22, "Hours"),
            ("Virtual Machines", "Compute", "vm-pacs-02", 24, 1.22, "Hours"),
            ("Azure Database for PostgreSQL", "Databases", "psql-emr", 24 * 8, 0.1295, "vCore Hours"),
            ("Azure Kubernetes Service", "Compute", "aks-portal", 24 * 9, 0.192, "Hours"),
            ("Azure Monitor", "Management and Governance", "log-ostrava", 35, 2.76, "GB"),
        ]:
            rows.append(frow(L(AZ, **common, service=svc, scat=scat, region="germanywestcentral",
                               rid="/subscriptions/7c1e/resourceGroups/rg-app/providers/x/%s" % rid, unit=unit, price=pr,
                               desc=svc), s, e, q * jit(rng, 0.03)))
    return dict(kind="focus", rows=rows, alert=D(2025, 8, 21), acct=acct,
                truth=[("/subscriptions/7c1e/resourceGroups/rg-storage/providers/Microsoft.Storage/storageAccounts/stohclinicalimg", "ResourceId")],
                levels=["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"])


# ================================================================= quiet bills
# Q1 (FOCUS): state sales-tax rate change on the 1st (normal)
@scenario
def s18(out):
    rng = random.Random(118)
    acct = "702259913344"
    dates = drange(D(2025, 3, 1), 123)
    common = dict(acct=acct, acctname="Prairie Grocers Co-op", sub=acct, subname="prairie-prod")
    lines = []
    for svc, scat, rid, q, pr, unit in [
        ("Amazon Elastic Compute Cloud", "Compute", "instance/i-0pos01", 24 * 20, 0.0832, "Hrs"),
        ("Amazon Elastic Compute Cloud", "Compute", "instance/i-0pos02", 24 * 8, 0.192, "Hrs"),
        ("Amazon Relational Database Service", "Databases", "db:pos-ledger", 24, 0.68, "Hrs"),
        ("Amazon Simple Storage Service", "Storage", "prairie-receipts", 52000 / 30, 0.023, "GB-Mo"),
        ("Amazon CloudFront", "Networking", "distribution/EPRAIRIE01", 900, 0.085, "GB"),
        ("AWS Lambda", "Compute", "function:loyalty", 2.2e6, 1.66667e-5, "Lambda-GB-Second"),
    ]:
        lines.append(L(AWS, **common, service=svc, scat=scat, region="us-east-2", unit=unit, price=pr, desc=svc,
                       rid="arn:aws:%s:us-east-2:%s:%s" % (svc.split()[-1].lower(), acct, rid), q=q))
    rows = []
    for i, d in enumerate(dates):
        s, e = daily(d)
        tot = {}
        for line in lines:
            q = line["q"] * jit(rng, 0.03) * (wkf(d, 1.25, 1.15) if "Lambda" in line["service"] or "CloudFront" in line["service"] else 1.0)
            rows.append(frow(line, s, e, q))
            tot[(line["service"], line["scat"])] = tot.get((line["service"], line["scat"]), 0) + q * line["price"]
        rate = 0.0575 if d < D(2025, 7, 1) else 0.0725  # combined state+local rate changed 1 July
        for (svc, scat), amt in sorted(tot.items()):
            t = L(AWS, **common, service=svc, scat=scat, region="", cat="Tax", freq="Usage-Based",
                  desc="Sales tax %.2f%% (OH)" % (rate * 100), unit="", price=0.0)
            rows.append(frow(t, s, e, 1, billed=amt * rate))
    return dict(kind="focus", rows=rows, alert=D(2025, 7, 1), acct=acct, truth=[],
                levels=["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"])


# Q2 (Lite): quarterly marketplace SaaS invoice on the first of each quarter (normal, recurring)
@scenario
def s19(out):
    rng = random.Random(119)
    acct = "128830046519"
    dates = drange(D(2024, 6, 10), 390)
    lines = [
        ("AWS", "EC2", "claims-portal", "m6i.xlarge", 0.192, 16, 0.7, 0.0003, None),
        ("AWS", "EC2", "claims-portal", "r6i.large", 0.126, 8, 0.7, 0.0003, None),
        ("AWS", "RDS", "claims-portal", "db.r6i.2xlarge", 1.008, 2, 1.0, 0.0, None),
        ("AWS", "EKS", "adjuster-app", "m6i.2xlarge", 0.384, 10, 0.6, 0.0005, None),
        ("AWS", "OpenSearch", "adjuster-app", "m6g.large.search", 0.128, 3, 1.0, 0.0, None),
        ("AWS", "EC2", "doc-ingest", "c6i.xlarge", 0.17, 6, 0.5, 0.0, None),
    ]
    rows = lite_fleet(rng, acct, dates, lines, hours_last=16.0)
    for d in dates:
        if d.day == 1 and d.month in (1, 4, 7, 10):
            rows.append((d, acct, "AWS Marketplace", "SaaS Contract", "claims-portal", "DocuSeal-Enterprise-Quarterly",
                         14250.0, 1, 1))
    rows.sort(key=lambda r: r[0])
    return dict(kind="lite", rows=rows, alert=D(2025, 7, 1), acct=acct, truth=[])


# Q3 (FOCUS hourly): partial last day of an hourly export, alerted on it (normal)
@scenario
def s20(out):
    rng = random.Random(120)
    acct = "334912087710"
    start = D(2025, 9, 1)
    nhours = 61 * 24 + 9  # export cut at 09:00 UTC
    common = dict(acct=acct, acctname="Fieldnote Labs", sub=acct, subname="prod")
    lines = []
    for svc, scat, reg, rid, q, pr, unit, el in [
        ("Amazon Elastic Compute Cloud", "Compute", "us-west-2", "instance/i-web-asg", 18, 0.0832, "Hrs", 1),
        ("Amazon Elastic Compute Cloud", "Compute", "us-west-2", "instance/i-worker", 6, 0.34, "Hrs", 1),
        ("Amazon Relational Database Service", "Databases", "us-west-2", "db:notes-pg", 1, 0.96, "Hrs", 0),
        ("Amazon ElastiCache", "Databases", "us-west-2", "cluster:notes-cache", 2, 0.206, "NodeHrs", 0),
        ("Amazon Simple Storage Service", "Storage", "us-west-2", "fieldnote-blobs", 120000 / 720.0, 0.023, "GB-Mo", 0),
        ("Amazon Simple Queue Service", "Integration", "us-west-2", "notes-sync", 900000, 4e-7, "Requests", 1),
        ("Elastic Load Balancing", "Networking", "us-west-2", "app/notes-alb", 35, 0.008, "LCU-Hrs", 1),
    ]:
        lines.append((L(AWS, **common, service=svc, scat=scat, region=reg, unit=unit, price=pr, desc=svc,
                        rid="arn:aws:%s:%s:%s:%s" % (svc.split()[-1].lower(), reg, acct, rid)), q, el))
    rows = []
    for k in range(nhours):
        ts = dt.datetime(start.year, start.month, start.day) + dt.timedelta(hours=k)
        h = (ts.hour - 7) % 24  # Pacific business hours
        busy = 0.35 + 0.65 * (1 if 8 <= h <= 18 else 0.2)
        for line, q, el in lines:
            f = jit(rng, 0.05)
            if el:
                f *= busy * (0.6 if ts.weekday() >= 5 else 1.0)
            rows.append(frow(line, ts, ts + dt.timedelta(hours=1), q * f))
    return dict(kind="focus", rows=rows, alert=D(2025, 11, 1), acct=acct, truth=[],
                levels=["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"])


# Q4 (Lite): tax-filing season scale-up, seen the year before too (normal, seasonal)
@scenario
def s21(out):
    rng = random.Random(121)
    acct = "580044719236"
    dates = drange(D(2024, 2, 1), 400)

    def season(d):
        y = d.year
        a, b = D(y, 2, 24), D(y, 4, 15)
        if a <= d <= b:
            x = (d - a).days / float((b - a).days)
            return 1.0 + 1.9 * min(1.0, x * 2.5) if x < 0.9 else 2.9 + 1.2 * (x - 0.9) * 10
        return 1.0
    sz = lambda i, d, n, p: (p, n * season(d))
    lines = [
        ("AWS", "EC2", "efile-web", "c6i.2xlarge", 0.34, 12, 0.8, 0.0, sz),
        ("AWS", "EKS", "efile-web", "m6i.xlarge", 0.192, 20, 0.8, 0.0, sz),
        ("AWS", "EC2", "efile-submit", "c6i.xlarge", 0.17, 8, 0.9, 0.0, sz),
        ("AWS", "RDS", "efile-web", "db.r6i.4xlarge", 2.016, 2, 1.0, 0.0, lambda i, d, n, p: (p, 4 if D(d.year, 2, 20) <= d <= D(d.year, 4, 18) else 2)),
        ("AWS", "ElastiCache", "efile-web", "cache.r6g.large", 0.206, 4, 1.0, 0.0, None),
        ("AWS", "EC2", "back-office", "m6i.large", 0.096, 10, 1.0, 0.0, None),
    ]
    rows = lite_fleet(rng, acct, dates, lines)
    return dict(kind="lite", rows=rows, alert=D(2025, 3, 3), acct=acct, truth=[])


# Q5 (Lite): Sunday AMI bake + full regression run, every week (normal)
@scenario
def s22(out):
    rng = random.Random(122)
    acct = "265190833047"
    dates = drange(D(2025, 4, 1), 200)

    def sunday(k):
        return lambda i, d, n, p: (p, n * k if d.weekday() == 6 else n * 0.15)
    lines = [
        ("AWS", "EC2", "ci-regression", "c6a.8xlarge", 1.224, 14, 1.0, 0.0, sunday(6.5)),
        ("AWS", "EC2", "ci-regression", "m6a.4xlarge", 0.6912, 6, 1.0, 0.0, sunday(5.0)),
        ("AWS", "EC2", "image-builder", "c6a.4xlarge", 0.612, 4, 1.0, 0.0, lambda i, d, n, p: (p, n if d.weekday() == 6 else 0)),
        ("AWS", "EC2", "ci-runners", "m6a.xlarge", 0.1728, 24, 0.3, 0.0, None),
        ("AWS", "EKS", "ci-runners", "m6a.2xlarge", 0.3456, 8, 0.3, 0.0, None),
        ("AWS", "RDS", "test-results", "db.t4g.large", 0.129, 1, 1.0, 0.0, None),
    ]
    rows = lite_fleet(rng, acct, dates, lines)
    return dict(kind="lite", rows=rows, alert=D(2025, 10, 12), acct=acct, truth=[])


# Q6 (FOCUS, EUR): monthly fees amortised per day -> per-day step on 1 Feb and back on 1 Mar (normal)
@scenario
def s23(out):
    rng = random.Random(123)
    acct = "DE-44120-778"
    dates = drange(D(2024, 11, 4), 130)
    common = dict(acct=acct, acctname="Brennerhof Reisen", cur="EUR")
    monthly = [
        (AZ, "Virtual Machines", "Compute", "westeurope", "Reserved VM Instance D8s v5 (amortised)", 2410.0,
         "/providers/Microsoft.Capacity/reservationOrders/aa11/reservations/r1"),
        (AZ, "SQL Database", "Databases", "westeurope", "Reserved vCore GP Gen5 (amortised)", 1830.0,
         "/providers/Microsoft.Capacity/reservationOrders/bb22/reservations/r2"),
        (AZ, "Red Hat Enterprise Linux", "Compute", "westeurope", "RHEL subscription (marketplace, monthly)", 640.0, ""),
        (AWS, "Amazon Elastic Compute Cloud", "Compute", "eu-central-1", "Savings Plan recurring fee (amortised)", 3120.0,
         "arn:aws:savingsplans::112233445566:savingsplan/sp-0a1b2c"),
        (AWS, "AWS Support (Enterprise On-Ramp)", "Other", "", "Support, monthly (amortised)", 4600.0, ""),
    ]
    usage = [
        (AZ, "Virtual Machines", "Compute", "westeurope", "vm-booking-01", 24 * 3, 0.21),
        (AZ, "Storage", "Storage", "westeurope", "stbrennerdocs", 90000 / 30, 0.0184),
        (AZ, "Azure Cache for Redis", "Databases", "westeurope", "redis-booking", 24, 0.42),
        (AWS, "Amazon Elastic Compute Cloud", "Compute", "eu-central-1", "i-0f9e8d7c6b5a40312", 24 * 4, 0.12),
        (AWS, "Amazon Simple Storage Service", "Storage", "eu-central-1", "brennerhof-media", 40000 / 30, 0.0245),
    ]
    rows = []
    for i, d in enumerate(dates):
        s, e = daily(d)
        ndays = (month_bounds(dt.datetime(d.year, d.month, 1))[1].date() - D(d.year, d.month, 1)).days
        for prov, svc, scat, reg, desc, amt, cd in monthly:
            line = L(prov, **common, service=svc, scat=scat, region=reg, desc=desc, unit="", price=0.0, cd=cd,
                     cat="Purchase" if "marketplace" not in desc else "Usage", freq="Recurring",
                     publisher="Red Hat, Inc." if "Red Hat" in svc else prov["provider_full"],
                     rid=cd or ("sub-%s" % svc.split()[0].lower()))
            rows.append(frow(line, s, e, 1, billed=amt / ndays))
        seasonal = 1.0 + (0.35 if d.month == 12 and d.day >= 15 else 0.0)  # ski season bookings (normal)
        for prov, svc, scat, reg, rid, q, pr in usage:
            line = L(prov, **common, service=svc, scat=scat, region=reg, rid=rid, unit="Units", price=pr, desc=svc)
            rows.append(frow(line, s, e, q * seasonal * jit(rng, 0.03)))
    return dict(kind="focus", rows=rows, alert=D(2025, 2, 1), acct=acct, truth=[],
                levels=["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"])


# ============================================================================ main

def yaml_truth(truth):
    if not truth:
        return "resource: []\n"
    s = "resource:\n"
    for name, typ in truth:
        s += "- name: %s\n  type: %s\n" % (json.dumps(name), typ)
    return s


def main():
    if len(sys.argv) != 2:
        print("usage: python gen.py OUT", file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for n, fn in enumerate(SCEN, 1):
        sd = os.path.join(out, "Scenario-%d" % n)
        os.makedirs(sd, exist_ok=True)
        sc = fn(sd)
        if sc["kind"] == "lite":
            write_lite(os.path.join(sd, "data.csv"), sc["rows"], shuffle_seed=sc.get("shuffle"))
        else:
            write_focus(os.path.join(sd, "focus.csv"), sc["rows"], extra_cols=sc.get("extra_cols", ()),
                        shuffle_seed=(1000 + n) if sc.get("shuffle") else None)
            with open(os.path.join(sd, "scenario.json"), "w") as fh:
                json.dump({"levels": sc["levels"], "cost_column": "BilledCost"}, fh, indent=2)
                fh.write("\n")
        with open(os.path.join(sd, "anomaly.json"), "w") as fh:
            json.dump({"date": sc["alert"].isoformat(), "account_id": sc["acct"]}, fh)
            fh.write("\n")
        with open(os.path.join(sd, "ground_truth.yaml"), "w") as fh:
            fh.write(yaml_truth(sc["truth"]))
    print("wrote %d scenarios under %s" % (len(SCEN), out))


if __name__ == "__main__":
    main()
