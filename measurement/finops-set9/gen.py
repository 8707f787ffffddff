#!/usr/bin/env python3
"""finops-set9: held-out ITBench-Lite FinOps cost-anomaly scenarios (blind-fin9).

python3 gen.py OUTDIR   -> OUTDIR/Scenario-<N>/{anomaly.json,data.csv,ground_truth.yaml}
                           and OUTDIR/cases.json (labels; never show it, or ground_truth.yaml, to agents).
Stdlib only, deterministic (random.Random seeded per scenario/line/day; no hash()).
The line model, writer and self-check are reused from measurement/finops-set8/gen.py; new here:
holiday factors per date (`hol`), a year-end factor (`yend`, on 31 December only), no-anomaly bills
whose changed lines cancel out (`neutral`: a planned migration between two services), providers
Databricks, Datadog, Oracle Cloud beside other providers, negative correction lines.
After writing, a self-check rebuilds every scenario without its events and asserts that the lines
that differ on the anomaly day are exactly what the label says (see selfcheck()).
"""
import csv, datetime as dt, json, math, os, random, statistics, sys

D = dt.date
HDR = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
       "Price ($/hr)", "Num_Instances", "unblended_cost"]
TPH = 1 / 730.0  # $/unit-month -> $/unit-hour


def L(acct, csp, svc, app, fam, n, p, **kw):
    """One billed line. n: mean hourly quantity; p: list unit price per hour (billing currency).
    kw: kind ('fleet','static','fee','storage','credit','pct'), week ('flat','office','req','mon',
    'off'), month1 (x on the 1st), mend (x on a month's last day), qend (x on a quarter's last day,
    instead of mend), cv (noise), integer, com=(units, contract price), grow (per day), tiers,
    start (first date), amt (fee), fixedprice, drift (spot price noise), ref/frac (credit),
    refs/rate (pct line = rate x the sum of lines `refs` that day), ondays (fee billed only on these
    dates), keep (a line inside the truth node that is expected not to move)."""
    d = dict(acct=acct, csp=csp, svc=svc, app=app, fam=fam, n=n, p=p, kind="fleet",
             week="flat", cv=0.04, integer=False, com=None, grow=0.0, tiers=None,
             start=None, amt=None, month1=1.0, mend=1.0, qend=None, fixedprice=False, drift=0.0,
             ref=None, frac=0.0, refs=None, rate=0.0, ondays=None, keep=False, only1=False, cause=False,
             hol=None, yend=None)
    d.update(kw)
    return d


def fee(acct, csp, svc, app, fam, amt, **kw):
    return L(acct, csp, svc, app, fam, 1, amt / 24.0, kind="fee", amt=amt, cv=0.0, **kw)


def static(acct, csp, svc, app, fam, n, p, **kw):
    return L(acct, csp, svc, app, fam, n, p, kind="static", cv=0.0, **kw)


def credit(acct, csp, svc, app, fam, ref, frac):
    return L(acct, csp, svc, app, fam, 1, 0.0, kind="credit", ref=ref, frac=frac, cv=0.0)


def pct(acct, csp, svc, app, fam, refs, rate, **kw):
    return L(acct, csp, svc, app, fam, 1, 0.0, kind="pct", refs=refs, rate=rate, cv=0.0, **kw)


def week_factor(line, day):
    w = day.weekday()  # Mon 0 .. Sun 6
    k = line["week"]
    f = 1.0
    if k == "office":
        f = 0.4 if w >= 5 else 1.0
    elif k == "req":
        f = [1.0, 1.05, 1.06, 1.03, 0.95, 0.32, 0.28][w]
    elif k == "mon":
        f = 1.75 if w == 0 else 1.0
    elif k == "off":
        f = 0.0 if w >= 5 else 1.0
    if day.day == 1:
        f *= line["month1"]
    if line["hol"] and day in line["hol"]:
        f *= line["hol"][day]
    nxt = day + dt.timedelta(days=1)
    if nxt.day == 1 and nxt.month == 1 and line["yend"] is not None:
        f *= line["yend"]
    elif nxt.day == 1:
        if line["qend"] is not None and nxt.month in (1, 4, 7, 10):
            f *= line["qend"]
        else:
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


def tier_price(q, tiers, mult):
    left, cost = q, 0.0
    for size, pr in tiers:
        take = left if size is None else min(left, size)
        cost += take * pr * mult
        left -= take
        if left <= 0:
            break
    return cost / q


def build(sc, with_events=True):
    """rows: [date, acct, csp, svc, app, fam, price_str, cnt, cost_float, line_index]"""
    a = sc["date"]
    first = a - dt.timedelta(days=sc.get("hist", 42))
    last = a + dt.timedelta(days=sc.get("after", 1))
    dec = sc.get("dec", 4)
    events = sc["events"] if with_events else []
    keys = {ln.get("key"): i for i, ln in enumerate(sc["lines"]) if ln.get("key")}
    rows = []
    day = first
    while day <= last:
        frac = 1.0
        if day == first and sc.get("pfirst"):
            frac = sc["pfirst"]
        if day == last and sc.get("plast"):
            frac = sc["plast"]
        today = {}
        for i, ln in enumerate(sc["lines"]):
            if ln["start"] and day < ln["start"]:
                continue
            if ln["cause"] and not with_events:
                continue
            pm, cm, stop, nocom = 1.0, 1.0, False, False
            for ev in events:
                if day >= ev["on"] and ev["sel"](ln):
                    pm *= ev.get("price", 1.0)
                    cm *= ev.get("count", 1.0)
                    stop = stop or ev.get("stop", False)
                    nocom = nocom or ev.get("nocom", False)
            if stop:
                continue
            lr = random.Random(sc["seed"] * 1000003 + i * 7919 + day.toordinal())
            if ln["kind"] == "fee":
                if ln["only1"] and day.day != 1:
                    continue
                if ln["ondays"] is not None and day not in ln["ondays"]:
                    continue
                cnt, cost = 1.0, ln["amt"] * (frac if ln["ondays"] is None else 1.0)
            elif ln["kind"] == "credit":
                j = keys[ln["ref"]]
                if j not in today:
                    continue
                rc, rcost = today[j]
                cnt, cost = rc, -ln["frac"] * rcost
            elif ln["kind"] == "pct":
                base = sum(today[keys[k]][1] for k in ln["refs"] if keys[k] in today)
                cnt, cost = 1.0, ln["rate"] * base
            else:
                wf = week_factor(ln, day)
                if wf == 0.0:
                    continue
                if ln["kind"] == "static":
                    cnt = ln["n"] * cm * wf
                elif ln["kind"] == "storage":
                    cnt = ln["n"] * (1 + ln["grow"]) ** (day - first).days * cm * (1 + lr.gauss(0, 0.002))
                else:
                    cnt = ln["n"] * wf * cm * max(0.2, 1 + lr.gauss(0, ln["cv"]))
                    if ln["integer"]:
                        base = math.floor(cnt)
                        part = cnt - base
                        cnt = base + (round(part * 24) / 24.0 if lr.random() < 0.35 else (1.0 if part > 0.7 else 0.0))
                cnt = max(cnt, 0.0) * frac
                if cnt <= 0:
                    continue
                p = ln["p"] * (1.0 if ln["fixedprice"] else pm)
                if ln["drift"]:  # spot / market price: moves every day
                    p *= 1 + lr.gauss(0, ln["drift"])
                if ln["tiers"]:
                    unit = tier_price(cnt / frac, ln["tiers"], 1.0 if ln["fixedprice"] else pm)
                    cost = 24 * cnt * unit
                elif ln["com"] and not nocom:
                    cu, cp = ln["com"]
                    cov = min(cnt, cu * frac)
                    cost = 24 * (cov * cp + (cnt - cov) * p)
                else:
                    cost = 24 * cnt * p
            today[i] = (cnt, cost)
            cnt = round(cnt, 3) if abs(cnt) < 1000 else round(cnt, 1)
            price = cost / 24.0 / cnt if cnt else 0.0
            rows.append([day.isoformat(), ln["acct"], ln["csp"], ln["svc"], ln["app"], ln["fam"],
                         fmt(price, dec), repr(cnt), round(cost, 4), i])
        day += dt.timedelta(days=1)
    if sc.get("shuffle") and with_events:
        random.Random(sc["seed"] + 5).shuffle(rows)
    return rows


def _use(l):
    return l["kind"] not in ("fee", "credit", "pct")


def fam(name, acct=None, app=None):
    return lambda l: l["fam"] == name and (acct is None or l["acct"] == acct) and (app is None or l["app"] == app) and _use(l)


def svc(name, acct=None):
    return lambda l: l["svc"] == name and (acct is None or l["acct"] == acct) and _use(l)


def csp(name, acct=None):
    return lambda l: l["csp"] == name and (acct is None or l["acct"] == acct) and _use(l)


def app(name, acct=None, f=None):
    return lambda l: l["app"] == name and (acct is None or l["acct"] == acct) and (f is None or l["fam"] == f) and _use(l)


SC = []


def S(cat, truth, date, cause, hard, lines, events, **kw):
    sc = dict(cat=cat, truth=truth, date=date, cause=cause, hard=hard, lines=lines, events=events,
              seed=9000 + len(SC) * 43, cur={})
    sc.update(kw)
    SC.append(sc)


# accounts (none used by earlier sets)
W1, W2, W3 = "512908374401", "512908374418", "512908374425"   # AWS accounts
WSP = "512908374432"                                           # AWS af-south-1 account (region case)
WUS = "512908374449"                                           # AWS us-west-2 account (same org)
MDB = "cc-databricks-aws-3390"     # data-platform account: Databricks (FOCUS export) + AWS
MDD = "cc-datadog-gcp-6402"        # observability cost centre: Datadog + GCP
MOA = "cc-oci-azure-1177"          # Oracle Cloud + Azure (database interconnect estate)
MAL = "cc-alibaba-aws-2086"        # Alibaba Cloud + AWS, billed in CNY
MDA = "cc-datadog-aws-6419"        # Datadog + AWS
OCI = "oci-kestrel-fin"            # Oracle Cloud tenancy (single provider)
KP, KA, KB = "kestrel-prod-7720", "kestrel-ads-7720", "kestrel-big-7720"
KME, KUS = "kestrel-me2-7720", "kestrel-usc1-7720"            # me-central2 / us-central1 projects
IDE, IUS = "ibm-eu-de-40aa", "ibm-us-south-40aa"              # IBM Cloud accounts per region (EUR / USD)
ZP, ZF, ZI = "sub-kestrel-prod-91e2", "sub-kestrel-files-91e2", "sub-kestrel-sql-91e2"
ZN = "sub-kestrel-inr-91e2"                                    # an INR-billed subscription

EG = [(10240 * TPH, 0.09), (40960 * TPH, 0.085), (102400 * TPH, 0.07), (None, 0.05)]
HOTB = [(51200, 0.0184 * TPH), (460800, 0.0177 * TPH), (None, 0.0170 * TPH)]
DDLOG = [(100 * TPH, 0.0), (None, 0.10)]          # Datadog log ingestion: an included allowance
XMAS = {D(2026, 12, d): f for d, f in [(24, 0.6), (25, 0.35), (26, 0.45), (27, 0.45), (28, 0.55),
                                        (29, 0.55), (30, 0.55), (31, 0.5)]}
XMAS[D(2027, 1, 1)] = 0.35
XMAS.update({D(k.year - 1, k.month, k.day): f for k, f in list(XMAS.items()) if k.year == 2026})
XMAS[D(2026, 1, 1)] = 0.35
DIWALI = {D(2026, 11, 8): 0.5, D(2026, 11, 9): 0.45, D(2026, 11, 10): 0.7}

# ================================ provider (CSP) ============================================
# 1. Databricks committed-use contract ends: every DBU line goes to list price; the AWS EC2 under the clusters flat
S("provider", [("Databricks", "CSP")], D(2026, 3, 3),
  "the Databricks committed-use contract (25% off list) ends on Tuesday 3 March: every DBU line of "
  "the Databricks provider goes to list price (Jobs Compute, All-Purpose, SQL Serverless, Delta Live "
  "Tables, Model Serving) in five workspaces/jobs; the AWS EC2 instances that run the classic "
  "clusters (same application names), S3 and the NAT gateway flat",
  "Databricks as its own provider (FOCUS export) beside AWS in one account; applications are the "
  "same job names on both sides and the EC2 half of every job is flat; a large DBU estate with "
  "office-hours and nightly jobs",
  [L(MDB, "Databricks", "Jobs Compute", "etl-nightly", "Jobs-Compute-DBU", 420, 0.15 * 0.75, cv=0.05),
   L(MDB, "Databricks", "Jobs Compute", "feature-store", "Jobs-Compute-DBU", 160, 0.15 * 0.75, cv=0.05),
   L(MDB, "Databricks", "All-Purpose Compute", "data-science", "All-Purpose-DBU", 90, 0.55 * 0.75, week="office", cv=0.06),
   L(MDB, "Databricks", "SQL", "bi", "SQL-Serverless-DBU", 60, 0.70 * 0.75, week="office", cv=0.06),
   L(MDB, "Databricks", "Delta Live Tables", "feature-store", "DLT-Advanced-DBU", 40, 0.36 * 0.75, cv=0.04),
   static(MDB, "Databricks", "Model Serving", "recs", "Serverless-Real-Time-Inference-DBU", 12, 0.07 * 0.75),
   L(MDB, "AWS", "EC2", "etl-nightly", "i4i.2xlarge", 70, 0.686, cv=0.05),
   L(MDB, "AWS", "EC2", "feature-store", "r6i.2xlarge", 30, 0.504, cv=0.05),
   L(MDB, "AWS", "EC2", "data-science", "m6i.4xlarge", 12, 0.768, week="office", cv=0.06),
   L(MDB, "AWS", "S3", "lakehouse", "Standard-Storage-GB", 1200000, 0.021 * TPH, kind="storage", grow=0.0015),
   L(MDB, "AWS", "VPC", "lakehouse", "NatGateway-Bytes", 300, 0.045, cv=0.06)],
  [dict(on=D(2026, 3, 3), sel=csp("Databricks"), price=1 / 0.75)],
  acct=MDB, hist=42)

# 2. Datadog annual renewal +15% on every metered product; GCP in the same account flat
S("provider", [("Datadog", "CSP")], D(2026, 5, 12),
  "the Datadog annual contract renews at +15% on every metered product (infrastructure hosts, APM "
  "hosts, log ingestion beyond the included allowance, indexed logs, custom metrics, synthetics) "
  "across four applications of an observability cost centre that also holds GCP (GKE, Cloud SQL, "
  "Cloud Logging: flat)",
  "Datadog as a provider beside GCP: host counts follow the GKE node counts (which move every "
  "day); Cloud Logging, the cloud's own observability service, is flat; the log line has a free "
  "allowance so its price column blends a (small) free tier",
  [L(MDD, "Datadog", "Infrastructure", "checkout", "Infra-Host-Pro", 120, 15.0 * TPH * 1.0, week="req", cv=0.03, integer=True),
   L(MDD, "Datadog", "Infrastructure", "catalog", "Infra-Host-Pro", 60, 15.0 * TPH, week="req", cv=0.03, integer=True),
   L(MDD, "Datadog", "APM", "checkout", "APM-Host", 120, 31.0 * TPH, week="req", cv=0.03, integer=True),
   L(MDD, "Datadog", "Log Management", "checkout", "Logs-Ingested-GB", 400, 1.0, week="req", cv=0.06, tiers=DDLOG),
   L(MDD, "Datadog", "Log Management", "catalog", "Logs-Indexed-Million-15d", 3.0, 1.70, week="req", cv=0.07),
   L(MDD, "Datadog", "Custom Metrics", "platform", "Custom-Metrics-100", 80, 5.0 * TPH, cv=0.01),
   static(MDD, "Datadog", "Synthetics", "storefront", "Synthetics-API-10k", 9, 5.0 / 24),
   L(MDD, "GCP", "GKE", "checkout", "n2-standard-8", 120, 0.3885, week="req", cv=0.03, integer=True),
   L(MDD, "GCP", "GKE", "catalog", "n2-standard-8", 60, 0.3885, week="req", cv=0.03, integer=True),
   static(MDD, "GCP", "Cloud SQL", "checkout", "db-custom-8-32768", 2, 0.67),
   L(MDD, "GCP", "Cloud Logging", "platform", "Log-Ingestion-GiB", 20, 0.50, week="req", cv=0.05)],
  [dict(on=D(2026, 5, 12), sel=csp("Datadog"), price=1.15)],
  acct=MDD, hist=35)

# 3. Oracle Cloud Universal Credits commitment ends (22% off) beside Azure; BYOL and license-included DBs
S("provider", [("Oracle Cloud", "CSP")], D(2026, 8, 19),
  "the Oracle Cloud annual Universal Credits commitment (22% off pay-as-you-go) is not renewed: from "
  "Wednesday 19 August every Oracle Cloud line is billed pay-as-you-go (Compute E5 Flex OCPU and "
  "memory, Base Database BYOL and license-included, Block Volume, Object Storage, FastConnect port); "
  "the Azure half of the estate (VMs, Azure SQL, Blob) flat",
  "Oracle Cloud beside Azure in one account; BYOL and license-included database lines of the same "
  "application price very differently but rise by the same factor; a FastConnect port and static "
  "databases (exactly flat cost until the day)",
  [L(MOA, "Oracle Cloud", "Compute", "erp", "VM.Standard.E5.Flex-OCPU", 96, 0.03 * 0.78, cv=0.02),
   L(MOA, "Oracle Cloud", "Compute", "erp", "VM.Standard.E5.Flex-Memory-GB", 1536, 0.002 * 0.78, cv=0.02),
   static(MOA, "Oracle Cloud", "Base Database", "erp", "DB-EE-Extreme-Perf-License-Included-OCPU", 16, 1.3441 * 0.78),
   static(MOA, "Oracle Cloud", "Base Database", "billing", "DB-EE-BYOL-OCPU", 24, 0.1935 * 0.78),
   L(MOA, "Oracle Cloud", "Block Volume", "erp", "Block-Volume-Performance-Units", 300000, 0.0017 * TPH * 0.78, kind="storage", grow=0.0005),
   L(MOA, "Oracle Cloud", "Object Storage", "billing", "Object-Storage-Standard-GB", 400000, 0.0255 * TPH * 0.78, kind="storage", grow=0.001),
   static(MOA, "Oracle Cloud", "FastConnect", "shared", "FastConnect-10Gbps-Port", 1, 1.275 * 0.78),
   L(MOA, "Azure", "Virtual Machines", "erp-web", "D8as_v5", 16, 0.344, week="office", cv=0.03, integer=True),
   static(MOA, "Azure", "Azure SQL Database", "billing-api", "GP_Gen5_4", 1, 1.009),
   L(MOA, "Azure", "Storage", "erp-web", "Hot-LRS-GB", 90000, 1.0, kind="storage", grow=0.001, tiers=HOTB)],
  [dict(on=D(2026, 8, 19), sel=csp("Oracle Cloud"), price=1 / 0.78)],
  acct=MOA, hist=49)

# 4. Alibaba Cloud partner discount ends on pay-as-you-go lines; subscription (amortized) ECS flat; AWS flat; CNY
S("provider", [("Alibaba Cloud", "CSP")], D(2026, 10, 13),
  "a reseller (partner) discount of 12% on Alibaba Cloud pay-as-you-go usage ends on Tuesday 13 "
  "October: every Alibaba usage line (ECS pay-as-you-go, ACK nodes, ApsaraDB PolarDB, OSS, SLB, "
  "NAT gateway CU) costs 1/0.88 more; the monthly-subscription ECS (amortized daily) keeps its "
  "amount; the AWS lines of the same CNY account flat; a small estate",
  "a small account (about 12 lines) holding two providers in CNY; the subscription ECS line, the "
  "largest Alibaba line, is flat; the week after the National Day holiday (1-7 October: office "
  "lines at x0.5) makes the previous Tuesday low",
  [L(MAL, "Alibaba Cloud", "ECS", "mall-web", "ecs.g7.2xlarge", 14, 2.1, week="req", cv=0.03, integer=True,
     hol={D(2026, 10, d): 0.5 for d in range(1, 8)}),
   fee(MAL, "Alibaba Cloud", "ECS", "mall-web", "Subscription-ecs.g7.2xlarge-amortized", 1180.0),
   L(MAL, "Alibaba Cloud", "ACK", "mall-api", "ecs.c7.4xlarge", 8, 3.4, cv=0.03, integer=True),
   static(MAL, "Alibaba Cloud", "PolarDB", "mall-api", "polar.mysql.x4.xlarge", 2, 5.2),
   L(MAL, "Alibaba Cloud", "OSS", "mall-web", "OSS-Standard-GB", 80000, 0.12 * TPH, kind="storage", grow=0.001),
   L(MAL, "Alibaba Cloud", "SLB", "mall-web", "SLB-LCU", 30, 0.049, week="req", cv=0.05),
   L(MAL, "Alibaba Cloud", "NAT Gateway", "mall-api", "NAT-CU", 12, 0.21, cv=0.05),
   L(MAL, "AWS", "EC2", "export-sync", "m7i.xlarge", 3, 1.46, cv=0.02, integer=True),
   L(MAL, "AWS", "S3", "export-sync", "Standard-Storage-GB", 20000, 0.16 * TPH, kind="storage", grow=0.001),
   L(MAL, "AWS", "CloudFront", "mall-web", "DataTransfer-Out-GB", 120, 0.61, week="req", cv=0.05)],
  [dict(on=D(2026, 10, 13), sel=csp("Alibaba Cloud"), price=1 / 0.88)],
  acct=MAL, hist=42, cur={MAL: "CNY"})

# ================================ service ===================================================
# 5. Cloud NAT price change: gateway uptime and data processing in every application
S("service", [("Cloud NAT", "Cloud_Service")], D(2026, 2, 4),
  "Cloud NAT prices +30% on Wednesday 4 February: per-VM gateway uptime and NAT data processing in "
  "every application (ingest, scraper, builds); GKE, Compute Engine, Cloud Storage and Networking "
  "egress flat",
  "NAT data processing follows egress volumes that move every day; the uptime line follows VM "
  "counts; the internet egress of the same traffic (Networking) does not move",
  [L(KP, "GCP", "Cloud NAT", "ingest", "NAT-Gateway-Uptime-VM", 64, 0.0014, cv=0.02, integer=True),
   L(KP, "GCP", "Cloud NAT", "ingest", "NAT-Data-Processing-GB", 900, 0.045, cv=0.06),
   L(KP, "GCP", "Cloud NAT", "scraper", "NAT-Data-Processing-GB", 600, 0.045, week="req", cv=0.06),
   L(KP, "GCP", "Cloud NAT", "builds", "NAT-Gateway-Uptime-VM", 30, 0.0014, week="office", cv=0.04, integer=True),
   L(KP, "GCP", "Cloud NAT", "builds", "NAT-Data-Processing-GB", 250, 0.045, week="office", cv=0.08),
   L(KP, "GCP", "GKE", "ingest", "n2d-standard-8", 64, 0.3375, cv=0.02, integer=True),
   L(KP, "GCP", "Compute Engine", "builds", "c3-standard-8", 30, 0.3504, week="office", cv=0.04, integer=True),
   L(KP, "GCP", "Compute Engine", "scraper", "e2-standard-4", 40, 0.134, week="req", cv=0.03, integer=True),
   L(KP, "GCP", "Networking", "scraper", "Premium-Internet-Egress-GB", 150, 0.11, week="req", cv=0.06),
   L(KP, "GCP", "Cloud Storage", "ingest", "Standard-Storage-GB", 700000, 0.020 * TPH, kind="storage", grow=0.0015)],
  [dict(on=D(2026, 2, 4), sel=svc("Cloud NAT"), price=1.30)],
  acct=KP, hist=35)

# 6. GuardDuty protection plans enabled org-wide: new lines in three applications; existing flow-log analysis flat
S("service", [("GuardDuty", "Cloud_Service")], D(2026, 4, 22),
  "a security baseline enables GuardDuty S3 Protection and EKS Runtime Monitoring on Wednesday 22 "
  "April: new S3-data-event lines in media, orders and analytics and runtime-monitoring vCPU lines in "
  "orders and analytics appear; GuardDuty's existing CloudTrail/VPC-flow-log analysis lines keep their "
  "volume; EKS, S3 and everything else flat",
  "new lines (no history) in one service spread over three applications and two families; the "
  "service's older lines do not move; S3 request volumes beside them are flat",
  [L(W1, "AWS", "GuardDuty", "shared", "VPC-Flow-Log-Analysis-GB", 40, 1.0, cv=0.05, keep=True),
   L(W1, "AWS", "GuardDuty", "shared", "CloudTrail-Events-Million", 0.6, 4.0, cv=0.05, keep=True),
   L(W1, "AWS", "GuardDuty", "media", "S3-Data-Events-Million", 9.0, 0.8, week="req", cv=0.06, cause=True, start=D(2026, 4, 22)),
   L(W1, "AWS", "GuardDuty", "orders", "S3-Data-Events-Million", 4.0, 0.8, week="req", cv=0.06, cause=True, start=D(2026, 4, 22)),
   L(W1, "AWS", "GuardDuty", "analytics", "S3-Data-Events-Million", 14.0, 0.8, cv=0.06, cause=True, start=D(2026, 4, 22)),
   L(W1, "AWS", "GuardDuty", "orders", "EKS-Runtime-Monitoring-vCPU", 320, 1.5 * TPH, cv=0.03, cause=True, start=D(2026, 4, 22)),
   L(W1, "AWS", "GuardDuty", "analytics", "EKS-Runtime-Monitoring-vCPU", 256, 1.5 * TPH, cv=0.03, cause=True, start=D(2026, 4, 22)),
   L(W1, "AWS", "EKS", "orders", "m7i.2xlarge", 40, 0.4032, week="req", cv=0.03, integer=True),
   L(W1, "AWS", "EKS", "analytics", "r7i.2xlarge", 32, 0.5292, cv=0.03, integer=True),
   L(W1, "AWS", "S3", "media", "S3-GET-Requests", 9000000 / 24, 0.0000004, week="req", cv=0.06),
   L(W1, "AWS", "S3", "media", "Standard-Storage-GB", 900000, 0.023 * TPH, kind="storage", grow=0.001),
   static(W1, "AWS", "RDS", "orders", "db.r7i.xlarge", 2, 0.504)],
  [], acct=W1, hist=42, dec=6)

# 7. Event Hubs price rise (throughput units and ingress events) in every application; EUR
S("service", [("Event Hubs", "Cloud_Service")], D(2026, 6, 10),
  "Event Hubs Standard prices +20% on Wednesday 10 June in every application: throughput units "
  "(static counts) and ingress events (telemetry, payments, audit); Stream Analytics, Functions, "
  "Storage and Cosmos DB flat; an EUR subscription",
  "throughput units are static (exactly flat cost until the day); ingress events follow traffic with "
  "a weekly habit; Stream Analytics reads the same hubs (same applications) and is flat",
  [static(ZP, "Azure", "Event Hubs", "telemetry", "Standard-Throughput-Unit", 20, 0.0283),
   L(ZP, "Azure", "Event Hubs", "telemetry", "Ingress-Events-Million", 180, 0.0265, cv=0.05),
   static(ZP, "Azure", "Event Hubs", "payments", "Standard-Throughput-Unit", 6, 0.0283),
   L(ZP, "Azure", "Event Hubs", "payments", "Ingress-Events-Million", 40, 0.0265, week="req", cv=0.05),
   L(ZP, "Azure", "Event Hubs", "audit", "Ingress-Events-Million", 12, 0.0265, week="office", cv=0.06),
   static(ZP, "Azure", "Stream Analytics", "telemetry", "Streaming-Unit-V2", 12, 0.102),
   L(ZP, "Azure", "Functions", "payments", "Execution-GB-s-Million", 0.8, 14.0, week="req", cv=0.06),
   L(ZP, "Azure", "Storage", "audit", "Hot-LRS-GB", 60000, 1.0, kind="storage", grow=0.0015, tiers=HOTB),
   static(ZP, "Azure", "Azure Cosmos DB", "payments", "Provisioned-RU-100", 100, 0.008)],
  [dict(on=D(2026, 6, 10), sel=svc("Event Hubs"), price=1.20)],
  acct=ZP, hist=35, cur={ZP: "EUR"}, dec=5)

# 8. Azure Files tier move: shares moved from Transaction Optimized to Hot: storage falls, transactions rise
S("service", [("Azure Files", "Cloud_Service")], D(2026, 9, 9),
  "a storage policy moves every file share from the Transaction Optimized to the Hot tier on "
  "Wednesday 9 September: Files storage price x0.43 (falls) while write and read operations x2.5 "
  "(Hot charges per transaction) in cad, home-dirs and render-cache; Blob storage, VMs and Backup flat",
  "a tier move: one changed family falls while two rise; storage grows every day; the VMs that "
  "mount the shares (same applications) flat",
  [L(ZF, "Azure", "Azure Files", "cad", "Files-Storage-GB", 40000, 0.06 * TPH, kind="storage", grow=0.001),
   L(ZF, "Azure", "Azure Files", "cad", "Files-Write-Operations-10k", 300, 0.015, week="office", cv=0.06),
   L(ZF, "Azure", "Azure Files", "home-dirs", "Files-Storage-GB", 25000, 0.06 * TPH, kind="storage", grow=0.0008),
   L(ZF, "Azure", "Azure Files", "home-dirs", "Files-Read-Operations-10k", 500, 0.0015, week="office", cv=0.06),
   L(ZF, "Azure", "Azure Files", "render-cache", "Files-Storage-GB", 60000, 0.06 * TPH, kind="storage", grow=0.0012),
   L(ZF, "Azure", "Azure Files", "render-cache", "Files-Write-Operations-10k", 900, 0.015, cv=0.05),
   L(ZF, "Azure", "Azure Files", "render-cache", "Files-Read-Operations-10k", 2400, 0.0015, cv=0.05),
   L(ZF, "Azure", "Virtual Machines", "cad", "NV12ads_A10_v5", 10, 0.908, week="office", cv=0.03, integer=True),
   L(ZF, "Azure", "Virtual Machines", "render-cache", "F16s_v2", 12, 0.677, cv=0.03, integer=True),
   L(ZF, "Azure", "Storage", "render-cache", "Hot-LRS-GB", 200000, 1.0, kind="storage", grow=0.001, tiers=HOTB),
   static(ZF, "Azure", "Backup", "home-dirs", "Protected-Share", 4, 10.0 / 730)],
  [dict(on=D(2026, 9, 9), sel=lambda l: l["svc"] == "Azure Files" and l["fam"] == "Files-Storage-GB", price=0.43),
   dict(on=D(2026, 9, 9), sel=lambda l: l["svc"] == "Azure Files" and "Operations" in l["fam"], price=2.5)],
  acct=ZF, hist=35, dec=5)

# 9. DocumentDB price rise (instances, I/O, storage) in every application; a large static estate
S("service", [("DocumentDB", "Cloud_Service")], D(2026, 11, 17),
  "Amazon DocumentDB prices +30% on Tuesday 17 November in every application: instance hours "
  "(static clusters), I/O requests and storage (profiles, catalog, sessions); the Elastic Cluster "
  "of sessions is on a reserved rate (fixed price, flat); EC2, ElastiCache and Lambda flat",
  "static clusters (exactly flat cost before the day) beside a reserved line inside the service that "
  "does not move; I/O lines with tiny unit prices; Diwali (8-10 November, traffic x0.45-0.7 on "
  "profiles' EC2 and sessions' I/O) lowers one of the previous weeks",
  [static(W2, "AWS", "DocumentDB", "profiles", "db.r6g.4xlarge", 8, 2.128),
   L(W2, "AWS", "DocumentDB", "profiles", "IO-Requests-Million", 2.5, 0.20, week="req", cv=0.06),
   static(W2, "AWS", "DocumentDB", "catalog", "db.r6g.xlarge", 3, 0.532),
   L(W2, "AWS", "DocumentDB", "catalog", "Storage-GB", 3000, 0.10 * TPH, kind="storage", grow=0.001),
   static(W2, "AWS", "DocumentDB", "sessions", "Elastic-Shard-vCPU", 32, 0.0909, fixedprice=True),
   L(W2, "AWS", "DocumentDB", "sessions", "IO-Requests-Million", 6.0, 0.20, week="req", cv=0.05, hol=DIWALI),
   L(W2, "AWS", "EC2", "profiles", "c7g.2xlarge", 120, 0.289, week="req", cv=0.03, integer=True, hol=DIWALI),
   static(W2, "AWS", "ElastiCache", "sessions", "cache.r7g.large", 6, 0.219),
   L(W2, "AWS", "Lambda", "catalog", "Lambda-GB-Second-k", 1000, 0.0166667, week="req", cv=0.05)],
  [dict(on=D(2026, 11, 17), sel=svc("DocumentDB"), price=1.30)],
  acct=W2, hist=42)

# ================================ family / SKU ===============================================
# 10. S3 gateway endpoint removed: S3 traffic goes through NAT gateways: NatGateway-Bytes x3.5 in every app
S("family", [("NatGateway-Bytes", "Instance_Family")], D(2026, 1, 21),
  "a network refactor drops the VPC's S3 gateway endpoint on Wednesday 21 January: all S3 traffic "
  "goes through the NAT gateways, NatGateway-Bytes (data processing, 0.045 $/GB) x3.5 in ingest, "
  "search and ml-train (EC2 and EKS VPCs); NatGateway-Hours, S3 request and storage lines, EC2 flat",
  "the gateway-hour SKU of the same NAT gateways does not move; S3 itself (where the traffic goes) "
  "is flat; three applications, one family",
  [L(W3, "AWS", "VPC", "ingest", "NatGateway-Bytes", 500, 0.045, cv=0.06),
   static(W3, "AWS", "VPC", "ingest", "NatGateway-Hours", 3, 0.045),
   L(W3, "AWS", "VPC", "search", "NatGateway-Bytes", 220, 0.045, week="req", cv=0.06),
   static(W3, "AWS", "VPC", "search", "NatGateway-Hours", 3, 0.045),
   L(W3, "AWS", "VPC", "ml-train", "NatGateway-Bytes", 150, 0.045, cv=0.08),
   static(W3, "AWS", "VPC", "ml-train", "NatGateway-Hours", 2, 0.045),
   L(W3, "AWS", "EC2", "ingest", "c7i.2xlarge", 30, 0.357, cv=0.03, integer=True),
   L(W3, "AWS", "EKS", "search", "r7g.2xlarge", 24, 0.4284, week="req", cv=0.03, integer=True),
   L(W3, "AWS", "EC2", "ml-train", "g6.4xlarge", 8, 1.3232, cv=0.05),
   L(W3, "AWS", "S3", "ingest", "Standard-Storage-GB", 2000000, 0.022 * TPH, kind="storage", grow=0.001),
   L(W3, "AWS", "S3", "search", "S3-GET-Requests", 20000000 / 24, 0.0000004, week="req", cv=0.05)],
  [dict(on=D(2026, 1, 21), sel=fam("NatGateway-Bytes"), count=3.5)],
  acct=W3, hist=35, dec=5)

# 11. Azure Hybrid Benefit lapses for SQL Server: BYOL -> license-included SQL license lines appear
S("family", [("SQL-Server-Enterprise-License-vCore", "Instance_Family")], D(2026, 3, 25),
  "the Software Assurance behind Azure Hybrid Benefit for SQL Server lapses on Wednesday 25 March: "
  "SQL Server Enterprise is billed license-included, a SQL-Server-Enterprise-License-vCore line "
  "appears beside each SQL workload (Virtual Machines in erp and reporting, SQL Managed Instance in "
  "finance); the VM compute, the managed instance's vCores and storage flat",
  "BYOL -> license-included: a new family (no history) in three applications and two services; the "
  "machine lines the licence rides on do not move; office-hours reporting",
  [L(ZI, "Azure", "Virtual Machines", "erp", "E16ds_v5", 4, 1.008, cv=0.0, integer=True),
   L(ZI, "Azure", "Virtual Machines", "erp", "SQL-Server-Enterprise-License-vCore", 64, 0.1875, cv=0.0, cause=True, start=D(2026, 3, 25)),
   L(ZI, "Azure", "Virtual Machines", "reporting", "E8ds_v5", 3, 0.504, week="office", cv=0.0),
   L(ZI, "Azure", "Virtual Machines", "reporting", "SQL-Server-Enterprise-License-vCore", 24, 0.1875, week="office", cv=0.0, cause=True, start=D(2026, 3, 25)),
   static(ZI, "Azure", "SQL Managed Instance", "finance", "BC_Gen5_8-vCore", 8, 0.478),
   static(ZI, "Azure", "SQL Managed Instance", "finance", "SQL-Server-Enterprise-License-vCore", 8, 0.1875, cause=True, start=D(2026, 3, 25)),
   L(ZI, "Azure", "SQL Managed Instance", "finance", "MI-Storage-GB", 2048, 0.115 * TPH, kind="storage", grow=0.0005),
   L(ZI, "Azure", "App Service", "erp", "P2v3", 6, 0.342, cv=0.0),
   L(ZI, "Azure", "Storage", "reporting", "Hot-LRS-GB", 30000, 1.0, kind="storage", grow=0.001, tiers=HOTB)],
  [], acct=ZI, hist=28)

# 12. Datadog custom-metric cardinality explosion: a tagging change in four applications
S("family", [("Custom-Metrics-100", "Instance_Family")], D(2026, 7, 7),
  "a shared instrumentation library adds the pod name as a metric tag on Tuesday 7 July: Datadog "
  "custom metrics (billed per 100 metrics over the allotment) x6 in payments, search, auth and "
  "notify; hosts, APM, logs and the AWS lines flat",
  "Datadog as provider beside AWS; one family in four applications; host counts (same "
  "applications) follow EKS nodes and drift; a small per-line amount that becomes large",
  [L(MDA, "Datadog", "Custom Metrics", "payments", "Custom-Metrics-100", 40, 5.0 * TPH, cv=0.01),
   L(MDA, "Datadog", "Custom Metrics", "search", "Custom-Metrics-100", 25, 5.0 * TPH, cv=0.01),
   L(MDA, "Datadog", "Custom Metrics", "auth", "Custom-Metrics-100", 10, 5.0 * TPH, cv=0.01),
   L(MDA, "Datadog", "Custom Metrics", "notify", "Custom-Metrics-100", 8, 5.0 * TPH, cv=0.01),
   L(MDA, "Datadog", "Infrastructure", "payments", "Infra-Host-Pro", 60, 15.0 * TPH, week="req", cv=0.03, integer=True),
   L(MDA, "Datadog", "APM", "search", "APM-Host", 40, 31.0 * TPH, week="req", cv=0.03, integer=True),
   L(MDA, "Datadog", "Log Management", "auth", "Logs-Ingested-GB", 120, 1.0, week="req", cv=0.06, tiers=DDLOG),
   L(MDA, "AWS", "EKS", "payments", "m7i.2xlarge", 60, 0.4032, week="req", cv=0.03, integer=True),
   L(MDA, "AWS", "EKS", "search", "r7i.2xlarge", 40, 0.5292, week="req", cv=0.03, integer=True),
   static(MDA, "AWS", "RDS", "auth", "db.r7g.large", 2, 0.24)],
  [dict(on=D(2026, 7, 7), sel=fam("Custom-Metrics-100"), count=6.0)],
  acct=MDA, hist=35)

# 13. Oracle Cloud E5 Flex OCPU SKU +20% (the memory SKU of the same shapes flat) in Compute and OKE
S("family", [("VM.Standard.E5.Flex-OCPU", "Instance_Family")], D(2026, 12, 9),
  "the OCI price list raises the VM.Standard.E5.Flex OCPU SKU +20% on Wednesday 9 December (the "
  "shape's memory is billed as its own SKU and does not move) in Compute (portal, batch) and OKE "
  "(api); E4 Flex OCPU, Autonomous Database and Object Storage flat",
  "flexible shapes are billed as two SKUs per instance: only the OCPU one moves; the E4 sibling in "
  "the same application is flat; a single-provider Oracle tenancy with static databases",
  [L(OCI, "Oracle Cloud", "Compute", "portal", "VM.Standard.E5.Flex-OCPU", 64, 0.03, week="req", cv=0.03),
   L(OCI, "Oracle Cloud", "Compute", "portal", "VM.Standard.E5.Flex-Memory-GB", 1024, 0.002, week="req", cv=0.03),
   L(OCI, "Oracle Cloud", "Compute", "batch", "VM.Standard.E5.Flex-OCPU", 128, 0.03, week="office", cv=0.05),
   L(OCI, "Oracle Cloud", "Compute", "batch", "VM.Standard.E5.Flex-Memory-GB", 2048, 0.002, week="office", cv=0.05),
   L(OCI, "Oracle Cloud", "Container Engine for Kubernetes", "api", "VM.Standard.E5.Flex-OCPU", 96, 0.03, cv=0.02),
   L(OCI, "Oracle Cloud", "Container Engine for Kubernetes", "api", "VM.Standard.E5.Flex-Memory-GB", 1536, 0.002, cv=0.02),
   L(OCI, "Oracle Cloud", "Compute", "portal", "VM.Standard.E4.Flex-OCPU", 32, 0.025, cv=0.02),
   static(OCI, "Oracle Cloud", "Autonomous Database", "api", "ADB-ECPU-License-Included", 16, 0.336),
   L(OCI, "Oracle Cloud", "Object Storage", "batch", "Object-Storage-Standard-GB", 300000, 0.0255 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 12, 9), sel=fam("VM.Standard.E5.Flex-OCPU"), price=1.20)],
  acct=OCI, hist=42, dec=5)

# ================================ region =====================================================
# 14. IBM Cloud eu-de: Kubernetes Service +15% in the Frankfurt account (EUR); us-south flat
S("region", [("Kubernetes Service", "Cloud_Service")], D(2026, 2, 18),
  "IBM Cloud eu-de (Frankfurt) Kubernetes Service worker prices +15% on Wednesday 18 February (one "
  "account per region; eu-de billed in EUR): every IKS worker line there (bx2.8x32 in shop and "
  "bx2.16x64 in pricing); VPC virtual servers, Cloud Object Storage, Databases for PostgreSQL there "
  "and IKS in the us-south account (USD) flat",
  "two accounts in one file, the same worker flavours run flat in the other region; two "
  "applications, two families; static databases",
  [L(IDE, "IBM Cloud", "Kubernetes Service", "shop", "bx2.8x32", 30, 0.43, week="req", cv=0.03, integer=True),
   L(IDE, "IBM Cloud", "Kubernetes Service", "pricing", "bx2.16x64", 10, 0.86, cv=0.02, integer=True),
   L(IDE, "IBM Cloud", "VPC Virtual Server", "shop", "bx2-4x16", 8, 0.22, week="office", cv=0.03, integer=True),
   L(IDE, "IBM Cloud", "Cloud Object Storage", "pricing", "Smart-Tier-GB", 150000, 0.0216 * TPH, kind="storage", grow=0.001),
   static(IDE, "IBM Cloud", "Databases for PostgreSQL", "shop", "Member-RAM-GB", 48, 0.0125),
   L(IUS, "IBM Cloud", "Kubernetes Service", "shop", "bx2.8x32", 50, 0.40, week="req", cv=0.03, integer=True),
   L(IUS, "IBM Cloud", "Kubernetes Service", "pricing", "bx2.16x64", 14, 0.80, cv=0.02, integer=True),
   static(IUS, "IBM Cloud", "Databases for PostgreSQL", "shop", "Member-RAM-GB", 96, 0.0116)],
  [dict(on=D(2026, 2, 18), sel=svc("Kubernetes Service", acct=IDE), price=1.15)],
  acct=IDE, hist=35, cur={IDE: "EUR"})

# 15. GCP me-central2 Cloud Run +22% in the Dammam project; us-central1 Cloud Run flat
S("region", [("Cloud Run", "Cloud_Service")], D(2026, 5, 27),
  "me-central2 (Dammam) Cloud Run prices +22% on Wednesday 27 May in the project that holds that "
  "region: vCPU-seconds, GiB-seconds and requests of gov-portal and permits; Cloud SQL, Cloud "
  "Storage, Artifact Registry there and Cloud Run in the us-central1 project flat",
  "a small project (7 lines) beside a larger us-central1 project in the same file running the "
  "same applications and SKUs flat; requests have tiny unit prices; storage lines grow",
  [L(KME, "GCP", "Cloud Run", "gov-portal", "CPU-vCPU-Second-k", 3600, 0.0288 / 1.0, week="req", cv=0.05),
   L(KME, "GCP", "Cloud Run", "gov-portal", "Memory-GiB-Second-k", 7200, 0.0030, week="req", cv=0.05),
   L(KME, "GCP", "Cloud Run", "permits", "CPU-vCPU-Second-k", 1200, 0.0288, week="office", cv=0.06),
   L(KME, "GCP", "Cloud Run", "permits", "Requests-Million", 0.4, 0.48, week="office", cv=0.06),
   static(KME, "GCP", "Cloud SQL", "permits", "db-custom-4-16384", 1, 0.41),
   L(KME, "GCP", "Cloud Storage", "gov-portal", "Standard-Storage-GB", 50000, 0.026 * TPH, kind="storage", grow=0.002),
   L(KME, "GCP", "Artifact Registry", "permits", "Artifact-Storage-GB", 800, 0.10 * TPH, kind="storage", grow=0.003),
   L(KUS, "GCP", "Cloud Run", "gov-portal", "CPU-vCPU-Second-k", 6000, 0.024, week="req", cv=0.05),
   L(KUS, "GCP", "Cloud Run", "permits", "Requests-Million", 0.9, 0.40, week="office", cv=0.06)],
  [dict(on=D(2026, 5, 27), sel=svc("Cloud Run", acct=KME), price=1.22)],
  acct=KME, hist=28, dec=5)

# 16. af-south-1 ElastiCache +25% in the Cape Town account; us-west-2 flat
S("region", [("ElastiCache", "Cloud_Service")], D(2026, 8, 26),
  "af-south-1 (Cape Town) ElastiCache prices +25% on Wednesday 26 August (one account per region): "
  "node hours of cache.r7g.xlarge (wallet) and cache.m7g.large (airtime), plus ElastiCache "
  "Serverless ECPUs of wallet; EC2, DynamoDB there and ElastiCache in the us-west-2 account flat",
  "static node counts (flat cost until the day) beside a serverless ECPU line that follows "
  "traffic; three families in two applications; the same families flat in the other region",
  [static(WSP, "AWS", "ElastiCache", "wallet", "cache.r7g.xlarge", 6, 0.566),
   static(WSP, "AWS", "ElastiCache", "airtime", "cache.m7g.large", 4, 0.204),
   L(WSP, "AWS", "ElastiCache", "wallet", "Serverless-ECPU-Million", 800, 0.0041, week="req", cv=0.05),
   L(WSP, "AWS", "EC2", "wallet", "m7g.xlarge", 24, 0.2144, week="req", cv=0.03, integer=True),
   L(WSP, "AWS", "DynamoDB", "airtime", "WriteRequestUnits-Million", 1.2, 1.6, week="req", cv=0.05),
   static(WUS, "AWS", "ElastiCache", "wallet", "cache.r7g.xlarge", 4, 0.437),
   L(WUS, "AWS", "EC2", "wallet", "m7g.xlarge", 40, 0.1632, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 8, 26), sel=svc("ElastiCache", acct=WSP), price=1.25)],
  acct=WSP, hist=35)

# ================================ application ================================================
# 17. dr-ledger: Aurora global database secondary added (inter-region replication)
S("application", [("dr-ledger", "Application")], D(2026, 1, 14),
  "dr-ledger adds an Aurora Global Database secondary on Wednesday 14 January: replicated write "
  "I/O x2, two more db.r7g.2xlarge instances (2 -> 4), inter-region transfer of the replication "
  "stream (DataTransfer-InterRegion-GB) x6 and S3 backup storage copies step up 40%; ledger's "
  "Aurora, EC2 and the rest flat",
  "inter-region replication spread over three services and four families of one application; "
  "ledger's lines of the same families flat; a storage line that steps up and keeps growing",
  [static(W1, "AWS", "RDS", "dr-ledger", "db.r7g.2xlarge", 2, 1.107),
   L(W1, "AWS", "RDS", "dr-ledger", "Aurora-Replicated-Write-IO-Million", 0.4, 0.20, cv=0.05),
   L(W1, "AWS", "Data Transfer", "dr-ledger", "DataTransfer-InterRegion-GB", 20, 0.02, cv=0.06),
   L(W1, "AWS", "S3", "dr-ledger", "Standard-Storage-GB", 120000, 0.023 * TPH, kind="storage", grow=0.001),
   static(W1, "AWS", "RDS", "ledger", "db.r7g.2xlarge", 4, 1.107),
   L(W1, "AWS", "RDS", "ledger", "Aurora-IO-Requests-Million", 3.0, 0.20, week="req", cv=0.05),
   L(W1, "AWS", "Data Transfer", "ledger", "DataTransfer-InterRegion-GB", 15, 0.02, cv=0.06),
   L(W1, "AWS", "EC2", "ledger", "m7i.2xlarge", 20, 0.4032, week="req", cv=0.03, integer=True),
   fee(W1, "AWS", "Billing Corrections", "ledger", "Usage-Correction-Credit", -85.0, ondays={D(2026, 1, 5)})],
  [dict(on=D(2026, 1, 14), sel=app("dr-ledger", f="db.r7g.2xlarge"), count=2.0),
   dict(on=D(2026, 1, 14), sel=app("dr-ledger", f="Aurora-Replicated-Write-IO-Million"), count=2.0),
   dict(on=D(2026, 1, 14), sel=app("dr-ledger", f="DataTransfer-InterRegion-GB"), count=6.0),
   dict(on=D(2026, 1, 14), sel=app("dr-ledger", f="Standard-Storage-GB"), count=1.4)],
  acct=W1, hist=28)

# 18. checkout (Datadog + AWS): a debug-level release: Datadog logs x5, APM spans, EKS nodes x1.3
S("application", [("checkout", "Application")], D(2026, 4, 8),
  "checkout ships a release at debug log level with full trace sampling on Wednesday 8 April: "
  "Datadog Logs-Ingested-GB x5 and Indexed-Spans x4 (Datadog), EKS nodes x1.3 and CloudWatch log "
  "ingestion x3 (AWS); payments' and search's lines (same families, both providers) flat",
  "one application under two providers (Datadog and AWS) and four services: no provider or service "
  "holds the change; the log line has a free allowance; the same families run flat elsewhere",
  [L(MDA, "Datadog", "Log Management", "checkout", "Logs-Ingested-GB", 200, 1.0, week="req", cv=0.05, tiers=DDLOG),
   L(MDA, "Datadog", "APM", "checkout", "Indexed-Spans-Million", 20, 0.0708, week="req", cv=0.05),
   L(MDA, "Datadog", "APM", "checkout", "APM-Host", 30, 31.0 * TPH, week="req", cv=0.03, integer=True, keep=True),
   L(MDA, "AWS", "EKS", "checkout", "m7i.2xlarge", 30, 0.4032, week="req", cv=0.03, integer=True),
   L(MDA, "AWS", "CloudWatch", "checkout", "Logs-Ingested-GB", 10, 0.50, week="req", cv=0.05),
   L(MDA, "Datadog", "Log Management", "payments", "Logs-Ingested-GB", 150, 1.0, week="req", cv=0.05, tiers=DDLOG),
   L(MDA, "Datadog", "APM", "search", "Indexed-Spans-Million", 12, 0.0708, week="req", cv=0.05),
   L(MDA, "AWS", "EKS", "payments", "m7i.2xlarge", 60, 0.4032, week="req", cv=0.03, integer=True),
   L(MDA, "AWS", "CloudWatch", "search", "Logs-Ingested-GB", 8, 0.50, week="req", cv=0.05),
   static(MDA, "AWS", "RDS", "payments", "db.r7g.large", 2, 0.24)],
  [dict(on=D(2026, 4, 8), sel=app("checkout", f="Logs-Ingested-GB"), count=5.0),
   dict(on=D(2026, 4, 8), sel=app("checkout", f="Indexed-Spans-Million"), count=4.0),
   dict(on=D(2026, 4, 8), sel=app("checkout", f="m7i.2xlarge"), count=1.3)],
  acct=MDA, hist=28)

# 19. ebs-r12 on Oracle Cloud: BYOL -> license-included database and a larger app tier
S("application", [("ebs-r12", "Application")], D(2026, 7, 22),
  "ebs-r12 (E-Business Suite) moves its database from BYOL to license-included after a licence "
  "audit on Wednesday 22 July: its Base Database OCPU line's unit price x6.9 (same OCPU count) and "
  "its app tier E5 Flex OCPU 16 -> 24 with memory 256 -> 384 GB; hcm's BYOL database and compute, "
  "Object Storage and FastConnect flat",
  "a unit price that jumps at the same count (licence model, not usage); the BYOL family still runs "
  "flat in another application; three families in two services of one application",
  [static(OCI, "Oracle Cloud", "Base Database", "ebs-r12", "DB-EE-OCPU", 8, 0.1935),
   static(OCI, "Oracle Cloud", "Compute", "ebs-r12", "VM.Standard.E5.Flex-OCPU", 16, 0.03),
   static(OCI, "Oracle Cloud", "Compute", "ebs-r12", "VM.Standard.E5.Flex-Memory-GB", 256, 0.002),
   static(OCI, "Oracle Cloud", "Base Database", "hcm", "DB-EE-OCPU", 12, 0.1935),
   L(OCI, "Oracle Cloud", "Compute", "hcm", "VM.Standard.E5.Flex-OCPU", 24, 0.03, week="office", cv=0.03),
   L(OCI, "Oracle Cloud", "Object Storage", "hcm", "Object-Storage-Standard-GB", 90000, 0.0255 * TPH, kind="storage", grow=0.001),
   static(OCI, "Oracle Cloud", "FastConnect", "shared", "FastConnect-1Gbps-Port", 1, 0.2125)],
  [dict(on=D(2026, 7, 22), sel=app("ebs-r12", f="DB-EE-OCPU"), price=1.3441 / 0.1935),
   dict(on=D(2026, 7, 22), sel=lambda l: l["app"] == "ebs-r12" and l["svc"] == "Compute", count=1.5)],
  acct=OCI, hist=42, dec=5)

# 20. search-ranker on GCP: a re-index: GKE pool x2, Storage class-B ops x3, Cloud NAT processing x2
S("application", [("search-ranker", "Application")], D(2026, 10, 28),
  "search-ranker runs a full re-index on Wednesday 28 October: its GKE pool c3-standard-22 x2, "
  "Cloud Storage class-B operations x3 and its Cloud NAT data processing x2 (model downloads); "
  "ads' and web's lines of the same families flat",
  "three services, three families in one application of a large project (a 1,500-node request-"
  "driven GKE fleet elsewhere); the same families run flat in other applications",
  [L(KB, "GCP", "GKE", "search-ranker", "c3-standard-22", 20, 1.0, cv=0.03, integer=True),
   L(KB, "GCP", "Cloud Storage", "search-ranker", "Class-B-Operations-10k", 300, 0.004, cv=0.05),
   L(KB, "GCP", "Cloud NAT", "search-ranker", "NAT-Data-Processing-GB", 200, 0.045, cv=0.06),
   L(KB, "GCP", "GKE", "web", "n2d-standard-4", 1500, 0.1687, week="req", cv=0.02, integer=True),
   L(KB, "GCP", "GKE", "ads", "c3-standard-22", 12, 1.0, cv=0.03, integer=True),
   L(KB, "GCP", "Cloud Storage", "web", "Class-B-Operations-10k", 2000, 0.004, week="req", cv=0.05),
   L(KB, "GCP", "Cloud NAT", "ads", "NAT-Data-Processing-GB", 400, 0.045, cv=0.06),
   static(KB, "GCP", "Cloud SQL", "ads", "db-custom-16-65536", 2, 1.34)],
  [dict(on=D(2026, 10, 28), sel=app("search-ranker", f="c3-standard-22"), count=2.0),
   dict(on=D(2026, 10, 28), sel=app("search-ranker", f="Class-B-Operations-10k"), count=3.0),
   dict(on=D(2026, 10, 28), sel=app("search-ranker", f="NAT-Data-Processing-GB"), count=2.0)],
  acct=KB, hist=42)

# ================================ resource ===================================================
# 21. one Exadata VM cluster scaled 8 -> 32 OCPUs; the Exadata infrastructure fee flat
S("resource", [("ExaDB-D-OCPU", "Instance_Family")], D(2026, 3, 10),
  "fin-close's Exadata VM cluster is scaled 8 -> 32 OCPUs for a rehearsal and not scaled back: its "
  "ExaDB-D-OCPU line x4 on Tuesday 10 March; the Exadata quarter-rack infrastructure (a static "
  "hourly line), the other databases and compute flat",
  "a static line that steps x4; the infrastructure line of the same Exadata (same application and "
  "service) does not move; a negative billing correction on 2 March in the history",
  [static(OCI, "Oracle Cloud", "Exadata Database Service", "fin-close", "ExaDB-D-OCPU", 8, 1.3441),
   static(OCI, "Oracle Cloud", "Exadata Database Service", "fin-close", "Exadata-X9M-Quarter-Rack", 1, 14.5161),
   static(OCI, "Oracle Cloud", "Base Database", "treasury", "DB-EE-OCPU", 8, 0.1935),
   L(OCI, "Oracle Cloud", "Compute", "fin-close", "VM.Standard.E5.Flex-OCPU", 48, 0.03, week="office", cv=0.04),
   L(OCI, "Oracle Cloud", "Object Storage", "treasury", "Object-Storage-Standard-GB", 60000, 0.0255 * TPH, kind="storage", grow=0.001),
   fee(OCI, "Oracle Cloud", "Billing Corrections", "shared", "Usage-Correction-Credit", -210.0, ondays={D(2026, 3, 2)})],
  [dict(on=D(2026, 3, 10), sel=fam("ExaDB-D-OCPU"), count=4.0)],
  acct=OCI, hist=35)

# 22. one Datadog synthetics suite runs every minute instead of every 15 minutes
S("resource", [("Synthetics-Browser-1k", "Instance_Family")], D(2026, 6, 24),
  "storefront's Datadog browser-test suite is switched to a 1-minute frequency in 12 locations on "
  "Wednesday 24 June: its Synthetics-Browser-1k line x15; the API-test line of the same suite, "
  "every other Datadog and GCP line flat",
  "a static line (exactly flat cost until the day) steps x15 in a Datadog + GCP account; its sibling "
  "API-test SKU in the same application does not move",
  [static(MDD, "Datadog", "Synthetics", "storefront", "Synthetics-Browser-1k", 1.2, 12.0 / 24),
   static(MDD, "Datadog", "Synthetics", "storefront", "Synthetics-API-10k", 9, 5.0 / 24),
   L(MDD, "Datadog", "Infrastructure", "storefront", "Infra-Host-Pro", 90, 15.0 * TPH, week="req", cv=0.03, integer=True),
   L(MDD, "Datadog", "Log Management", "storefront", "Logs-Ingested-GB", 300, 1.0, week="req", cv=0.06, tiers=DDLOG),
   L(MDD, "GCP", "GKE", "storefront", "n2-standard-8", 90, 0.3885, week="req", cv=0.03, integer=True),
   L(MDD, "GCP", "Cloud CDN", "storefront", "Cache-Egress-GB", 800, 0.08, week="req", cv=0.05)],
  [dict(on=D(2026, 6, 24), sel=fam("Synthetics-Browser-1k"), count=15.0)],
  acct=MDD, hist=28)

# 23. a Databricks serverless SQL warehouse without auto-stop on a Saturday
S("resource", [("SQL-Serverless-DBU", "Instance_Family")], D(2026, 9, 26),
  "the finance-bi serverless SQL warehouse has its auto-stop removed on Friday evening: on "
  "Saturday 26 September it runs 24 h at full size (x7.5 its office-hours Saturday level); the "
  "other warehouses, jobs and the AWS lines flat",
  "a Saturday in an office-hours estate (x0.4) where one line rises while the rest falls; the "
  "family also runs as `SQL-Pro-DBU` (another SKU) elsewhere; Databricks beside AWS",
  [L(MDB, "Databricks", "SQL", "finance-bi", "SQL-Serverless-DBU", 20, 0.70, week="office", cv=0.05),
   L(MDB, "Databricks", "SQL", "marketing-bi", "SQL-Pro-DBU", 16, 0.55, week="office", cv=0.05),
   L(MDB, "Databricks", "Jobs Compute", "etl-nightly", "Jobs-Compute-DBU", 300, 0.15, cv=0.05),
   L(MDB, "AWS", "EC2", "etl-nightly", "i4i.2xlarge", 50, 0.686, cv=0.05),
   L(MDB, "AWS", "EC2", "marketing-bi", "m6i.2xlarge", 8, 0.384, week="office", cv=0.04),
   L(MDB, "AWS", "S3", "lakehouse", "Standard-Storage-GB", 900000, 0.021 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 9, 26), sel=fam("SQL-Serverless-DBU"), count=7.5)],
  acct=MDB, hist=28)

# 24. an archived-snapshot bulk restore in one application of a large fleet
S("resource", [("EBS-Snapshot-Archive-Restore-GB", "Instance_Family")], D(2026, 12, 2),
  "a bulk restore of archived EBS snapshots is started for a compliance request in the records "
  "application on Wednesday 2 December: its EBS-Snapshot-Archive-Restore-GB line x20 (from a small "
  "daily trickle); records' snapshot storage, the 2,400-instance request-driven fleet, S3 flat",
  "a tiny line among a large fleet becomes about 6% of the day; the snapshot archive tier lines of "
  "the same application are flat; the 1 December support fee sits the day before",
  [L(W3, "AWS", "EC2", "records", "EBS-Snapshot-Archive-Restore-GB", 90, 0.03, cv=0.10),
   L(W3, "AWS", "EC2", "records", "EBS-Snapshot-Archive-GB", 4000000, 0.0125 * TPH, kind="storage", grow=0.001),
   L(W3, "AWS", "EC2", "records", "EBS-Snapshot-GB", 900000, 0.05 * TPH, kind="storage", grow=0.001),
   L(W3, "AWS", "EC2", "web", "c7g.xlarge", 2400, 0.145, week="req", cv=0.02, integer=True),
   L(W3, "AWS", "EKS", "api", "m7g.2xlarge", 300, 0.3264, week="req", cv=0.02, integer=True),
   L(W3, "AWS", "S3", "records", "Glacier-Deep-Archive-GB", 20000000, 0.00099 * TPH, kind="storage", grow=0.0005),
   fee(W3, "AWS", "AWS Support", "shared", "Enterprise-Support", 4200.0, only1=True)],
  [dict(on=D(2026, 12, 2), sel=fam("EBS-Snapshot-Archive-Restore-GB"), count=20.0)],
  acct=W3, hist=63)

# ================================ no anomaly ================================================
# 25. the first Monday after the Christmas / New Year dip; Monday batch; partial days at both edges
S("none", [], D(2027, 1, 4),
  "no cause: Monday 4 January 2027, the first working day after the holiday dip (office and "
  "request lines x0.35-0.6 from 24 December to 1 January); the Monday batch (x1.75); the year-end "
  "close on 31 December (x4, a habit seen on 31 December 2025 in the 400-day bill); first day of "
  "data partial (40%), the day after partial (20%)",
  "the day is far above the previous Monday (28 December, holiday week) and level with the Mondays "
  "before Christmas; the year end is only visible a year back; two partial edges",
  [L(W2, "AWS", "EC2", "web", "m7i.large", 200, 0.1008, week="req", cv=0.03, integer=True, hol=XMAS),
   L(W2, "AWS", "EC2", "backoffice", "m7i.xlarge", 30, 0.2016, week="office", cv=0.03, integer=True, hol=XMAS),
   L(W2, "AWS", "EMR", "reports", "r7i.2xlarge", 20, 0.5292, week="mon", cv=0.04, hol=XMAS),
   L(W2, "AWS", "Glue", "close", "DPU-Hour", 30, 0.44, mend=2.0, yend=4.0, cv=0.06),
   static(W2, "AWS", "RDS", "close", "db.r7i.2xlarge", 1, 1.008),
   L(W2, "AWS", "S3", "web", "Standard-Storage-GB", 400000, 0.023 * TPH, kind="storage", grow=0.0008)],
  [], acct=W2, hist=400, pfirst=0.4, plast=0.2)

# 26. planned migration: a workload moves from Compute Engine VMs to GKE, total flat
S("none", [], D(2026, 6, 16),
  "no cause: a planned migration moves the catalog workload from Compute Engine (16 x "
  "n2-standard-8 VMs) to GKE Autopilot (pods billed per vCPU and GB) on Tuesday 16 June: the "
  "Compute Engine line stops and the GKE lines start at the same cost; the total is flat",
  "two services change on the day in opposite directions; a tool that reports 'the lines that "
  "changed' names GKE or Compute Engine; the account's total is level with the previous Tuesdays",
  [static(KA, "GCP", "Compute Engine", "catalog", "n2-standard-8", 16, 0.3885, key="old"),
   static(KA, "GCP", "GKE", "catalog", "Autopilot-vCPU", 128, 0.3885 * 16 * 0.8 / 128, cause=True, start=D(2026, 6, 16)),
   static(KA, "GCP", "GKE", "catalog", "Autopilot-Memory-GB", 512, 0.3885 * 16 * 0.2 / 512, cause=True, start=D(2026, 6, 16)),
   L(KA, "GCP", "GKE", "ads", "n2d-standard-8", 40, 0.3375, week="req", cv=0.03, integer=True),
   L(KA, "GCP", "BigQuery", "ads", "Analysis-TiB", 1.5, 6.25, week="office", cv=0.08),
   L(KA, "GCP", "Cloud Storage", "catalog", "Standard-Storage-GB", 200000, 0.020 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 6, 16), sel=lambda l: l.get("key") == "old", stop=True)],
  acct=KA, hist=35, neutral=True)

# 27. an INR subscription at a stable rate: monthly licence fee on the 1st, Sunday batch, a correction
S("none", [], D(2026, 12, 1),
  "no cause: Tuesday 1 December in an INR-billed subscription (the rate is stable over the bill); a "
  "monthly licence fee billed on every 1st (1 Sep, 1 Oct, 1 Nov in the data); Diwali week (8-10 "
  "November) lower; a negative correction line on 20 November reverses an earlier overcharge",
  "the day is far above every earlier Tuesday (the monthly fee) and only matches earlier 1sts on "
  "other weekdays; a correction dip and a holiday dip in the same month's history",
  [L(ZN, "Azure", "Virtual Machines", "upi-gateway", "D8as_v5", 40, 29.0, week="req", cv=0.03, integer=True, hol=DIWALI),
   L(ZN, "Azure", "AKS", "kyc", "E8as_v5", 20, 38.0, week="office", cv=0.03, integer=True, hol=DIWALI),
   static(ZN, "Azure", "Azure SQL Database", "upi-gateway", "BC_Gen5_8", 2, 260.0),
   L(ZN, "Azure", "Storage", "kyc", "Hot-LRS-GB", 80000, 1.55 * TPH, kind="storage", grow=0.001),
   fee(ZN, "Azure", "Marketplace", "kyc", "Document-AI-Licence-Monthly", 180000.0, only1=True),
   fee(ZN, "Azure", "Billing Corrections", "upi-gateway", "Overcharge-Reversal", -24000.0, ondays={D(2026, 11, 20)})],
  [], acct=ZN, hist=100, cur={ZN: "INR"}, dec=3)

# 28. year end on a Thursday with a year-end batch and month-end habits; a holiday week before
S("none", [], D(2026, 12, 31),
  "no cause: Thursday 31 December; the close batch runs x2 on every month end and x4.5 on 31 December "
  "(31 December 2025, a Wednesday, is in the 380-day bill); the Christmas dip (x0.35-0.6) on "
  "the office and request lines around it; the day after is partial (25%)",
  "the day is far above the Christmas-week days and the previous Thursdays; the only matching "
  "day is a year back; the holiday dip also lowers the day's own request lines",
  [L(W1, "AWS", "EC2", "close", "r7i.4xlarge", 12, 1.0584, mend=2.0, yend=4.5, cv=0.03),
   L(W1, "AWS", "Glue", "close", "DPU-Hour", 50, 0.44, mend=2.0, yend=4.5, cv=0.06),
   L(W1, "AWS", "EC2", "storefront", "m7g.large", 120, 0.0816, week="req", cv=0.03, integer=True, hol=XMAS),
   L(W1, "AWS", "WorkSpaces", "backoffice", "Standard-Hourly", 80, 0.30, week="off", cv=0.02, hol=XMAS),
   static(W1, "AWS", "RDS", "close", "db.r7i.2xlarge", 1, 1.008),
   L(W1, "AWS", "S3", "close", "Standard-Storage-GB", 250000, 0.023 * TPH, kind="storage", grow=0.001)],
  [], acct=W1, hist=380, plast=0.25)

LEVELS = ["CSP", "Cloud_Service", "Application", "Instance_Family"]


def _exempt(ln):
    """contract / market lines that a list-price change leaves alone by design"""
    return ln["kind"] == "fee" or ln["fixedprice"] or ln["drift"] or ln["keep"]


def changed_lines(sc):
    """indices of the anomaly account's lines whose cost on the anomaly day differs from the
    same scenario built without its events (or without the lines that are the cause)."""
    day = sc["date"].isoformat()
    def per_line(rows):
        return {r[9]: r[8] for r in rows if r[0] == day and r[1] == sc["acct"]}
    w, wo = per_line(build(sc, True)), per_line(build(sc, False))
    out = set()
    for i in set(w) | set(wo):
        a, b = w.get(i, 0.0), wo.get(i, 0.0)
        if abs(a - b) > 1e-6 * max(1.0, abs(b)):
            out.add(i)
    return out


def day_costs(sc, ev):
    day = sc["date"].isoformat()
    return {r[9]: r[8] for r in build(sc, ev) if r[0] == day and r[1] == sc["acct"]}


def later_changes(sc):
    """lines that change on any day before the anomaly day (there must be none)."""
    before = lambda rows: {(r[0], r[9]): r[8] for r in rows if r[0] < sc["date"].isoformat()}
    a, b = before(build(sc, True)), before(build(sc, False))
    return [k for k in set(a) | set(b) if abs(a.get(k, 0) - b.get(k, 0)) > 1e-9]


def selfcheck(sc):
    """assert the label matches the material: the changed lines of the anomaly account are
    exactly what the truth node holds (less contract lines), and no smaller node holds them."""
    lines = sc["lines"]
    ch = changed_lines(sc)
    assert not later_changes(sc), "a change before the anomaly day"
    acct_lines = [i for i, l in enumerate(lines) if l["acct"] == sc["acct"]]
    day = sc["date"]
    live = [i for i in acct_lines if not (lines[i]["start"] and lines[i]["start"] > day)
            and not (lines[i]["only1"] and day.day != 1)]
    if not sc["truth"]:
        if sc.get("neutral"):  # a planned migration: lines move between services, the total stays flat
            w, wo = day_costs(sc, True), day_costs(sc, False)
            assert ch, "a neutral bill without its migration"
            assert abs(sum(w.values()) - sum(wo.values())) <= 0.002 * sum(wo.values()), "migration not cost-neutral"
            assert len({lines[i]["svc"] for i in ch}) == 2, "the migration moves cost between two services"
        elif sc.get("cut"):  # a price cut on the day: lines may change, but only downwards
            w, wo = day_costs(sc, True), day_costs(sc, False)
            assert ch and all(w[i] < wo[i] for i in ch), "a no-anomaly change that is not a cut"
        else:
            assert not ch, ("no-anomaly scenario with changed lines", [lines[i]["fam"] for i in ch])
        return
    assert len(sc["truth"]) == 1
    name, typ = sc["truth"][0]
    key = {"CSP": "csp", "Cloud_Service": "svc", "Application": "app", "Instance_Family": "fam"}[typ]
    node = [i for i in live if lines[i][key] == name]
    assert ch, "nothing changed"
    assert ch <= set(node), ("a changed line outside the truth node",
                             [(lines[i]["app"], lines[i]["fam"]) for i in ch - set(node)])
    # (a resource-level cause names the family of its one line; the family may run flat elsewhere)
    missing = [i for i in node if i not in ch and not _exempt(lines[i]) and sc["cat"] != "resource"]
    assert not missing, ("a line of the truth node did not change", [(lines[i]["app"], lines[i]["fam"]) for i in missing])
    for i in node:  # exempt lines were declared as such and really did not move
        if _exempt(lines[i]) and lines[i]["kind"] != "fee":
            assert i not in ch or not lines[i]["keep"], "a kept line moved"
    # no smaller node: the changed lines span more than one child of the truth node
    lower = LEVELS[LEVELS.index(typ) + 1:] if typ != "Instance_Family" else []
    if lower:
        k2 = {"Cloud_Service": "svc", "Application": "app", "Instance_Family": "fam"}[lower[0]]
        kids = {lines[i][k2] for i in ch}
        if typ == "Cloud_Service":  # a service whose changes sit in one app or one family would be smaller
            assert len({lines[i]["app"] for i in ch}) > 1 and len({lines[i]["fam"] for i in ch}) > 1
        elif typ == "Application":
            assert len({lines[i]["svc"] for i in ch}) > 1 and len({lines[i]["fam"] for i in ch}) > 1
        else:
            assert len(kids) > 1
    # the truth is the smallest node: its parent in the account holds unchanged non-exempt lines,
    # unless it is the CSP (the account's top)
    if typ == "Instance_Family":
        if sc["cat"] == "family":
            assert len({lines[i]["app"] for i in ch}) > 1, "family-wide needs several applications"
        else:
            assert len(ch) == 1, "resource-level: one line"
    else:
        up = {"Cloud_Service": "csp", "Application": "csp", "CSP": None}[typ]
        if up:
            sib = [i for i in live if i not in ch and not _exempt(lines[i])]
            assert sib, "nothing in the account stayed flat: the truth should be larger"


def rel_hint(sc, rows):
    """anomaly account total vs the median of the same weekday over the 4 previous weeks."""
    tot = {}
    for r in rows:
        if r[1] == sc["acct"]:
            tot[r[0]] = tot.get(r[0], 0.0) + r[8]
    a = sc["date"]
    prev = [tot.get((a - dt.timedelta(days=7 * k)).isoformat()) for k in range(1, 5)]
    prev = [p for p in prev if p is not None]
    med = statistics.median(prev)
    return tot[a.isoformat()] / med - 1.0


def main(out):
    os.makedirs(out, exist_ok=True)
    cases = []
    for i, sc in enumerate(SC, 1):
        selfcheck(sc)
        d = os.path.join(out, "Scenario-%d" % i)
        os.makedirs(d, exist_ok=True)
        rows = build(sc)
        extra = bool(sc["cur"])
        with open(os.path.join(d, "data.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(HDR + (["BillingCurrency"] if extra else []))
            for r in rows:
                out_r = r[:8] + ["%.4f" % r[8]]
                if extra:
                    out_r.append(sc["cur"].get(r[1], "USD"))
                w.writerow(out_r)
        with open(os.path.join(d, "anomaly.json"), "w") as f:
            json.dump({"date": sc["date"].isoformat(), "account_id": sc["acct"]}, f)
            f.write("\n")
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            if not sc["truth"]:
                f.write("resource: []\n")
            else:
                f.write("resource:\n")
                for n, t in sc["truth"]:
                    f.write("- name: %s\n  type: %s\n" % (n, t))
        ch = changed_lines(sc)
        cases.append(dict(scenario="Scenario-%d" % i, category=sc["cat"], account=sc["acct"],
                          date=sc["date"].isoformat(), weekday=sc["date"].strftime("%a"),
                          truth=[{"name": n, "type": t} for n, t in sc["truth"]],
                          cause=sc["cause"], hard=sc["hard"],
                          changed_lines=sorted("%s/%s/%s" % (sc["lines"][j]["svc"], sc["lines"][j]["app"], sc["lines"][j]["fam"]) for j in ch),
                          providers_in_account=sorted({l["csp"] for l in sc["lines"] if l["acct"] == sc["acct"]}),
                          rel=round(rel_hint(sc, rows), 4)))
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")
    verify(out, cases)
    print("wrote %d scenarios to %s; self-check passed" % (len(cases), out))


def verify(out, cases):
    """re-read what was written: the files parse, the account and day exist, truth names exist in
    the anomaly account's rows with that type, and no-anomaly files have an empty truth."""
    col = {"CSP": 2, "Cloud_Service": 3, "Application": 4, "Instance_Family": 5}
    for c in cases:
        d = os.path.join(out, c["scenario"])
        an = json.load(open(os.path.join(d, "anomaly.json")))
        with open(os.path.join(d, "data.csv")) as f:
            rows = list(csv.reader(f))
        assert rows[0][:9] == HDR
        body = rows[1:]
        assert any(r[0] == an["date"] and r[1] == an["account_id"] for r in body)
        for r in body:
            float(r[6]); float(r[7]); float(r[8])
        gt = open(os.path.join(d, "ground_truth.yaml")).read()
        for t in c["truth"]:
            assert ("- name: %s\n  type: %s\n" % (t["name"], t["type"])) in gt
            assert any(r[1] == an["account_id"] and r[0] == an["date"] and r[col[t["type"]]] == t["name"] for r in body)
        if not c["truth"]:
            assert gt == "resource: []\n"
    cats = {}
    for c in cases:
        cats[c["category"]] = cats.get(c["category"], 0) + 1
    assert cats == {"provider": 4, "service": 5, "family": 4, "region": 3, "application": 4,
                    "resource": 4, "none": 4}, cats
    # at least two provider-wide bills in accounts holding several providers
    multi = [c for c in cases if c["category"] == "provider" and len(c["providers_in_account"]) > 1]
    assert len(multi) >= 2, multi


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
