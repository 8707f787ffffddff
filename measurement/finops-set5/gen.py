#!/usr/bin/env python3
"""finops-set5: held-out ITBench-Lite FinOps cost-anomaly scenarios (blind-fin5).

python3 gen.py OUTDIR   -> OUTDIR/Scenario-<N>/{anomaly.json,data.csv,ground_truth.yaml}
                           and OUTDIR/cases.json (labels; never show it to agents).
Stdlib only, deterministic (random.Random seeded per scenario; no hash()).
"""
import csv, datetime as dt, json, math, os, random, sys

D = dt.date
HDR = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
       "Price ($/hr)", "Num_Instances", "unblended_cost"]


def L(acct, csp, svc, app, fam, n, p, **kw):
    """One billed line. n: mean count (instances / TB / GB / usage units per hour);
    p: list unit price $/hr. kw: kind ('fleet','static','fee','storage','usage'),
    week ('flat','office','req','sun','mon','off'), month1 (x on the 1st), mend (x on last day),
    cv (noise), integer (counts are whole on most hours), com=(units, contract price),
    grow (per day), tiers [(TB, price)...] for storage, start (date the line appears),
    amt (fee: daily amount), spot (unit price never follows list price: spot/private/contract)."""
    d = dict(acct=acct, csp=csp, svc=svc, app=app, fam=fam, n=n, p=p, kind="fleet",
             week="flat", cv=0.04, integer=False, com=None, grow=0.0, tiers=None,
             start=None, amt=None, month1=1.0, mend=1.0, fixedprice=False)
    d.update(kw)
    return d


def fee(acct, csp, svc, app, fam, amt, **kw):
    return L(acct, csp, svc, app, fam, 1, amt / 24.0, kind="fee", amt=amt, cv=0.0, **kw)


def static(acct, csp, svc, app, fam, n, p, **kw):
    return L(acct, csp, svc, app, fam, n, p, kind="static", cv=0.0, **kw)


def week_factor(line, day):
    w = day.weekday()  # Mon 0 .. Sun 6
    k = line["week"]
    f = 1.0
    if k == "office":
        f = 0.4 if w >= 5 else 1.0
    elif k == "req":
        f = [1.0, 1.05, 1.06, 1.03, 0.95, 0.32, 0.28][w]
    elif k == "sun":
        f = 1.9 if w == 6 else 1.0
    elif k == "mon":
        f = 1.75 if w == 0 else 1.0
    elif k == "off":
        f = 0.0 if w >= 5 else 1.0
    if day.day == 1:
        f *= line["month1"]
    if (day + dt.timedelta(days=1)).day == 1:
        f *= line["mend"]
    return f


def fmt(x, dec):
    """the exporter writes a fixed number of decimals, trailing zeros dropped (0.0 kept)."""
    t = "%.*f" % (dec, x)
    if "." in t:
        t = t.rstrip("0")
        if t.endswith("."):
            t += "0"
    return "0.0" if t in ("-0.0", "0.0") else t


def tier_price(tb, tiers, mult):
    """blended $/TB-h of a tiered storage volume (tiers: [(size_TB or None, $/TB-h)])."""
    left, cost = tb, 0.0
    for size, pr in tiers:
        take = left if size is None else min(left, size)
        cost += take * pr * mult
        left -= take
        if left <= 0:
            break
    return cost / tb


def build(sc):
    rng = random.Random(sc["seed"])
    a = sc["date"]
    first = a - dt.timedelta(days=sc.get("hist", 42))
    last = a + dt.timedelta(days=sc.get("after", 1))
    dec = sc.get("dec", 4)
    rows = []
    day = first
    while day <= last:
        frac = 1.0
        if day == first and sc.get("pfirst"):
            frac = sc["pfirst"]
        if day == last and sc.get("plast"):
            frac = sc["plast"]
        for i, ln in enumerate(sc["lines"]):
            if ln["start"] and day < ln["start"]:
                continue
            pm, cm = 1.0, 1.0
            for ev in sc["events"]:
                if day >= ev["on"] and ev["sel"](ln):
                    pm *= ev.get("price", 1.0)
                    cm *= ev.get("count", 1.0)
            lr = random.Random(sc["seed"] * 1000003 + i * 7919 + day.toordinal())
            if ln["kind"] == "fee":
                amt = ln["amt"] * (pm if ln.get("moves") else 1.0)
                if ln.get("only1") and day.day != 1:
                    continue
                cnt = 1.0
                cost = amt
            else:
                wf = week_factor(ln, day)
                if wf == 0.0:
                    continue
                if ln["kind"] == "static":
                    cnt = ln["n"] * cm
                elif ln["kind"] == "storage":
                    cnt = ln["n"] * (1 + ln["grow"]) ** (day - first).days * cm * (1 + lr.gauss(0, 0.002))
                else:
                    cnt = ln["n"] * wf * cm * max(0.2, 1 + lr.gauss(0, ln["cv"]))
                    if ln["integer"]:
                        base = math.floor(cnt)
                        part = cnt - base
                        # whole instances most hours; a part-day of one more
                        cnt = base + (round(part * 24) / 24.0 if lr.random() < 0.35 else (1.0 if part > 0.7 else 0.0))
                cnt = max(cnt, 0.0) * frac
                if cnt <= 0:
                    continue
                p = ln["p"] * (1.0 if ln["fixedprice"] else pm)
                if ln["tiers"]:
                    unit = tier_price(cnt / frac, ln["tiers"], 1.0 if ln["fixedprice"] else pm)
                    cost = 24 * cnt * unit
                elif ln["com"]:
                    cu, cp = ln["com"]
                    cov = min(cnt, cu * frac)
                    cost = 24 * (cov * cp + (cnt - cov) * p)
                else:
                    cost = 24 * cnt * p
            cnt = round(cnt, 3) if cnt < 1000 else round(cnt, 1)
            price = cost / 24.0 / cnt if cnt else 0.0
            rows.append([day.isoformat(), ln["acct"], ln["csp"], ln["svc"], ln["app"], ln["fam"],
                         fmt(price, dec),
                         repr(cnt), "%.4f" % cost])
        day += dt.timedelta(days=1)
    if sc.get("shuffle"):
        random.Random(sc["seed"] + 5).shuffle(rows)
    return rows


# ----------------------------------------------------------------------------------------
# selectors
def fam(*names):
    return lambda l: l["fam"] in names


def svc(*names, acct=None):
    return lambda l: l["svc"] in names and (acct is None or l["acct"] == acct) and l["kind"] != "fee"


def csp(name, acct=None):
    return lambda l: l["csp"] == name and (acct is None or l["acct"] == acct) and l["kind"] != "fee"


def app(name, acct=None, f=None):
    return lambda l: l["app"] == name and (acct is None or l["acct"] == acct) and (f is None or l["fam"] == f)


def acct(a):
    return lambda l: l["acct"] == a and l["kind"] != "fee"


def both(p, q):
    return lambda l: p(l) and q(l)


SC = []


def S(cat, truth, date, cause, lines, events, decoys="—", **kw):
    sc = dict(cat=cat, truth=truth, date=date, cause=cause, lines=lines, events=events,
              decoys=decoys, seed=5000 + len(SC) * 37)
    sc.update(kw)
    SC.append(sc)


A1, A2, A3 = "731904528866", "731904528873", "731904528880"
G1, G2 = "acme-data-prod", "acme-data-shared"
Z1, Z2 = "9b1f3c40-ea-prod", "9b1f3c40-ea-dev"

# ============================ family-repriced (partial price change) ====================
# 1. m7g.large repriced +18% in every app and service; m7g.xlarge flat; reserved/SP lines keep price
S("family-repriced", [("m7g.large", "Instance_Family")], D(2026, 2, 10),
  "m7g.large on-demand price +18% in every application (EC2 and EKS nodes); m7g.xlarge and the other "
  "families flat; ledger's m7g.large is fully covered by a reserved instance (price unchanged), "
  "checkout's partly (blended ~+10%)",
  [L(A1, "AWS", "EC2", "checkout", "m7g.large", 14, 0.0816, com=(8, 0.0514)),
   L(A1, "AWS", "EC2", "checkout", "m7g.xlarge", 6, 0.1632),
   L(A1, "AWS", "EKS", "catalog", "m7g.large", 22, 0.0816, week="req", cv=0.05),
   L(A1, "AWS", "EKS", "catalog", "c7g.xlarge", 8, 0.145),
   L(A1, "AWS", "EC2", "ledger", "m7g.large", 6, 0.0816, com=(6, 0.0514), cv=0.0, kind="static"),
   L(A1, "AWS", "EC2", "ledger", "m7g.xlarge", 4, 0.1632, kind="static", cv=0.0),
   L(A1, "AWS", "EKS", "search", "m7g.large", 10, 0.0816),
   L(A1, "AWS", "EKS", "search", "r7g.xlarge", 5, 0.2142),
   static(A1, "AWS", "RDS", "ledger", "db.r6g.xlarge", 2, 0.48),
   L(A1, "AWS", "S3", "catalog", "Standard", 38, 0.0319, kind="storage", grow=0.002),
   L(A1, "AWS", "EKS", "shared", "Cluster", 3, 0.10, kind="static", cv=0.0)],
  [dict(on=D(2026, 2, 10), sel=fam("m7g.large"), price=1.18)])

# 2. e2-standard-16 +22% across GKE, Compute Engine, Dataflow; e2-standard-8 flat; CUD line keeps price
S("family-repriced", [("e2-standard-16", "Instance_Family")], D(2026, 3, 25),
  "e2-standard-16 price +22% everywhere it runs (GKE, Compute Engine, Dataflow workers, 4 applications); "
  "e2-standard-8 and n2d flat; ingest's e2-standard-16 is under a committed-use discount (kept price)",
  [L(G1, "GCP", "GKE", "ingest", "e2-standard-16", 9, 0.5361, com=(9, 0.3377), integer=True, cv=0.0, kind="static"),
   L(G1, "GCP", "GKE", "ingest", "e2-standard-8", 12, 0.2681, week="req", cv=0.05),
   L(G1, "GCP", "GKE", "ranker", "e2-standard-16", 7, 0.5361, integer=True, cv=0.06),
   L(G1, "GCP", "GKE", "ranker", "n2d-standard-8", 5, 0.3398),
   L(G1, "GCP", "Compute Engine", "etl", "e2-standard-16", 6, 0.5361, week="office", integer=True),
   L(G1, "GCP", "Compute Engine", "etl", "e2-standard-8", 4, 0.2681, week="office"),
   L(G1, "GCP", "Dataflow", "clickstream", "e2-standard-16", 4, 0.5361, week="req", cv=0.06),
   L(G1, "GCP", "Dataflow", "clickstream", "Streaming-Engine", 30, 0.018, week="req"),
   static(G1, "GCP", "Cloud SQL", "ranker", "db-custom-4-16384", 2, 0.39),
   L(G1, "GCP", "Cloud Storage", "clickstream", "Standard-Storage", 120, 0.0274, kind="storage", grow=0.003),
   L(G2, "GCP", "GKE", "ingest", "e2-standard-16", 3, 0.5361, integer=True),
   L(G2, "GCP", "Compute Engine", "dev", "e2-standard-8", 5, 0.2681, week="off")],
  [dict(on=D(2026, 3, 25), sel=both(fam("e2-standard-16"), lambda l: True), price=1.22)])

# 3. Azure E4ds_v5 +15% across VMs and AKS; E8ds_v5 flat; a reserved E4ds_v5 fleet flat; credits
S("family-repriced", [("E4ds_v5", "Instance_Family")], D(2026, 5, 6),
  "E4ds_v5 pay-as-you-go price +15% in every application (Virtual Machines and AKS node pools); "
  "E8ds_v5, D-series flat; claims' E4ds_v5 is a 3-year reservation (price unchanged); an Azure "
  "sponsorship credit line stays flat",
  [L(Z1, "Azure", "Virtual Machines", "claims", "E4ds_v5", 8, 0.288, com=(8, 0.1296), kind="static", cv=0.0),
   L(Z1, "Azure", "Virtual Machines", "claims", "D4s_v5", 6, 0.192, week="office"),
   L(Z1, "Azure", "Virtual Machines", "portal", "E4ds_v5", 12, 0.288, week="office", cv=0.04),
   L(Z1, "Azure", "AKS", "portal", "E4ds_v5", 16, 0.288, week="req", cv=0.05),
   L(Z1, "Azure", "AKS", "portal", "E8ds_v5", 6, 0.576),
   L(Z1, "Azure", "AKS", "underwriting", "E4ds_v5", 9, 0.288),
   L(Z1, "Azure", "AKS", "underwriting", "D8s_v5", 4, 0.384),
   static(Z1, "Azure", "Azure SQL Database", "claims", "GP_Gen5_8", 1, 1.997),
   L(Z1, "Azure", "Storage", "claims", "Hot-LRS", 64, 0.025, kind="storage", grow=0.002),
   fee(Z1, "Azure", "Azure Credits", "shared", "Sponsorship-Credit", -180.0)],
  [dict(on=D(2026, 5, 6), sel=fam("E4ds_v5"), price=1.15)])

# 4. EBS gp3 storage SKU +25% in every application; gp2, io2, snapshots flat
S("family-repriced", [("gp3-Storage", "Instance_Family")], D(2026, 6, 16),
  "EBS gp3 volume storage price +25% in every application; gp2, io2 volumes, snapshots and IOPS lines flat",
  [L(A2, "AWS", "EBS", "orders", "gp3-Storage", 42, 0.1096, kind="storage", grow=0.001),
   L(A2, "AWS", "EBS", "orders", "io2-Storage", 8, 0.1712, kind="storage"),
   L(A2, "AWS", "EBS", "orders", "io2-IOPS", 16000, 0.0000893, kind="static"),
   L(A2, "AWS", "EBS", "analytics", "gp3-Storage", 96, 0.1096, kind="storage", grow=0.004),
   L(A2, "AWS", "EBS", "analytics", "Snapshot-Storage", 210, 0.0685, kind="storage", grow=0.003),
   L(A2, "AWS", "EBS", "legacy", "gp2-Storage", 30, 0.137, kind="storage"),
   L(A2, "AWS", "EBS", "legacy", "gp3-Storage", 12, 0.1096, kind="storage"),
   L(A2, "AWS", "EC2", "orders", "m6a.2xlarge", 10, 0.3456, week="req"),
   L(A2, "AWS", "EC2", "analytics", "r6a.4xlarge", 6, 0.9072, week="mon", cv=0.05),
   L(A2, "AWS", "EC2", "legacy", "t3.large", 4, 0.0832, kind="static", cv=0.0)],
  [dict(on=D(2026, 6, 16), sel=fam("gp3-Storage"), price=1.25)], shuffle=True)

# 5. ElastiCache cache.r7g.large +20% in every app; cache.t4g.medium flat; one reserved node flat
S("family-repriced", [("cache.r7g.large", "Instance_Family")], D(2026, 8, 20),
  "ElastiCache cache.r7g.large price +20% in every application; cache.t4g.medium and cache.r7g.xlarge "
  "flat; sessions' two cache.r7g.large nodes are reserved (price unchanged)",
  [static(A3, "AWS", "ElastiCache", "sessions", "cache.r7g.large", 2, 0.219, com=(2, 0.1402)),
   static(A3, "AWS", "ElastiCache", "sessions", "cache.t4g.medium", 3, 0.065),
   static(A3, "AWS", "ElastiCache", "pricing", "cache.r7g.large", 4, 0.219),
   static(A3, "AWS", "ElastiCache", "pricing", "cache.r7g.xlarge", 2, 0.437),
   static(A3, "AWS", "ElastiCache", "feeds", "cache.r7g.large", 3, 0.219),
   L(A3, "AWS", "EC2", "feeds", "c7g.2xlarge", 12, 0.289, week="req", cv=0.05),
   L(A3, "AWS", "EC2", "pricing", "m7g.2xlarge", 8, 0.3264),
   L(A3, "AWS", "Lambda", "feeds", "Lambda-GB-Second", 52000, 0.0000166667, week="req", cv=0.06),
   static(A3, "AWS", "RDS", "pricing", "db.m7g.large", 2, 0.168)],
  [dict(on=D(2026, 8, 20), sel=fam("cache.r7g.large"), price=1.20)], dec=5, after=0)

# 6. Azure managed disk Premium SSD P30 +20% across apps; P20, P40 flat
S("family-repriced", [("P30-LRS", "Instance_Family")], D(2026, 10, 1),
  "Premium SSD P30 (LRS) disk price +20% in every application on the 1st of the month; P20 and P40 "
  "disks flat; monthly support fee billed on every 1st; a month-1st batch in reporting",
  [static(Z2, "Azure", "Managed Disks", "erp", "P30-LRS", 14, 0.1684),
   static(Z2, "Azure", "Managed Disks", "erp", "P20-LRS", 10, 0.0856),
   static(Z2, "Azure", "Managed Disks", "reporting", "P30-LRS", 6, 0.1684),
   static(Z2, "Azure", "Managed Disks", "reporting", "P40-LRS", 4, 0.3208),
   static(Z2, "Azure", "Managed Disks", "intranet", "P30-LRS", 4, 0.1684),
   L(Z2, "Azure", "Virtual Machines", "erp", "E16s_v5", 4, 1.008, integer=True, cv=0.03),
   L(Z2, "Azure", "Virtual Machines", "reporting", "D16s_v5", 3, 0.768, month1=3.0, integer=True),
   L(Z2, "Azure", "Virtual Machines", "intranet", "B4ms", 6, 0.166, week="office"),
   fee(Z2, "Azure", "Support", "shared", "Standard-Support", 3300.0, only1=True)],
  [dict(on=D(2026, 10, 1), sel=fam("P30-LRS"), price=1.20)], hist=70)

# ============================ wide-beside-kept (service-wide beside commitments/credits) ==
# 7. Fargate +20% per vCPU/GB-hour in every app; a Compute Savings Plan fee and a Fargate credit flat
S("wide-beside-kept", [("Fargate", "Cloud_Service")], D(2026, 1, 27),
  "AWS Fargate vCPU-hour and GB-hour prices +20% in every application; the Compute Savings Plan "
  "commitment fee and a Fargate promotional credit line are fixed daily amounts that do not move",
  [L(A1, "AWS", "Fargate", "notifications", "Fargate-vCPU-Hours", 48, 0.04048, week="req", cv=0.05),
   L(A1, "AWS", "Fargate", "notifications", "Fargate-GB-Hours", 96, 0.004445, week="req", cv=0.05),
   L(A1, "AWS", "Fargate", "billing-jobs", "Fargate-vCPU-Hours", 32, 0.04048, week="mon", cv=0.05),
   L(A1, "AWS", "Fargate", "billing-jobs", "Fargate-GB-Hours", 128, 0.004445, week="mon", cv=0.05),
   L(A1, "AWS", "Fargate", "webhooks", "Fargate-vCPU-Hours", 16, 0.04048),
   L(A1, "AWS", "Fargate", "webhooks", "Fargate-GB-Hours", 32, 0.004445),
   fee(A1, "AWS", "Fargate", "shared", "Promotional-Credit", -40.0),
   fee(A1, "AWS", "Savings Plans", "shared", "ComputeSavingsPlan-Fee", 55.0),
   L(A1, "AWS", "EC2", "webhooks", "m6i.large", 6, 0.096, integer=True),
   static(A1, "AWS", "RDS", "billing-jobs", "db.m6i.large", 2, 0.171),
   L(A1, "AWS", "CloudWatch", "shared", "Logs-Ingested-GB", 4.2, 0.5, week="req")],
  [dict(on=D(2026, 1, 27), sel=both(svc("Fargate"), lambda l: l["kind"] != "fee"), price=1.20)])

# 8. Memorystore +30% in every app beside a committed-use Memorystore line (fixed) and a credit
S("wide-beside-kept", [("Memorystore", "Cloud_Service")], D(2026, 4, 14),
  "Memorystore for Redis price +30% on every instance; one application's capacity is on a 1-year "
  "committed-use discount billed as a fixed line (unchanged); a GCP credit line flat",
  [static(G2, "GCP", "Memorystore", "ranker", "Redis-Standard-M3", 2, 0.539),
   static(G2, "GCP", "Memorystore", "feed", "Redis-Standard-M2", 3, 0.234),
   static(G2, "GCP", "Memorystore", "feed", "Redis-Basic-M1", 2, 0.049),
   static(G2, "GCP", "Memorystore", "auth", "Redis-Standard-M1", 2, 0.098),
   fee(G2, "GCP", "Memorystore", "catalog", "Redis-CUD-1yr", 31.2),
   L(G2, "GCP", "GKE", "feed", "n2-standard-4", 14, 0.1942, week="req", cv=0.05),
   L(G2, "GCP", "GKE", "ranker", "c3-standard-8", 6, 0.4028, cv=0.05),
   L(G2, "GCP", "Cloud Run", "auth", "vCPU-Seconds", 15000, 0.000024 * 3600 / 3600, week="req", cv=0.06),
   fee(G2, "GCP", "Credits", "shared", "Committed-Spend-Credit", -25.0)],
  [dict(on=D(2026, 4, 14), sel=both(svc("Memorystore"), lambda l: l["kind"] != "fee"), price=1.30)])

# 9. Cosmos DB +20% beside reserved RU/s (fixed) and a credit
S("wide-beside-kept", [("Azure Cosmos DB", "Cloud_Service")], D(2026, 7, 8),
  "Azure Cosmos DB provisioned-throughput and storage prices +20% in every application; the "
  "reserved-capacity purchase (a fixed daily line) and an Azure credit do not move",
  [L(Z1, "Azure", "Azure Cosmos DB", "catalog", "Provisioned-100RUs", 400, 0.008, week="req", cv=0.04),
   L(Z1, "Azure", "Azure Cosmos DB", "catalog", "Data-Stored-GB", 900, 0.25 / 730, kind="storage", grow=0.002),
   L(Z1, "Azure", "Azure Cosmos DB", "profiles", "Provisioned-100RUs", 60, 0.008),
   L(Z1, "Azure", "Azure Cosmos DB", "profiles", "Data-Stored-GB", 300, 0.25 / 730, kind="storage", grow=0.001),
   L(Z1, "Azure", "Azure Cosmos DB", "events", "Serverless-1M-RUs", 0.9, 0.25, week="req", cv=0.07),
   fee(Z1, "Azure", "Azure Cosmos DB", "shared", "Reserved-Capacity-100RUs", 19.2),
   L(Z1, "Azure", "AKS", "catalog", "D8s_v5", 10, 0.384, week="req"),
   L(Z1, "Azure", "App Service", "profiles", "P1v3", 4, 0.223, integer=True),
   fee(Z1, "Azure", "Azure Credits", "shared", "EA-Credit", -60.0)],
  [dict(on=D(2026, 7, 8), sel=both(svc("Azure Cosmos DB"), lambda l: l["kind"] != "fee"), price=1.20)],
  dec=3)

# 10. DynamoDB on-demand +25% in every app; provisioned tables on reserved capacity keep their price
S("wide-beside-kept", [("DynamoDB", "Cloud_Service")], D(2026, 9, 22),
  "DynamoDB price +25% on every on-demand request line and storage line in every application; "
  "two tables on reserved provisioned capacity keep their contract price",
  [L(A2, "AWS", "DynamoDB", "cart", "WriteRequestUnits", 4.2e6, 0.00000125 / 1, week="req", cv=0.05),
   L(A2, "AWS", "DynamoDB", "cart", "ReadRequestUnits", 1.8e7, 0.00000025, week="req", cv=0.05),
   L(A2, "AWS", "DynamoDB", "sessions", "WriteRequestUnits", 2.6e6, 0.00000125, cv=0.04),
   L(A2, "AWS", "DynamoDB", "sessions", "TimedStorage-GB", 800, 0.25 / 730, kind="storage", grow=0.002),
   L(A2, "AWS", "DynamoDB", "inventory", "Provisioned-WCU", 2000, 0.00065, com=(2000, 0.000128),
     kind="static", cv=0.0),
   L(A2, "AWS", "DynamoDB", "inventory", "Provisioned-RCU", 8000, 0.00013, com=(8000, 0.0000256),
     kind="static", cv=0.0),
   L(A2, "AWS", "EC2", "cart", "c6i.xlarge", 12, 0.17, week="req", cv=0.05),
   L(A2, "AWS", "Lambda", "sessions", "Lambda-Requests", 9.0e5, 0.0000002, week="req"),
   fee(A2, "AWS", "Credits", "shared", "Activate-Credit", -30.0)],
  [dict(on=D(2026, 9, 22),
        sel=lambda l: l["svc"] == "DynamoDB" and l["kind"] != "fee", price=1.25)],
  dec=7)

# ============================ provider-wide ==================================================
# 11. GCP +10% on a Monday in a 2-project bill; weekly cycles; support on the 1st
S("provider", [("GCP", "CSP")], D(2026, 2, 2),
  "GCP list prices +10% on every GCP line of both projects, on a Monday; office estates (x0.4 at "
  "weekends), Monday batch x1.75, monthly support fee on every 1st (the day before)",
  [L(G1, "GCP", "GKE", "ranker", "c3-standard-8", 9, 0.4028, cv=0.05),
   L(G1, "GCP", "GKE", "ingest", "e2-standard-8", 14, 0.2681, week="mon", cv=0.05),
   L(G1, "GCP", "Compute Engine", "backoffice", "n2-standard-4", 10, 0.1942, week="office", integer=True),
   L(G1, "GCP", "BigQuery", "reporting", "Analysis-TiB", 0.35, 6.25, week="office", cv=0.1),
   static(G1, "GCP", "Cloud SQL", "backoffice", "db-custom-2-7680", 2, 0.1974),
   L(G1, "GCP", "Cloud Storage", "ingest", "Standard-Storage", 80, 0.0274, kind="storage", grow=0.002),
   fee(G1, "GCP", "Support", "shared", "Enhanced-Support", 500.0, only1=True),
   L(G2, "GCP", "GKE", "ingest", "e2-standard-8", 5, 0.2681),
   L(G2, "GCP", "Compute Engine", "dev", "e2-standard-4", 6, 0.134, week="off")],
  [dict(on=D(2026, 2, 2), sel=csp("GCP"), price=1.10)], pfirst=0.3)

# 12. AWS +7% on a quiet estate; static databases, tiered storage; partial last day
S("provider", [("AWS", "CSP")], D(2026, 4, 29),
  "AWS prices +7% on every AWS line of a quiet estate (static databases, a tiered S3 archive, a few "
  "small fleets); the day after is partial (40%)",
  [static(A3, "AWS", "RDS", "ledger", "db.r6i.2xlarge", 2, 1.008),
   static(A3, "AWS", "RDS", "crm", "db.m6i.xlarge", 1, 0.342),
   static(A3, "AWS", "ElastiCache", "crm", "cache.m6g.large", 2, 0.149),
   L(A3, "AWS", "S3", "archive", "Standard-Storage", 420, 0.0, kind="storage", grow=0.001,
     tiers=[(50, 0.0315), (450, 0.0301), (None, 0.0288)]),
   L(A3, "AWS", "EC2", "crm", "m6i.large", 4, 0.096, integer=True, cv=0.03),
   L(A3, "AWS", "EC2", "ledger", "r6i.large", 3, 0.126, integer=True, cv=0.03),
   L(A3, "AWS", "ELB", "crm", "ALB-Hours", 2, 0.0225, kind="static", cv=0.0)],
  [dict(on=D(2026, 4, 29), sel=csp("AWS"), price=1.07)], after=1, plast=0.4)

# 13. OCI +20%: account also holds flat AWS lines
S("provider", [("OCI", "CSP")], D(2026, 6, 9),
  "Oracle Cloud (OCI) price list +20% on every OCI line (Compute, Autonomous Database, Object "
  "Storage); the same account's AWS lines flat",
  [L("ocid1.tenancy.oc1..aaa7q2", "OCI", "Compute", "erp", "VM.Standard.E5.Flex", 24, 0.03 * 4, week="office"),
   L("ocid1.tenancy.oc1..aaa7q2", "OCI", "Compute", "hr", "VM.Standard3.Flex", 8, 0.04 * 4, integer=True),
   static("ocid1.tenancy.oc1..aaa7q2", "OCI", "Autonomous Database", "erp", "ATP-ECPU", 16, 0.336),
   L("ocid1.tenancy.oc1..aaa7q2", "OCI", "Object Storage", "erp", "Standard-Storage", 55, 0.0255 * 1000 / 730,
     kind="storage", grow=0.002),
   L("ocid1.tenancy.oc1..aaa7q2", "AWS", "EC2", "hr", "m6i.xlarge", 5, 0.192, week="office"),
   L("ocid1.tenancy.oc1..aaa7q2", "AWS", "S3", "hr", "Standard-Storage", 12, 0.0315, kind="storage")],
  [dict(on=D(2026, 6, 9), sel=csp("OCI"), price=1.20)])

# 14. AWS +9% on a Saturday beside SP fee, support fee, EDP credit
S("provider", [("AWS", "CSP")], D(2026, 8, 1),
  "AWS prices +9% on Saturday 1 August on every usage line (weekend estate x0.4, request usage); "
  "Savings Plan fee, an enterprise credit (fixed, negative) and a monthly support fee billed on "
  "every 1st do not move",
  [L(A1, "AWS", "EC2", "portal", "m7i.xlarge", 18, 0.2016, week="office", cv=0.04),
   L(A1, "AWS", "EC2", "batch", "c7i.4xlarge", 6, 0.714, week="req", cv=0.06),
   L(A1, "AWS", "EKS", "portal", "m7i.2xlarge", 8, 0.4032, week="req"),
   static(A1, "AWS", "RDS", "portal", "db.r7g.xlarge", 2, 0.4536),
   L(A1, "AWS", "S3", "batch", "Standard-Storage", 150, 0.0315, kind="storage", grow=0.002),
   L(A1, "AWS", "CloudFront", "portal", "DataTransfer-Out-GB", 140, 0.085, week="req", cv=0.06),
   fee(A1, "AWS", "Savings Plans", "shared", "ComputeSavingsPlan-Fee", 96.0),
   fee(A1, "AWS", "Credits", "shared", "EDP-Credit", -70.0),
   fee(A1, "AWS", "Support", "shared", "Business-Support", 1400.0, only1=True)],
  [dict(on=D(2026, 8, 1), sel=csp("AWS"), price=1.09)], hist=63)

# ============================ region (one account per region) ===============================
R_FRA, R_IAD, R_SIN = "440917262031", "440917262048", "440917262055"
# 15. Azure region +14%: the westeurope subscription only; other regions flat
S("region", [("Azure", "CSP")], D(2026, 3, 3),
  "West Europe price adjustment +14% (this subscription is the westeurope one of a "
  "one-subscription-per-region estate): every Azure line of it rises; northeurope and eastus flat; "
  "a small GCP line billed to this account flat",
  [L("sub-weu-7f21", "Azure", "Virtual Machines", "shop-eu", "D4s_v5", 12, 0.23, week="req"),
   L("sub-weu-7f21", "Azure", "AKS", "shop-eu", "D8s_v5", 8, 0.46, cv=0.05),
   static("sub-weu-7f21", "Azure", "Azure SQL Database", "shop-eu", "GP_Gen5_4", 1, 1.09),
   L("sub-weu-7f21", "Azure", "Virtual Machines", "erp-eu", "E8s_v5", 4, 0.604, integer=True),
   L("sub-weu-7f21", "Azure", "Storage", "erp-eu", "Hot-LRS-GB", 9000, 0.0000274, kind="storage", grow=0.001),
   L("sub-weu-7f21", "GCP", "BigQuery", "erp-eu", "Analysis-TiB", 0.1, 7.5, week="office", cv=0.03),
   L("sub-neu-1c08", "Azure", "Virtual Machines", "shop-eu", "D4s_v5", 6, 0.22, week="req"),
   static("sub-neu-1c08", "Azure", "Azure SQL Database", "shop-eu", "GP_Gen5_2", 1, 0.52),
   L("sub-eus-55aa", "Azure", "AKS", "shop-us", "D8s_v5", 14, 0.384, cv=0.05)],
  [dict(on=D(2026, 3, 3), sel=csp("Azure", "sub-weu-7f21"), price=1.14)])

# 16. Data Transfer repriced in one regional account (Singapore) only, every app
S("region", [("Data Transfer", "Cloud_Service")], D(2026, 5, 26),
  "ap-southeast-1 inter-region and internet egress repriced +40% in the Singapore account only: "
  "every application's Data Transfer line there rises; EC2/RDS there and Data Transfer in the other "
  "regions' accounts flat",
  [L(R_SIN, "AWS", "Data Transfer", "checkout", "DataTransfer-Out-GB", 110, 0.12, week="req", cv=0.05),
   L(R_SIN, "AWS", "Data Transfer", "catalog", "DataTransfer-Out-GB", 160, 0.12, week="req", cv=0.05),
   L(R_SIN, "AWS", "Data Transfer", "catalog", "DataTransfer-Regional-GB", 300, 0.02, cv=0.05),
   L(R_SIN, "AWS", "Data Transfer", "payments", "DataTransfer-InterRegion-GB", 90, 0.09, cv=0.05),
   L(R_SIN, "AWS", "EC2", "checkout", "m6i.2xlarge", 16, 0.48, week="req", cv=0.04),
   L(R_SIN, "AWS", "EC2", "catalog", "c6i.2xlarge", 10, 0.408, cv=0.04),
   static(R_SIN, "AWS", "RDS", "payments", "db.r6i.xlarge", 2, 0.6),
   L(R_IAD, "AWS", "Data Transfer", "checkout", "DataTransfer-Out-GB", 400, 0.09, week="req"),
   L(R_IAD, "AWS", "EC2", "checkout", "m6i.2xlarge", 40, 0.384, week="req"),
   L(R_FRA, "AWS", "Data Transfer", "catalog", "DataTransfer-Out-GB", 150, 0.09, week="req")],
  [dict(on=D(2026, 5, 26), sel=svc("Data Transfer", acct=R_SIN), price=1.40)], shuffle=True)

# 17. one region holding one application; the account's support fee flat
S("region", [("pay-mx", "Application")], D(2026, 7, 21),
  "mx-central-1 prices +13%: the only application in the Mexico account (pay-mx: EC2, RDS, S3, "
  "Data Transfer) rises on every line; the account's fixed support allocation flat; the same "
  "families in the us-east-1 account flat (debatable: an analyst would say 'the region'; the bill "
  "shows the application)",
  [L("440917262062", "AWS", "EC2", "pay-mx", "m7i.xlarge", 8, 0.2218, cv=0.04),
   L("440917262062", "AWS", "EC2", "pay-mx", "c7i.large", 6, 0.0979, week="req", cv=0.05),
   static("440917262062", "AWS", "RDS", "pay-mx", "db.r7g.large", 2, 0.2646),
   L("440917262062", "AWS", "S3", "pay-mx", "Standard-Storage", 20, 0.0347, kind="storage", grow=0.002),
   L("440917262062", "AWS", "Data Transfer", "pay-mx", "DataTransfer-Out-GB", 40, 0.1, week="req"),
   fee("440917262062", "AWS", "Support", "shared", "Support-Allocation", 45.0),
   L(R_IAD, "AWS", "EC2", "pay-us", "m7i.xlarge", 30, 0.2016, cv=0.04),
   static(R_IAD, "AWS", "RDS", "pay-us", "db.r7g.large", 4, 0.24)],
  [dict(on=D(2026, 7, 21), sel=lambda l: l["acct"] == "440917262062" and l["app"] == "pay-mx",
        price=1.13)])

# ============================ application (every line of one app rises) ======================
# 18. one app's traffic surge: every line of it rises by a different amount
S("application", [("video-transcode", "Application")], D(2026, 3, 18),
  "video-transcode's every line rises (a customer's back-catalogue import): c7i.4xlarge x1.9, "
  "g5.2xlarge x1.6, S3 storage +4% (a step), MediaConvert minutes x2.3, Data Transfer x1.5; other "
  "applications flat",
  [L(A2, "AWS", "EC2", "video-transcode", "c7i.4xlarge", 10, 0.714, cv=0.05),
   L(A2, "AWS", "EC2", "video-transcode", "g5.2xlarge", 4, 1.212, integer=True, cv=0.03),
   L(A2, "AWS", "S3", "video-transcode", "Standard-Storage", 300, 0.0315, kind="storage", grow=0.001),
   L(A2, "AWS", "MediaConvert", "video-transcode", "SD-Minutes", 260, 0.0075 * 60 / 60, cv=0.06),
   L(A2, "AWS", "Data Transfer", "video-transcode", "DataTransfer-Out-GB", 80, 0.09, cv=0.05),
   L(A2, "AWS", "EC2", "web", "m7i.xlarge", 20, 0.2016, week="req", cv=0.04),
   L(A2, "AWS", "S3", "web", "Standard-Storage", 40, 0.0315, kind="storage", grow=0.001),
   L(A2, "AWS", "Data Transfer", "web", "DataTransfer-Out-GB", 200, 0.09, week="req", cv=0.05),
   static(A2, "AWS", "RDS", "web", "db.r7g.xlarge", 2, 0.4536)],
  [dict(on=D(2026, 3, 18), sel=app("video-transcode", f="c7i.4xlarge"), count=1.9),
   dict(on=D(2026, 3, 18), sel=app("video-transcode", f="g5.2xlarge"), count=1.6),
   dict(on=D(2026, 3, 18), sel=app("video-transcode", f="Standard-Storage"), count=1.04),
   dict(on=D(2026, 3, 18), sel=app("video-transcode", f="SD-Minutes"), count=2.3),
   dict(on=D(2026, 3, 18), sel=app("video-transcode", f="DataTransfer-Out-GB"), count=1.5)])

# 19. one app moved from EA to pay-as-you-go: every line's price +18%
S("application", [("analytics-hub", "Application")], D(2026, 11, 11),
  "analytics-hub's subscription was moved off the enterprise agreement: every line of it "
  "(VMs, Databricks, Data Lake storage, Azure SQL) is billed at pay-as-you-go, unit price +18%; other "
  "applications in the same account keep EA prices",
  [L(Z1, "Azure", "Virtual Machines", "analytics-hub", "E16s_v5", 6, 1.008, cv=0.03, integer=True),
   L(Z1, "Azure", "Azure Databricks", "analytics-hub", "Premium-Jobs-DBU", 120, 0.3, week="req", cv=0.06),
   L(Z1, "Azure", "Storage", "analytics-hub", "ADLS-Hot-GB", 40000, 0.0000285, kind="storage", grow=0.002),
   static(Z1, "Azure", "Azure SQL Database", "analytics-hub", "GP_Gen5_8", 1, 1.997),
   L(Z1, "Azure", "Virtual Machines", "claims", "E16s_v5", 4, 1.008, integer=True),
   L(Z1, "Azure", "Azure Databricks", "claims", "Premium-Jobs-DBU", 40, 0.3, week="req"),
   L(Z1, "Azure", "Storage", "claims", "ADLS-Hot-GB", 20000, 0.0000285, kind="storage"),
   L(Z1, "Azure", "AKS", "portal", "D8s_v5", 12, 0.384, week="req")],
  [dict(on=D(2026, 11, 11), sel=app("analytics-hub"), price=1.18)], dec=5)

# ============================ rounded-away =================================================
# 20. Cloud Functions +30%: unit prices written as 0.0
S("rounded-away", [("Cloud Functions", "Cloud_Service")], D(2026, 1, 13),
  "Cloud Functions price +30% (vCPU-seconds, GB-seconds, invocations) in every application; the "
  "export writes Price ($/hr) with 4 decimals, so every unit price reads 0.0 before and after",
  [L(G1, "GCP", "Cloud Functions", "webhooks", "CPU-GHz-Seconds", 46000, 0.0000100, week="req", cv=0.05),
   L(G1, "GCP", "Cloud Functions", "webhooks", "Memory-GB-Seconds", 23000, 0.0000025, week="req", cv=0.05),
   L(G1, "GCP", "Cloud Functions", "webhooks", "Invocations", 180000, 0.0000004, week="req", cv=0.05),
   L(G1, "GCP", "Cloud Functions", "thumbnails", "CPU-GHz-Seconds", 30000, 0.0000100, cv=0.06),
   L(G1, "GCP", "Cloud Functions", "thumbnails", "Memory-GB-Seconds", 60000, 0.0000025, cv=0.06),
   L(G1, "GCP", "GKE", "api", "n2-standard-8", 8, 0.3885, week="req", cv=0.04),
   static(G1, "GCP", "Cloud SQL", "api", "db-custom-4-16384", 1, 0.39),
   L(G1, "GCP", "Cloud Storage", "thumbnails", "Standard-Storage-GB", 30000, 0.0000274, kind="storage", grow=0.002)],
  [dict(on=D(2026, 1, 13), sel=svc("Cloud Functions"), price=1.30)], pfirst=0.6, shuffle=True)

# 21. DynamoDB write request units SKU +40% in every app; read units flat; 4 decimals -> 0.0
S("rounded-away", [("WriteRequestUnits", "Instance_Family")], D(2026, 6, 30),
  "DynamoDB on-demand write-request price +40% in every application (read requests, storage flat); "
  "the export writes 4 decimals, so the write price reads 0.0 before and after",
  [L(A3, "AWS", "DynamoDB", "orders", "WriteRequestUnits", 6.0e6, 0.00000125, week="req", cv=0.05),
   L(A3, "AWS", "DynamoDB", "orders", "ReadRequestUnits", 3.0e7, 0.00000025, week="req", cv=0.05),
   L(A3, "AWS", "DynamoDB", "events", "WriteRequestUnits", 3.5e6, 0.00000125, cv=0.05),
   L(A3, "AWS", "DynamoDB", "events", "TimedStorage-GB", 1200, 0.25 / 730, kind="storage", grow=0.002),
   L(A3, "AWS", "DynamoDB", "profiles", "ReadRequestUnits", 2.0e7, 0.00000025, week="req"),
   L(A3, "AWS", "DynamoDB", "profiles", "WriteRequestUnits", 1.5e6, 0.00000125, week="req"),
   L(A3, "AWS", "EC2", "orders", "m7g.xlarge", 14, 0.1632, week="req", cv=0.04),
   L(A3, "AWS", "Lambda", "events", "Lambda-GB-Second", 40000, 0.0000166667, cv=0.06)],
  [dict(on=D(2026, 6, 30), sel=fam("WriteRequestUnits"), price=1.40)], after=0)

# 22. AWS +8% with a 2-decimal price column
S("rounded-away", [("AWS", "CSP")], D(2026, 9, 9),
  "AWS prices +8% on every line; the export writes Price ($/hr) with 2 decimals, so small unit "
  "prices read the same before and after (0.1 -> 0.1, 0.03 -> 0.03), bigger ones move by a cent",
  [L(A2, "AWS", "EC2", "api", "m7g.large", 30, 0.0816, week="req", cv=0.04),
   L(A2, "AWS", "EC2", "worker", "c7g.xlarge", 20, 0.145, cv=0.05),
   L(A2, "AWS", "EKS", "api", "m7g.xlarge", 12, 0.1632, week="req"),
   static(A2, "AWS", "RDS", "api", "db.r7g.2xlarge", 2, 0.9072),
   L(A2, "AWS", "S3", "worker", "Standard-Storage", 200, 0.0315, kind="storage", grow=0.002),
   L(A2, "AWS", "SQS", "worker", "Requests", 5.0e6, 0.0000004, cv=0.05),
   L(A2, "AWS", "Lambda", "api", "Lambda-GB-Second", 90000, 0.0000166667, week="req", cv=0.06)],
  [dict(on=D(2026, 9, 9), sel=csp("AWS"), price=1.08)], dec=2)

# ============================ price+usage the same day ======================================
# 23. GKE +20% everywhere and ingest's e2-highmem-8 x2 the same day: two causes
S("price+usage", [("GKE", "Cloud_Service"), ("e2-highmem-8", "Instance_Family")], D(2026, 2, 24),
  "two causes on one day: GKE node price +20% in every application, and ingest's e2-highmem-8 "
  "pool doubles (x2 nodes, so x2.4 cost)",
  [L(G2, "GCP", "GKE", "ingest", "e2-highmem-8", 8, 0.3616, cv=0.04),
   L(G2, "GCP", "GKE", "ingest", "e2-standard-4", 10, 0.134, week="req"),
   L(G2, "GCP", "GKE", "api", "n2-standard-8", 12, 0.3885, week="req", cv=0.04),
   L(G2, "GCP", "GKE", "scoring", "c3-standard-4", 6, 0.2014, cv=0.04),
   static(G2, "GCP", "Cloud SQL", "api", "db-custom-8-32768", 1, 0.79),
   L(G2, "GCP", "Cloud Storage", "ingest", "Nearline-Storage-GB", 90000, 0.0000137, kind="storage", grow=0.001),
   L(G2, "GCP", "Pub/Sub", "ingest", "Throughput-TiB", 0.05, 40 / 24, cv=0.05)],
  [dict(on=D(2026, 2, 24), sel=svc("GKE"), price=1.20),
   dict(on=D(2026, 2, 24), sel=app("ingest", f="e2-highmem-8"), count=2.0)])

# 24. AWS -10% (new EDP discount) and p4d.24xlarge x2 in ml-train the same day
S("price+usage", [("p4d.24xlarge", "Instance_Family")], D(2026, 5, 13),
  "a new enterprise discount starts (every AWS unit price -10%) and the same day ml-train's "
  "p4d.24xlarge fleet goes 2 -> 4: the only rise is that family",
  [L(A1, "AWS", "EC2", "ml-train", "p4d.24xlarge", 2, 32.77, kind="static", cv=0.0),
   L(A1, "AWS", "EC2", "ml-train", "m6i.4xlarge", 4, 0.768, cv=0.04),
   L(A1, "AWS", "S3", "ml-train", "Standard-Storage", 500, 0.0315, kind="storage", grow=0.001),
   L(A1, "AWS", "EC2", "api", "c6i.2xlarge", 20, 0.34, week="req", cv=0.04),
   static(A1, "AWS", "RDS", "api", "db.r6i.2xlarge", 2, 1.008),
   L(A1, "AWS", "EKS", "api", "m6i.xlarge", 16, 0.192, week="req", cv=0.05)],
  [dict(on=D(2026, 5, 13), sel=csp("AWS"), price=0.90),
   dict(on=D(2026, 5, 13), sel=fam("p4d.24xlarge"), count=2.0)])

# 25. Azure SQL +35% everywhere while one database is scaled down 2 -> 1 the same day
S("price+usage", [("Azure SQL Database", "Cloud_Service")], D(2026, 8, 25),
  "Azure SQL Database price +35% on every database; the same day reporting's pair of read "
  "replicas is cut to one, so that line falls (x0.675) (debatable: one child fell)",
  [static(Z2, "Azure", "Azure SQL Database", "erp", "BC_Gen5_8", 1, 4.0),
   static(Z2, "Azure", "Azure SQL Database", "crm", "GP_Gen5_4", 2, 0.999),
   static(Z2, "Azure", "Azure SQL Database", "reporting", "GP_Gen5_8", 2, 1.997),
   static(Z2, "Azure", "Azure SQL Database", "intranet", "GP_S_Gen5_2", 1, 0.52),
   L(Z2, "Azure", "Virtual Machines", "erp", "E8s_v5", 8, 0.504, cv=0.03, integer=True),
   L(Z2, "Azure", "App Service", "intranet", "P2v3", 3, 0.446, kind="static", cv=0.0),
   L(Z2, "Azure", "Storage", "reporting", "Cool-LRS-GB", 60000, 0.0000137, kind="storage", grow=0.002)],
  [dict(on=D(2026, 8, 25), sel=svc("Azure SQL Database"), price=1.35),
   dict(on=D(2026, 8, 25), sel=app("reporting", f="GP_Gen5_8"), count=0.5)], shuffle=True, after=2, plast=0.25)

# ============================ controls (resource level) ======================================
# 26. family x2.5 in one app on the 1st of a month with a monthly batch and support fee
S("control", [("r6i.8xlarge", "Instance_Family")], D(2026, 12, 1),
  "r6i.8xlarge x2.5 in risk (a backfill), on 1 December; every 1st a billing batch triples in "
  "finance (seen on 1 Oct and 1 Nov) and a support fee is billed",
  [L(A3, "AWS", "EC2", "risk", "r6i.8xlarge", 4, 2.016, integer=True, cv=0.03),
   L(A3, "AWS", "EC2", "risk", "m6i.2xlarge", 8, 0.384, cv=0.04),
   L(A3, "AWS", "EC2", "finance", "c6i.4xlarge", 6, 0.68, month1=3.0, cv=0.04),
   static(A3, "AWS", "RDS", "finance", "db.r6i.4xlarge", 1, 2.016),
   L(A3, "AWS", "S3", "risk", "Standard-Storage", 90, 0.0315, kind="storage", grow=0.002),
   fee(A3, "AWS", "Support", "shared", "Business-Support", 900.0, only1=True)],
  [dict(on=D(2026, 12, 1), sel=app("risk", f="r6i.8xlarge"), count=2.5)], hist=75)

# 27. new Azure GPU family in genai
S("control", [("NC40ads_H100_v5", "Instance_Family")], D(2026, 4, 21),
  "a new NC40ads_H100_v5 VM (1 instance) appears in genai on the day; nothing else changes; two "
  "days after, the last partial (50%)",
  [L(Z2, "Azure", "Virtual Machines", "genai", "NC40ads_H100_v5", 1, 6.98, kind="static", cv=0.0,
     start=D(2026, 4, 21)),
   L(Z2, "Azure", "Virtual Machines", "genai", "D8s_v5", 4, 0.384, cv=0.04),
   L(Z2, "Azure", "AKS", "portal", "D4s_v5", 14, 0.192, week="req", cv=0.05),
   static(Z2, "Azure", "Azure SQL Database", "portal", "GP_Gen5_4", 1, 0.999),
   L(Z2, "Azure", "Storage", "genai", "Hot-LRS-GB", 25000, 0.0000285, kind="storage", grow=0.003)],
  [], after=2, plast=0.5)

# 28. one bucket class only in one app: Archive storage x4 (retention change)
S("control", [("Archive-Storage-GB", "Instance_Family")], D(2026, 10, 20),
  "backups' Archive-Storage-GB volume x4 (a retention policy changed from 90 days to 1 year, "
  "restored from a copy); the SKU exists only in backups; other storage classes grow slowly",
  [L(G1, "GCP", "Cloud Storage", "backups", "Archive-Storage-GB", 400000, 0.0012 / 730, kind="storage", grow=0.001),
   L(G1, "GCP", "Cloud Storage", "backups", "Coldline-Storage-GB", 200000, 0.004 / 730, kind="storage", grow=0.001),
   L(G1, "GCP", "Cloud Storage", "media", "Standard-Storage-GB", 150000, 0.02 / 730, kind="storage", grow=0.002),
   L(G1, "GCP", "GKE", "media", "n2-standard-4", 10, 0.1942, week="req", cv=0.05),
   static(G1, "GCP", "Cloud SQL", "media", "db-custom-2-7680", 1, 0.1974)],
  [dict(on=D(2026, 10, 20), sel=app("backups", f="Archive-Storage-GB"), count=4.0)])


def main(out):
    os.makedirs(out, exist_ok=True)
    cases = []
    for i, sc in enumerate(SC, 1):
        d = os.path.join(out, "Scenario-%d" % i)
        os.makedirs(d, exist_ok=True)
        rows = build(sc)
        anom_acct = sc.get("acct") or first_change_acct(sc)
        with open(os.path.join(d, "data.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(HDR)
            w.writerows(rows)
        with open(os.path.join(d, "anomaly.json"), "w") as f:
            json.dump({"date": sc["date"].isoformat(), "account_id": anom_acct}, f)
            f.write("\n")
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            f.write("resource:\n")
            for n, t in sc["truth"]:
                f.write("- name: %s\n  type: %s\n" % (n, t))
        cases.append(dict(scenario="Scenario-%d" % i, category=sc["cat"], account=anom_acct,
                          date=sc["date"].isoformat(),
                          truth=[{"name": n, "type": t} for n, t in sc["truth"]],
                          cause=sc["cause"], decoys=sc["decoys"]))
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")


def first_change_acct(sc):
    """the account of the first line a change event selects (else the first line's)."""
    for ev in sc["events"]:
        for ln in sc["lines"]:
            if ev["sel"](ln):
                return ln["acct"]
    for ln in sc["lines"]:
        if ln["start"]:
            return ln["acct"]
    return sc["lines"][0]["acct"]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
