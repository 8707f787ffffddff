#!/usr/bin/env python3
"""finops-set7: held-out ITBench-Lite FinOps cost-anomaly scenarios (blind-fin7).

python3 gen.py OUTDIR   -> OUTDIR/Scenario-<N>/{anomaly.json,data.csv,ground_truth.yaml}
                           and OUTDIR/cases.json (labels; never show it, or ground_truth.yaml, to agents).
Stdlib only, deterministic (random.Random seeded per scenario/line/day; no hash()).
The line model (weekly/monthly habits, tiers, commitments, exporter rounding) is adapted from
measurement/finops-set6/gen.py; new here: credits proportional to a usage line (GCP sustained-use
credits), tiered *usage* prices (egress, CDN, custom metrics), a BillingCurrency column (FOCUS name)
with several currencies in one file, amortized commitments, lines that start on a date.
After writing, a self-check rebuilds every scenario without its events and asserts that the lines
that differ on the anomaly day are exactly what the label says (see selfcheck()).
"""
import csv, datetime as dt, json, math, os, random, statistics, sys

D = dt.date
HDR = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
       "Price ($/hr)", "Num_Instances", "unblended_cost"]
TPH = 1 / 730.0  # $/unit-month -> $/unit-hour


def L(acct, csp, svc, app, fam, n, p, **kw):
    """One billed line. n: mean hourly quantity; p: list unit price per hour (in the account's
    billing currency). kw: kind ('fleet','static','fee','storage','credit'), week ('flat','office',
    'req','sun','mon','off'), month1 (x on the 1st), mend (x on a month's last day), cv (noise),
    integer, com=(units, contract price) (savings plan / reservation coverage), grow (per day),
    tiers [(hourly units, price)...] (tiered price of the line's volume), start (first date),
    amt (fee), fixedprice (contract price: never follows list changes), drift (spot price noise),
    ref/frac (credit = -frac x the cost of line `ref` that day), keep (a contract line inside the
    truth node that is expected not to move)."""
    d = dict(acct=acct, csp=csp, svc=svc, app=app, fam=fam, n=n, p=p, kind="fleet",
             week="flat", cv=0.04, integer=False, com=None, grow=0.0, tiers=None,
             start=None, amt=None, month1=1.0, mend=1.0, fixedprice=False, drift=0.0,
             ref=None, frac=0.0, keep=False, only1=False, cause=False)
    d.update(kw)
    return d


def fee(acct, csp, svc, app, fam, amt, **kw):
    return L(acct, csp, svc, app, fam, 1, amt / 24.0, kind="fee", amt=amt, cv=0.0, **kw)


def static(acct, csp, svc, app, fam, n, p, **kw):
    return L(acct, csp, svc, app, fam, n, p, kind="static", cv=0.0, **kw)


def credit(acct, csp, svc, app, fam, ref, frac):
    return L(acct, csp, svc, app, fam, 1, 0.0, kind="credit", ref=ref, frac=frac, cv=0.0)


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


def tier_price(q, tiers, mult):
    """blended unit price of a quantity q under volume tiers [(size or None, price)]."""
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
            if ln["cause"] and not with_events:  # a line that appears as the cause
                continue
            pm, cm = 1.0, 1.0
            for ev in events:
                if day >= ev["on"] and ev["sel"](ln):
                    pm *= ev.get("price", 1.0)
                    cm *= ev.get("count", 1.0)
            lr = random.Random(sc["seed"] * 1000003 + i * 7919 + day.toordinal())
            if ln["kind"] == "fee":
                if ln["only1"] and day.day != 1:
                    continue
                cnt, cost = 1.0, ln["amt"]
            elif ln["kind"] == "credit":
                j = keys[ln["ref"]]
                if j not in today:
                    continue
                rc, rcost = today[j]
                cnt, cost = rc, -ln["frac"] * rcost
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
                        cnt = base + (round(part * 24) / 24.0 if lr.random() < 0.35 else (1.0 if part > 0.7 else 0.0))
                cnt = max(cnt, 0.0) * frac
                if cnt <= 0:
                    continue
                p = ln["p"] * (1.0 if ln["fixedprice"] else pm)
                if ln["drift"]:  # spot / market price: moves every day, never with the list
                    p *= 1 + lr.gauss(0, ln["drift"])
                if ln["tiers"]:
                    unit = tier_price(cnt / frac, ln["tiers"], 1.0 if ln["fixedprice"] else pm)
                    cost = 24 * cnt * unit
                elif ln["com"]:
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


# ---------------------------------------------------------------------------------------------
# selectors (fees and credits are never selected: a contract amount does not follow a list price,
# a credit follows its usage line by itself)
def _use(l):
    return l["kind"] not in ("fee", "credit")


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
              seed=7000 + len(SC) * 37, cur={})
    sc.update(kw)
    SC.append(sc)


# accounts (none used by earlier sets)
A1, A2, A3, A4 = "381927465012", "381927465029", "381927465036", "381927465043"
CA, UE = "602714583391", "602714583308"          # ca-central-1 and us-east-1 accounts of one org
ALI = "ali-1873024455"                            # Alibaba Cloud account billed in CNY
G1, G2, G3, G4 = "orbit-prod-2291", "orbit-corp-2291", "orbit-ml-2291", "orbit-data-2291"
GIN = "orbit-asia-2291"                           # asia-south1 project billed in INR
UKB, USB = "3c9e51d0-mca-uk", "3c9e51d0-mca-us"   # Azure billing profiles in GBP and USD
EUD = "7e02b6aa-ea-data"                          # Azure EA enrollment billed in EUR
UKS, UKW = "sub-uks-a83e", "sub-ukw-a83e"         # Azure subscriptions per UK region (GBP)
CC = "cc-4410-shared"                             # a cost-centre account holding Azure and AWS lines

# AWS internet egress tiers (per GB, monthly 10 TB / 40 TB / 100 TB) in hourly GB
EGRESS = [(10240 * TPH, 0.09), (40960 * TPH, 0.085), (102400 * TPH, 0.07), (None, 0.05)]
# CloudFront-like tiers
CDN = [(10240 * TPH, 0.085), (40960 * TPH, 0.08), (102400 * TPH, 0.06), (None, 0.04)]
# GCP premium-tier internet egress (1 TB / 10 TB / more)
GEGRESS = [(1024 * TPH, 0.12), (9216 * TPH, 0.11), (None, 0.08)]
# Alibaba CDN (CNY per GB: 10 TB / 50 TB / 100 TB / more)
ACDN = [(10240 * TPH, 0.24), (40960 * TPH, 0.23), (51200 * TPH, 0.21), (None, 0.18)]
# CloudWatch custom metrics (per metric-month: first 10k, next 240k, next 750k, more)
CWM = [(10000, 0.30 * TPH), (240000, 0.10 * TPH), (750000, 0.05 * TPH), (None, 0.02 * TPH)]
# Azure Hot blob capacity tiers (GB)
HOT = [(51200, 0.0184 * TPH), (460800, 0.0177 * TPH), (None, 0.0170 * TPH)]

# ================================ provider (CSP) ============================================
# 1. Alibaba Cloud +10% in a CNY bill
S("provider", [("Alibaba Cloud", "CSP")], D(2026, 1, 13),
  "Alibaba Cloud pay-as-you-go prices +10% on every usage line of the CNY account (ECS, ACK, "
  "ApsaraDB RDS, OSS, tiered CDN traffic, SLB); the ECS subscription (prepaid, amortized daily) "
  "keeps its amount; a USD AWS account in the same file flat",
  "a CSP no earlier set used; CNY amounts beside a USD account (BillingCurrency column); tiered CDN "
  "price blends down as traffic grows; an amortized subscription line in the moved CSP stays flat",
  [L(ALI, "Alibaba Cloud", "ECS", "mall", "ecs.g7.2xlarge", 24, 2.79, week="req", integer=True, cv=0.04),
   fee(ALI, "Alibaba Cloud", "ECS", "mall", "ecs.g7.2xlarge-Subscription-amortized", 1180.0),
   L(ALI, "Alibaba Cloud", "Container Service for Kubernetes", "search", "ecs.c7.xlarge", 10, 0.96, cv=0.03, integer=True),
   static(ALI, "Alibaba Cloud", "ApsaraDB RDS", "mall", "mysql.x8.large.2c", 2, 6.2),
   L(ALI, "Alibaba Cloud", "OSS", "mall", "Standard-Storage-GB", 200000, 0.12 * TPH, kind="storage", grow=0.002),
   L(ALI, "Alibaba Cloud", "CDN", "mall", "CDN-Traffic-GB", 800, 0.24, week="req", cv=0.05, tiers=ACDN),
   L(ALI, "Alibaba Cloud", "Server Load Balancer", "search", "LCU", 40, 0.048, week="req", cv=0.05),
   L(A4, "AWS", "EC2", "bridge", "m7i.large", 4, 0.1008, cv=0.03)],
  [dict(on=D(2026, 1, 13), sel=csp("Alibaba Cloud"), price=1.10)],
  acct=ALI, cur={ALI: "CNY", A4: "USD"})

# 2. Azure: the monthly exchange rate of a GBP billing profile moves +7% on 1 December
S("provider", [("Azure", "CSP")], D(2026, 12, 1),
  "Azure bills this profile in GBP at a rate reset monthly: on 1 December every pay-as-you-go line "
  "costs 7% more in GBP (USD list prices unchanged); the reservation bought earlier (amortized in "
  "GBP) keeps its amount; the USD billing profile in the same file flat; first day of data partial",
  "the list price did not move (the USD profile shows it): the provider's price in the billing "
  "currency did; a 1st of the month; flat amortized reservation inside the CSP",
  [L(UKB, "Azure", "Virtual Machines", "portal", "D4as_v5", 14, 0.141, week="office", integer=True, cv=0.03),
   L(UKB, "Azure", "AKS", "claims", "E8as_v5", 12, 0.39, week="req", cv=0.05),
   fee(UKB, "Azure", "AKS", "claims", "Reservation-E8as_v5-3yr-amortized", 38.0),
   static(UKB, "Azure", "Azure SQL Database", "claims", "GP_Gen5_8", 1, 1.58),
   L(UKB, "Azure", "Storage", "portal", "Hot-LRS-GB", 90000, 1.0, kind="storage", grow=0.002, tiers=HOT),
   L(UKB, "Azure", "Bandwidth", "portal", "Internet-Egress-GB", 60, 0.068, week="req", cv=0.06),
   L(USB, "Azure", "Virtual Machines", "portal-us", "D4as_v5", 8, 0.172, week="office", cv=0.03),
   L(USB, "Azure", "Storage", "portal-us", "Hot-LRS-GB", 40000, 1.0, kind="storage", grow=0.002, tiers=HOT)],
  [dict(on=D(2026, 12, 1), sel=csp("Azure", acct=UKB), price=1.07)],
  acct=UKB, pfirst=0.45, cur={UKB: "GBP", USB: "USD"})

# 3. AWS +8% on a Sunday: large fleet, tiered egress, partial-upfront reservations (amortized fee +
#    reduced hourly rate), request-driven weekly cycle
S("provider", [("AWS", "CSP")], D(2026, 3, 22),
  "AWS on-demand prices +8% on Sunday 22 March on every usage line (a 1,400-instance request-driven "
  "fleet, EKS, RDS, S3, Lambda, tiered internet egress); partial-upfront r7i reservations (amortized "
  "upfront fee and reduced hourly rate) keep their price",
  "a Sunday at x0.28 of a weekday in a request-driven estate; the egress price blends over tiers; "
  "the reserved lines inside AWS stay flat; large fleet, small relative noise",
  [L(A1, "AWS", "EC2", "web", "c7i.large", 1400, 0.08925, week="req", cv=0.03, integer=True),
   static(A1, "AWS", "EC2", "core", "r7i.2xlarge", 20, 0.2116, fixedprice=True),
   fee(A1, "AWS", "EC2", "core", "r7i.2xlarge-RI-PartialUpfront-amortized", 101.6),
   L(A1, "AWS", "EKS", "core", "m7g.xlarge", 60, 0.1632, cv=0.03, integer=True),
   static(A1, "AWS", "RDS", "core", "db.r7g.4xlarge", 2, 1.932),
   L(A1, "AWS", "S3", "web", "Standard-Storage-GB", 400000, 1.0, kind="storage", grow=0.0015,
     tiers=[(51200, 0.023 * TPH), (460800, 0.022 * TPH), (None, 0.021 * TPH)]),
   L(A1, "AWS", "Data Transfer", "web", "Internet-Egress-GB", 300, 1.0, week="req", cv=0.04, tiers=EGRESS),
   L(A1, "AWS", "Lambda", "web", "GB-second", 300000, 0.0000166667, week="req", cv=0.05)],
  [dict(on=D(2026, 3, 22), sel=csp("AWS"), price=1.08)],
  acct=A1)

# 4. GCP +10% with sustained-use credits that follow their usage lines (more negative)
S("provider", [("GCP", "CSP")], D(2026, 6, 17),
  "GCP list prices +10% on every usage line of both projects; the sustained-use discount credits "
  "(negative lines, 20% of their n2 / c2d usage) grow in magnitude with them; the spend-based "
  "commitment fee and a fixed promotional credit keep their amount; tiered premium egress",
  "negative lines move *down* on the day while usage lines move up; a fixed credit and a "
  "commitment fee inside the CSP stay flat; egress blends over tiers",
  [L(G1, "GCP", "Compute Engine", "catalog", "n2-standard-8", 40, 0.3885, cv=0.03, integer=True, key="n2"),
   credit(G1, "GCP", "Compute Engine", "catalog", "SustainedUse-Credit-n2-standard-8", "n2", 0.20),
   static(G1, "GCP", "Compute Engine", "pricing", "c2d-standard-16", 12, 0.7256, key="c2d"),
   credit(G1, "GCP", "Compute Engine", "pricing", "SustainedUse-Credit-c2d-standard-16", "c2d", 0.20),
   L(G1, "GCP", "GKE", "catalog", "e2-standard-8", 30, 0.268, week="req", cv=0.04),
   L(G1, "GCP", "Cloud Storage", "catalog", "Standard-Storage-GB", 150000, 0.020 * TPH, kind="storage", grow=0.002),
   L(G1, "GCP", "Networking", "catalog", "Premium-Internet-Egress-GB", 40, 1.0, week="req", cv=0.05, tiers=GEGRESS),
   fee(G1, "GCP", "Compute Engine", "shared", "Spend-Based-Commitment-Fee", 210.0),
   fee(G1, "GCP", "Credits", "shared", "Promotional-Credit", -35.0),
   L(G4, "GCP", "BigQuery", "reporting", "Analysis-TiB", 0.7, 6.25, week="req", cv=0.10),
   L(G4, "GCP", "Dataflow", "reporting", "vCPU-hour", 50, 0.056, week="req", cv=0.06)],
  [dict(on=D(2026, 6, 17), sel=csp("GCP"), price=1.10)],
  acct=G1, dec=5)

# 5. Azure +9% in a cost-centre account that also holds AWS lines; savings plan partly covers VMs
S("provider", [("Azure", "CSP")], D(2026, 9, 16),
  "Azure pay-as-you-go prices +9% on every Azure usage line of a cost-centre account that also "
  "holds AWS lines (flat); the Azure savings plan for compute (hourly commitment, amortized) keeps "
  "its amount and the covered part of two VM fleets keeps its rate (blended rise smaller)",
  "two CSPs under one account, only one moves; partly covered fleets rise by 4-5% only; a small "
  "account of a few lines",
  [L(CC, "Azure", "Virtual Machines", "crm", "D8as_v5", 10, 0.344, cv=0.03, integer=True, com=(6, 0.245)),
   L(CC, "Azure", "Virtual Machines", "crm", "F8s_v2", 6, 0.338, week="office", cv=0.03, com=(3, 0.24)),
   fee(CC, "Azure", "Savings Plan", "shared", "Compute-Savings-Plan-1yr-amortized", 52.0),
   static(CC, "Azure", "Azure SQL Database", "crm", "GP_Gen5_4", 1, 0.93),
   L(CC, "Azure", "Storage", "crm", "Cool-LRS-GB", 60000, 0.01 * TPH, kind="storage", grow=0.001),
   L(CC, "AWS", "EC2", "crm-bridge", "m7i.xlarge", 6, 0.2016, cv=0.03),
   L(CC, "AWS", "S3", "crm-bridge", "Standard-Storage-GB", 30000, 0.023 * TPH, kind="storage", grow=0.001),
   L(CC, "AWS", "Data Transfer", "crm-bridge", "Internet-Egress-GB", 12, 0.09, week="req", cv=0.06)],
  [dict(on=D(2026, 9, 16), sel=csp("Azure", acct=CC), price=1.09)],
  acct=CC)

# ================================ service-wide ===============================================
# 6. CloudWatch: a shared logging library at debug level rolled out to every application
S("service", [("CloudWatch", "Cloud_Service")], D(2026, 2, 10),
  "a shared logging library released at debug level reaches every application: CloudWatch Logs "
  "ingestion x2.6 and embedded-metric custom metrics x1.6 (tiered per-metric price, so the blended "
  "price falls) in checkout, catalog and payments; EC2, Fargate, DynamoDB, egress flat",
  "a usage rise, not a price rise; the custom-metrics price column falls (tiers) while cost rises; "
  "two families in three applications: only the service holds them all",
  [L(A2, "AWS", "CloudWatch", "checkout", "Logs-Ingested-GB", 9, 0.50, week="req", cv=0.05),
   L(A2, "AWS", "CloudWatch", "catalog", "Logs-Ingested-GB", 5, 0.50, week="req", cv=0.05),
   L(A2, "AWS", "CloudWatch", "payments", "Logs-Ingested-GB", 3, 0.50, cv=0.05),
   L(A2, "AWS", "CloudWatch", "checkout", "Custom-Metrics", 30000, 1.0, cv=0.01, tiers=CWM),
   L(A2, "AWS", "CloudWatch", "catalog", "Custom-Metrics", 14000, 1.0, cv=0.01, tiers=CWM),
   L(A2, "AWS", "CloudWatch", "payments", "Custom-Metrics", 8000, 1.0, cv=0.01, tiers=CWM),
   L(A2, "AWS", "EC2", "checkout", "m7i.2xlarge", 24, 0.4032, week="req", cv=0.04, integer=True),
   L(A2, "AWS", "ECS", "catalog", "Fargate-vCPU-hour", 60, 0.04048, week="req", cv=0.05),
   L(A2, "AWS", "DynamoDB", "payments", "ReadRequestUnits", 9e6, 0.25 / 1e6, week="req", cv=0.05),
   L(A2, "AWS", "Data Transfer", "checkout", "Internet-Egress-GB", 120, 1.0, week="req", cv=0.05, tiers=EGRESS)],
  [dict(on=D(2026, 2, 10), sel=fam("Logs-Ingested-GB"), count=2.6),
   dict(on=D(2026, 2, 10), sel=fam("Custom-Metrics"), count=1.6)],
  acct=A2)

# 7. Redshift +20% (Serverless RPU and managed storage); reserved ra3 nodes keep their price
S("service", [("Redshift", "Cloud_Service")], D(2026, 4, 21),
  "Redshift Serverless RPU-hours and managed storage +20% in every application; the provisioned "
  "ra3.4xlarge cluster is reserved (reduced hourly rate plus an amortized upfront fee, both flat); "
  "Glue, EC2, S3 flat",
  "reserved lines inside the service stay flat; office-hours RPU usage; the Glue ETL beside it "
  "feeds the same applications",
  [L(A3, "AWS", "Redshift", "finance", "Serverless-RPU-hour", 64, 0.375, week="office", cv=0.06),
   L(A3, "AWS", "Redshift", "marketing", "Serverless-RPU-hour", 32, 0.375, week="office", cv=0.08),
   L(A3, "AWS", "Redshift", "finance", "RMS-Storage-GB", 80000, 0.024 * TPH, kind="storage", grow=0.002),
   L(A3, "AWS", "Redshift", "marketing", "RMS-Storage-GB", 25000, 0.024 * TPH, kind="storage", grow=0.002),
   static(A3, "AWS", "Redshift", "finance", "ra3.4xlarge", 4, 2.03, fixedprice=True, keep=True),
   fee(A3, "AWS", "Redshift", "finance", "ra3.4xlarge-RI-upfront-amortized", 95.0),
   L(A3, "AWS", "Glue", "finance", "DPU-hour", 20, 0.44, cv=0.10),
   L(A3, "AWS", "EC2", "marketing", "m7i.xlarge", 8, 0.2016, cv=0.03),
   L(A3, "AWS", "S3", "finance", "Standard-Storage-GB", 200000, 0.023 * TPH, kind="storage", grow=0.002)],
  [dict(on=D(2026, 4, 21), sel=svc("Redshift"), price=1.20)],
  acct=A3)

# 8. Azure Databricks DBU prices +25% (EUR); pre-purchased commit units amortized flat; VMs flat
S("service", [("Azure Databricks", "Cloud_Service")], D(2026, 5, 19),
  "Azure Databricks DBU prices +25% (Jobs Compute, All-Purpose, SQL Pro) in every workspace "
  "application; the pre-purchased Databricks commit units (amortized daily) keep their amount; the "
  "VMs under the clusters (Virtual Machines) flat; EUR bill",
  "the VMs that run the same clusters do not move; three families in three applications; an "
  "amortized pre-purchase inside the service stays flat; EUR amounts",
  [L(EUD, "Azure", "Azure Databricks", "etl", "Jobs-Compute-DBU", 120, 0.14, cv=0.06),
   L(EUD, "Azure", "Azure Databricks", "data-science", "All-Purpose-DBU", 40, 0.52, week="office", cv=0.08),
   L(EUD, "Azure", "Azure Databricks", "bi", "SQL-Pro-DBU", 30, 0.51, week="office", cv=0.06),
   fee(EUD, "Azure", "Azure Databricks", "shared", "DBCU-PrePurchase-1yr-amortized", 160.0),
   L(EUD, "Azure", "Virtual Machines", "etl", "E8ds_v5", 30, 0.504, cv=0.06),
   L(EUD, "Azure", "Virtual Machines", "data-science", "E16ds_v5", 6, 1.008, week="office", cv=0.08),
   L(EUD, "Azure", "Storage", "etl", "ADLS-Hot-GB", 300000, 1.0, kind="storage", grow=0.002, tiers=HOT)],
  [dict(on=D(2026, 5, 19), sel=svc("Azure Databricks"), price=1.25)],
  acct=EUD, cur={EUD: "EUR"})

# 9. Vertex AI +15% (prediction nodes, training, Gemini tokens)
S("service", [("Vertex AI", "Cloud_Service")], D(2026, 8, 26),
  "Vertex AI prices +15% in every application: online-prediction node-hours (static endpoints), "
  "custom training node-hours (office hours) and Gemini input tokens (request-driven); GKE, Cloud "
  "Storage, BigQuery flat",
  "static endpoints (exactly flat before) beside noisy token usage; training lines at x0.4 on "
  "weekends; 5-decimal prices; GKE GPU nodes of the same applications do not move",
  [static(G3, "GCP", "Vertex AI", "assistant", "Prediction-n1-standard-8-T4", 4, 0.7322),
   static(G3, "GCP", "Vertex AI", "ranker", "Prediction-n1-standard-4", 6, 0.2185),
   L(G3, "GCP", "Vertex AI", "ranker", "Training-a2-highgpu-1g", 3, 4.22, week="office", cv=0.15),
   L(G3, "GCP", "Vertex AI", "assistant", "Gemini-Flash-Input-1M-Tokens", 40, 0.075, week="req", cv=0.07),
   L(G3, "GCP", "GKE", "assistant", "g2-standard-8", 6, 0.8536, cv=0.03),
   L(G3, "GCP", "Cloud Storage", "ranker", "Standard-Storage-GB", 60000, 0.020 * TPH, kind="storage", grow=0.002),
   L(G3, "GCP", "BigQuery", "ranker", "Analysis-TiB", 0.4, 6.25, week="office", cv=0.12)],
  [dict(on=D(2026, 8, 26), sel=svc("Vertex AI"), price=1.15)],
  acct=G3, dec=5)

# 10. Azure Backup +30% (protected instances and backup storage) in GBP
S("service", [("Backup", "Cloud_Service")], D(2026, 11, 12),
  "Azure Backup prices +30% in every application: protected-instance fees (static counts) and GRS "
  "backup storage (slowly growing); VMs, SQL, Storage flat; GBP billing profile",
  "static protected-instance lines beside backup storage that grows 0.3% a day (the same-weekday "
  "history of those lines already reads +8%); Backup in the USD profile flat; two currencies",
  [static(UKB, "Azure", "Backup", "portal", "Protected-Instance-Medium", 14, 10.0 * TPH),
   static(UKB, "Azure", "Backup", "claims", "Protected-Instance-Large", 8, 20.0 * TPH),
   L(UKB, "Azure", "Backup", "portal", "GRS-Backup-Storage-GB", 30000, 0.0448 * TPH, kind="storage", grow=0.003),
   L(UKB, "Azure", "Backup", "claims", "GRS-Backup-Storage-GB", 60000, 0.0448 * TPH, kind="storage", grow=0.003),
   L(UKB, "Azure", "Virtual Machines", "portal", "D4as_v5", 14, 0.141, week="office", integer=True, cv=0.03),
   L(UKB, "Azure", "AKS", "claims", "E8as_v5", 12, 0.39, week="req", cv=0.05),
   static(UKB, "Azure", "Azure SQL Database", "claims", "GP_Gen5_8", 1, 1.58),
   L(USB, "Azure", "Backup", "portal-us", "Protected-Instance-Medium", 6, 10.0 * TPH, kind="static", cv=0.0)],
  [dict(on=D(2026, 11, 12), sel=svc("Backup", acct=UKB), price=1.30)],
  acct=UKB, cur={UKB: "GBP", USB: "USD"})

# ================================ family / SKU-wide ============================================
# 11. inter-AZ data transfer +50% across EC2, EKS, RDS lines of every application
S("family", [("DataTransfer-Regional-Bytes", "Instance_Family")], D(2026, 1, 28),
  "intra-region (cross-AZ) data transfer price +50% (0.02 -> 0.03 $/GB, both directions) on every "
  "DataTransfer-Regional-Bytes line (Data Transfer of web, orders, analytics); internet egress "
  "(tiered) and everything else flat",
  "a data-transfer SKU in three applications beside a tiered internet-egress SKU in the same service "
  "that does not move; request-driven volumes",
  [L(A1, "AWS", "Data Transfer", "web", "DataTransfer-Regional-Bytes", 900, 0.02, week="req", cv=0.05),
   L(A1, "AWS", "Data Transfer", "orders", "DataTransfer-Regional-Bytes", 500, 0.02, week="req", cv=0.05),
   L(A1, "AWS", "Data Transfer", "analytics", "DataTransfer-Regional-Bytes", 300, 0.02, cv=0.06),
   L(A1, "AWS", "Data Transfer", "web", "Internet-Egress-GB", 250, 1.0, week="req", cv=0.05, tiers=EGRESS),
   L(A1, "AWS", "EC2", "web", "c7i.xlarge", 80, 0.1785, week="req", cv=0.03, integer=True),
   L(A1, "AWS", "EKS", "orders", "m7g.2xlarge", 20, 0.3264, cv=0.03, integer=True),
   static(A1, "AWS", "RDS", "orders", "db.r7g.2xlarge", 2, 0.966),
   L(A1, "AWS", "EMR", "analytics", "r7g.4xlarge", 10, 0.2142, week="office", cv=0.06)],
  [dict(on=D(2026, 1, 28), sel=fam("DataTransfer-Regional-Bytes"), price=1.5)],
  acct=A1)

# 12. public IPv4 charge appears in every service that holds addresses; support fee on every 1st
S("family", [("PublicIPv4-InUseAddress", "Instance_Family")], D(2026, 2, 1),
  "a new per-hour charge for in-use public IPv4 addresses starts on Sunday 1 February: "
  "PublicIPv4-InUseAddress lines appear in EC2 (web, batch), Elastic Load Balancing (web, api) and "
  "RDS (api) at 0.005 $/address-hour; a support fee billed on every 1st (1 Dec, 1 Jan in the data)",
  "new lines in three services and three applications, each small; the same day the monthly "
  "support fee appears; a Sunday; a 2,000-instance fleet",
  [L(A4, "AWS", "EC2", "web", "c7g.large", 2000, 0.0725, week="req", cv=0.03, integer=True),
   L(A4, "AWS", "EC2", "batch", "m7g.2xlarge", 40, 0.3264, cv=0.05),
   static(A4, "AWS", "Elastic Load Balancing", "web", "LoadBalancer-Hours", 12, 0.0225),
   static(A4, "AWS", "Elastic Load Balancing", "api", "LoadBalancer-Hours", 6, 0.0225),
   static(A4, "AWS", "RDS", "api", "db.m7g.large", 4, 0.168),
   fee(A4, "AWS", "Support", "shared", "Business-Support", 900.0, only1=True),
   L(A4, "AWS", "EC2", "web", "PublicIPv4-InUseAddress", 2000, 0.005, week="req", cv=0.03, integer=True, start=D(2026, 2, 1), cause=True),
   static(A4, "AWS", "EC2", "batch", "PublicIPv4-InUseAddress", 40, 0.005, start=D(2026, 2, 1), cause=True),
   static(A4, "AWS", "Elastic Load Balancing", "web", "PublicIPv4-InUseAddress", 36, 0.005, start=D(2026, 2, 1), cause=True),
   static(A4, "AWS", "Elastic Load Balancing", "api", "PublicIPv4-InUseAddress", 18, 0.005, start=D(2026, 2, 1), cause=True),
   static(A4, "AWS", "RDS", "api", "PublicIPv4-InUseAddress", 4, 0.005, start=D(2026, 2, 1), cause=True)],
  [], acct=A4, hist=70, newcause=True)

# 13. Windows Server license SKU +20% on every Windows VM (Compute Engine and GKE)
S("family", [("Windows-Server-License-vCPU", "Instance_Family")], D(2026, 7, 8),
  "the Windows Server license SKU (per vCPU-hour) +20% on every Windows machine: Compute Engine "
  "(erp, citrix) and a GKE Windows node pool (dotnet-legacy); the machines' own n2 / e2 SKUs and "
  "the Linux fleets flat",
  "the license is a separate line beside the VM line of the same application; office-hours Citrix; "
  "3 applications in 2 services",
  [L(G2, "GCP", "Compute Engine", "erp", "n2-standard-16", 6, 0.777, cv=0.0, kind="static"),
   static(G2, "GCP", "Compute Engine", "erp", "Windows-Server-License-vCPU", 96, 0.046),
   L(G2, "GCP", "Compute Engine", "citrix", "n2-standard-8", 20, 0.3885, week="office", cv=0.04, integer=True, key="cx"),
   L(G2, "GCP", "Compute Engine", "citrix", "Windows-Server-License-vCPU", 160, 0.046, week="office", cv=0.04),
   L(G2, "GCP", "GKE", "dotnet-legacy", "e2-standard-8", 10, 0.268, cv=0.03, integer=True),
   L(G2, "GCP", "GKE", "dotnet-legacy", "Windows-Server-License-vCPU", 80, 0.046, cv=0.03),
   L(G2, "GCP", "GKE", "intranet", "e2-standard-4", 14, 0.134, week="office", cv=0.04),
   static(G2, "GCP", "Cloud SQL", "erp", "db-custom-8-32768-sqlserver", 1, 1.43)],
  [dict(on=D(2026, 7, 8), sel=fam("Windows-Server-License-vCPU"), price=1.20)],
  acct=G2)

# 14. ALB LCU-hour +25% in every application; load balancer hours flat
S("family", [("LCU-Hour", "Instance_Family")], D(2026, 10, 7),
  "Application Load Balancer LCU-hour price +25% (0.008 -> 0.01) in every application; the "
  "LoadBalancer-Hours lines of the same balancers and everything else flat",
  "the sibling SKU in the same service and applications does not move; small lines next to a "
  "large EKS fleet",
  [L(A2, "AWS", "Elastic Load Balancing", "storefront", "LCU-Hour", 140, 0.008, week="req", cv=0.05),
   L(A2, "AWS", "Elastic Load Balancing", "api", "LCU-Hour", 220, 0.008, week="req", cv=0.05),
   L(A2, "AWS", "Elastic Load Balancing", "admin", "LCU-Hour", 20, 0.008, week="office", cv=0.06),
   static(A2, "AWS", "Elastic Load Balancing", "storefront", "LoadBalancer-Hours", 4, 0.0225),
   static(A2, "AWS", "Elastic Load Balancing", "api", "LoadBalancer-Hours", 6, 0.0225),
   static(A2, "AWS", "Elastic Load Balancing", "admin", "LoadBalancer-Hours", 1, 0.0225),
   L(A2, "AWS", "EKS", "api", "c7g.2xlarge", 40, 0.289, week="req", cv=0.04, integer=True),
   L(A2, "AWS", "CloudFront", "storefront", "Egress-GB", 200, 1.0, week="req", cv=0.05, tiers=CDN)],
  [dict(on=D(2026, 10, 7), sel=fam("LCU-Hour"), price=1.25)],
  acct=A2)

# ================================ region ======================================================
# 15. asia-south1 project (INR): Cloud SQL +18%
S("region", [("Cloud SQL", "Cloud_Service")], D(2026, 3, 4),
  "asia-south1 Cloud SQL prices +18% (one project per region, billed in INR): every Cloud SQL "
  "line of the Mumbai project (HA instances and storage of two applications); GKE, Cloud Storage "
  "there and Cloud SQL in the us-central1 project (USD) flat",
  "INR amounts (large numbers) beside a USD project; Cloud SQL moves in one project only; static "
  "databases",
  [static(GIN, "GCP", "Cloud SQL", "upi-gateway", "db-custom-8-32768-HA", 2, 58.5),
   static(GIN, "GCP", "Cloud SQL", "ledger-in", "db-custom-4-16384-HA", 2, 29.3),
   L(GIN, "GCP", "Cloud SQL", "upi-gateway", "SSD-Storage-GB-HA", 4000, 28.0 * TPH, kind="storage", grow=0.002),
   L(GIN, "GCP", "GKE", "upi-gateway", "n2-standard-8", 30, 36.1, week="req", cv=0.04, integer=True),
   L(GIN, "GCP", "Cloud Storage", "ledger-in", "Standard-Storage-GB", 80000, 1.93 * TPH, kind="storage", grow=0.002),
   static(G4, "GCP", "Cloud SQL", "ledger-us", "db-custom-8-32768-HA", 2, 0.78),
   L(G4, "GCP", "GKE", "ledger-us", "n2-standard-8", 12, 0.3885, cv=0.03)],
  [dict(on=D(2026, 3, 4), sel=svc("Cloud SQL", acct=GIN), price=1.18)],
  acct=GIN, dec=3, cur={GIN: "INR", G4: "USD"})

# 16. ca-central-1 account: EBS +20%
S("region", [("EBS", "Cloud_Service")], D(2026, 6, 9),
  "ca-central-1 EBS prices +20% (one account per region): every EBS line of the Canada account "
  "(gp3 storage, gp3 IOPS, io1 storage, snapshots); EC2 and RDS there and EBS in the us-east-1 "
  "account flat",
  "storage lines grow slowly every day; four families in two applications; EBS elsewhere flat",
  [L(CA, "AWS", "EBS", "tax", "gp3-Storage-GB", 60000, 0.088 * TPH, kind="storage", grow=0.001),
   static(CA, "AWS", "EBS", "tax", "gp3-IOPS", 40000, 0.0055 * TPH),
   L(CA, "AWS", "EBS", "payroll", "io1-Storage-GB", 8000, 0.138 * TPH, kind="storage", grow=0.001),
   L(CA, "AWS", "EBS", "payroll", "Snapshot-Storage-GB", 90000, 0.055 * TPH, kind="storage", grow=0.003),
   L(CA, "AWS", "EC2", "tax", "m7i.2xlarge", 30, 0.4452, week="office", cv=0.03, integer=True),
   static(CA, "AWS", "RDS", "payroll", "db.r7g.xlarge", 2, 0.529),
   L(UE, "AWS", "EBS", "tax-us", "gp3-Storage-GB", 90000, 0.08 * TPH, kind="storage", grow=0.001),
   L(UE, "AWS", "EC2", "tax-us", "m7i.2xlarge", 20, 0.4032, week="office", cv=0.03)],
  [dict(on=D(2026, 6, 9), sel=svc("EBS", acct=CA), price=1.20)],
  acct=CA)

# 17. uksouth subscription (GBP): App Service +15%
S("region", [("App Service", "Cloud_Service")], D(2026, 9, 29),
  "UK South App Service prices +15% (one subscription per region, GBP): every App Service plan line "
  "of the uksouth subscription (P1v3 and P2v3 in three applications); VMs and SQL there and App "
  "Service in the ukwest subscription flat",
  "static plans (exactly flat before) in three applications; ukwest runs the same plans",
  [static(UKS, "Azure", "App Service", "gov-portal", "P2v3", 6, 0.271),
   static(UKS, "Azure", "App Service", "forms", "P1v3", 4, 0.1355),
   L(UKS, "Azure", "App Service", "booking", "P1v3", 5, 0.1355, week="office", cv=0.04, integer=True),
   L(UKS, "Azure", "Virtual Machines", "gov-portal", "D8as_v5", 12, 0.31, week="req", cv=0.04, integer=True),
   static(UKS, "Azure", "Azure SQL Database", "forms", "GP_Gen5_4", 1, 0.84),
   static(UKW, "Azure", "App Service", "gov-portal-dr", "P2v3", 2, 0.271),
   L(UKW, "Azure", "Virtual Machines", "gov-portal-dr", "D8as_v5", 4, 0.31, cv=0.03)],
  [dict(on=D(2026, 9, 29), sel=svc("App Service", acct=UKS), price=1.15)],
  acct=UKS, cur={UKS: "GBP", UKW: "GBP"})

# ================================ application ==================================================
# 18. search-api: bot traffic on a Sunday
S("application", [("search-api", "Application")], D(2026, 4, 12),
  "a scraping bot hits search-api on Sunday: EKS nodes x1.4, CloudFront egress x2.2 (tiered: its "
  "price column falls), ALB LCU x2, WAF requests x2.5; the same families in other applications flat",
  "four services, each rising by its own factor; the egress line's blended price falls; a Sunday "
  "at x0.28 of weekday traffic",
  [L(A3, "AWS", "EKS", "search-api", "c7g.2xlarge", 30, 0.289, week="req", cv=0.04, integer=True),
   L(A3, "AWS", "CloudFront", "search-api", "Egress-GB", 400, 1.0, week="req", cv=0.05, tiers=CDN),
   L(A3, "AWS", "Elastic Load Balancing", "search-api", "LCU-Hour", 160, 0.008, week="req", cv=0.05),
   L(A3, "AWS", "WAF", "search-api", "Requests-1M", 1.2, 0.60, week="req", cv=0.06),
   L(A3, "AWS", "EKS", "accounts", "c7g.2xlarge", 16, 0.289, week="req", cv=0.04, integer=True),
   L(A3, "AWS", "CloudFront", "accounts", "Egress-GB", 150, 1.0, week="req", cv=0.05, tiers=CDN),
   L(A3, "AWS", "Elastic Load Balancing", "accounts", "LCU-Hour", 60, 0.008, week="req", cv=0.05),
   static(A3, "AWS", "RDS", "accounts", "db.r7g.2xlarge", 2, 0.966)],
  [dict(on=D(2026, 4, 12), sel=app("search-api", f="c7g.2xlarge"), count=1.4),
   dict(on=D(2026, 4, 12), sel=app("search-api", f="Egress-GB"), count=2.2),
   dict(on=D(2026, 4, 12), sel=app("search-api", f="LCU-Hour"), count=2.0),
   dict(on=D(2026, 4, 12), sel=app("search-api", f="Requests-1M"), count=2.5)],
  acct=A3)

# 19. ml-serving: model upgrade (GPU pool 4 -> 8, inter-zone egress, storage ops, registry)
S("application", [("ml-serving", "Application")], D(2026, 5, 27),
  "ml-serving rolls out a larger model: GKE g2-standard-24 nodes 4 -> 8, inter-zone egress x1.8, "
  "Cloud Storage class-B operations x3 (model shards), Artifact Registry storage x1.3 (new images); "
  "ml-batch's g2-standard-24 pool and other applications flat",
  "the GPU family also exists flat in ml-batch; four services; registry storage steps up only 30%",
  [static(G3, "GCP", "GKE", "ml-serving", "g2-standard-24", 4, 2.0),
   L(G3, "GCP", "Networking", "ml-serving", "Inter-Zone-Egress-GB", 200, 0.01, week="req", cv=0.05),
   L(G3, "GCP", "Cloud Storage", "ml-serving", "ClassB-Operations-10k", 50, 0.004, week="req", cv=0.06),
   L(G3, "GCP", "Artifact Registry", "ml-serving", "Storage-GB", 2500, 0.10 * TPH, kind="storage", grow=0.001),
   L(G3, "GCP", "GKE", "ml-batch", "g2-standard-24", 6, 2.0, week="office", cv=0.05),
   L(G3, "GCP", "Networking", "ml-batch", "Inter-Zone-Egress-GB", 120, 0.01, cv=0.05),
   L(G3, "GCP", "BigQuery", "ml-batch", "Analysis-TiB", 0.5, 6.25, week="office", cv=0.10),
   L(G3, "GCP", "GKE", "web", "e2-standard-4", 20, 0.134, week="req", cv=0.04)],
  [dict(on=D(2026, 5, 27), sel=app("ml-serving", f="g2-standard-24"), count=2.0),
   dict(on=D(2026, 5, 27), sel=app("ml-serving", f="Inter-Zone-Egress-GB"), count=1.8),
   dict(on=D(2026, 5, 27), sel=app("ml-serving", f="ClassB-Operations-10k"), count=3.0),
   dict(on=D(2026, 5, 27), sel=app("ml-serving", f="Storage-GB"), count=1.3)],
  acct=G3, dec=5)

# 20. etl-nightly (EUR) now also runs by day: its savings-plan-covered VMs double (extra on PAYG)
S("application", [("etl-nightly", "Application")], D(2026, 8, 5),
  "etl-nightly's schedule gains a daytime run: VMs E8as_v5 10 -> 20 (8 under the savings plan, the "
  "extra at pay-as-you-go: blended price rises too), Data Factory activity runs x2, Blob write "
  "operations x2, inter-region bandwidth x2; the savings plan fee and other applications flat; EUR",
  "count and blended price move together on the VM line; four services; the savings plan fee is "
  "a shared flat line; EUR",
  [L(EUD, "Azure", "Virtual Machines", "etl-nightly", "E8as_v5", 10, 0.452, cv=0.03, integer=True, com=(8, 0.32)),
   L(EUD, "Azure", "Data Factory", "etl-nightly", "Orchestration-Activity-Runs-1k", 4, 1.0, cv=0.05),
   L(EUD, "Azure", "Storage", "etl-nightly", "Hot-Write-Operations-10k", 300, 0.065, cv=0.05),
   L(EUD, "Azure", "Bandwidth", "etl-nightly", "Inter-Region-GB", 80, 0.02, cv=0.05),
   fee(EUD, "Azure", "Savings Plan", "shared", "Compute-Savings-Plan-3yr-amortized", 62.0),
   L(EUD, "Azure", "Virtual Machines", "reports", "E8as_v5", 6, 0.452, week="office", cv=0.03, com=(2, 0.32)),
   L(EUD, "Azure", "Storage", "reports", "Hot-Write-Operations-10k", 120, 0.065, week="office", cv=0.05),
   static(EUD, "Azure", "Azure SQL Database", "reports", "GP_Gen5_8", 1, 1.70)],
  [dict(on=D(2026, 8, 5), sel=app("etl-nightly"), count=2.0)],
  acct=EUD, cur={EUD: "EUR"})

# 21. loyalty: Multi-AZ enabled and replicas added (price x2 at the same count on RDS)
S("application", [("loyalty", "Application")], D(2026, 11, 18),
  "loyalty is made highly available: RDS db.r6i.xlarge switched to Multi-AZ (unit price x2, same "
  "instance count), ElastiCache cache.m7g.large 2 -> 4 nodes, EBS snapshot storage x2 (longer "
  "retention), cross-AZ data transfer x3; db.r6i.xlarge and the other families in rewards flat",
  "one line doubles its *price* (Multi-AZ) at the same count, others their counts; the same RDS "
  "class flat in another application",
  [static(A4, "AWS", "RDS", "loyalty", "db.r6i.xlarge", 2, 0.50),
   static(A4, "AWS", "ElastiCache", "loyalty", "cache.m7g.large", 2, 0.158),
   L(A4, "AWS", "EBS", "loyalty", "Snapshot-Storage-GB", 20000, 0.05 * TPH, kind="storage", grow=0.002),
   L(A4, "AWS", "Data Transfer", "loyalty", "DataTransfer-Regional-Bytes", 300, 0.02, week="req", cv=0.05),
   static(A4, "AWS", "RDS", "rewards", "db.r6i.xlarge", 3, 0.50),
   L(A4, "AWS", "EC2", "rewards", "m7g.xlarge", 24, 0.1632, week="req", cv=0.04, integer=True),
   L(A4, "AWS", "Data Transfer", "rewards", "DataTransfer-Regional-Bytes", 500, 0.02, week="req", cv=0.05)],
  [dict(on=D(2026, 11, 18), sel=app("loyalty", f="db.r6i.xlarge"), price=2.0),
   dict(on=D(2026, 11, 18), sel=app("loyalty", f="cache.m7g.large"), count=2.0),
   dict(on=D(2026, 11, 18), sel=app("loyalty", f="Snapshot-Storage-GB"), count=2.0),
   dict(on=D(2026, 11, 18), sel=app("loyalty", f="DataTransfer-Regional-Bytes"), count=3.0)],
  acct=A4)

# ================================ resource ======================================================
# 22. Aurora I/O requests x6 in orders (a runaway query)
S("resource", [("Aurora-IO-Requests", "Instance_Family")], D(2026, 2, 24),
  "a runaway full-scan query in orders: Aurora I/O requests x6; orders' Aurora instances and "
  "storage, inventory's Aurora I/O requests and everything else flat",
  "the same SKU flat in another application; a request-priced line (4-decimal price 0.0); the "
  "instance lines of the same cluster do not move",
  [L(A1, "AWS", "RDS", "orders", "Aurora-IO-Requests", 4.0e6, 0.20 / 1e6, week="req", cv=0.06),
   static(A1, "AWS", "RDS", "orders", "db.r7g.2xlarge-Aurora", 3, 1.107),
   L(A1, "AWS", "RDS", "orders", "Aurora-Storage-GB", 3000, 0.10 * TPH, kind="storage", grow=0.002),
   L(A1, "AWS", "RDS", "inventory", "Aurora-IO-Requests", 2.5e6, 0.20 / 1e6, week="req", cv=0.06),
   static(A1, "AWS", "RDS", "inventory", "db.r7g.large-Aurora", 2, 0.277),
   L(A1, "AWS", "EC2", "orders", "c7i.2xlarge", 30, 0.357, week="req", cv=0.03, integer=True),
   L(A1, "AWS", "Data Transfer", "orders", "Internet-Egress-GB", 80, 1.0, week="req", cv=0.05, tiers=EGRESS)],
  [dict(on=D(2026, 2, 24), sel=app("orders", f="Aurora-IO-Requests"), count=6.0)],
  acct=A1)

# 23. a 300-instance scale set 300 -> 420 on a Monday; Monday batch habit elsewhere
S("resource", [("D2pls_v5", "Instance_Family")], D(2026, 7, 20),
  "ingest's scale set of D2pls_v5 grows 300 -> 420 on Monday 20 July (a queue backlog autoscale "
  "that did not scale in); api's D2pls_v5 flat; the reports batch x1.75 every Monday is a habit",
  "+40% on one line of a large fleet on a Monday, when a larger habitual Monday rise sits elsewhere; "
  "the family also runs flat in api",
  [L(USB, "Azure", "Virtual Machines", "ingest", "D2pls_v5", 300, 0.0855, cv=0.02, integer=True),
   L(USB, "Azure", "Virtual Machines", "api", "D2pls_v5", 120, 0.0855, week="req", cv=0.03, integer=True),
   L(USB, "Azure", "Virtual Machines", "reports", "E16as_v5", 20, 0.904, week="mon", cv=0.04),
   L(USB, "Azure", "Event Hubs", "ingest", "Throughput-Units", 20, 0.03, cv=0.0, kind="static"),
   L(USB, "Azure", "Storage", "ingest", "Hot-LRS-GB", 250000, 1.0, kind="storage", grow=0.002, tiers=HOT),
   static(USB, "Azure", "Azure SQL Database", "api", "BC_Gen5_8", 1, 4.0)],
  [dict(on=D(2026, 7, 20), sel=app("ingest", f="D2pls_v5"), count=1.4)],
  acct=USB)

# 24. misconfigured replication: inter-region egress x5 in replica-sync
S("resource", [("Inter-Region-Egress-GB", "Instance_Family")], D(2026, 10, 21),
  "replica-sync's bucket replication is misconfigured to copy every object again: its inter-region "
  "egress x5; analytics' inter-region egress, premium internet egress and everything else flat",
  "a networking SKU also flat in another application; tiered internet egress beside it",
  [L(G1, "GCP", "Networking", "replica-sync", "Inter-Region-Egress-GB", 60, 0.02, cv=0.06),
   L(G1, "GCP", "Cloud Storage", "replica-sync", "Standard-Storage-GB", 300000, 0.020 * TPH, kind="storage", grow=0.002),
   L(G1, "GCP", "Networking", "analytics", "Inter-Region-Egress-GB", 150, 0.02, week="office", cv=0.06),
   L(G1, "GCP", "Networking", "catalog", "Premium-Internet-Egress-GB", 40, 1.0, week="req", cv=0.05, tiers=GEGRESS),
   L(G1, "GCP", "GKE", "catalog", "e2-standard-8", 30, 0.268, week="req", cv=0.04),
   L(G1, "GCP", "BigQuery", "analytics", "Analysis-TiB", 0.8, 6.25, week="office", cv=0.10)],
  [dict(on=D(2026, 10, 21), sel=app("replica-sync", f="Inter-Region-Egress-GB"), count=5.0)],
  acct=G1)

# 25. r7a.4xlarge 10 -> 25 beyond savings-plan coverage (count and blended price rise); last day partial
S("resource", [("r7a.4xlarge", "Instance_Family")], D(2026, 12, 16),
  "risk's r7a.4xlarge fleet 10 -> 25 (a backtest left running): 10 instances are covered by an EC2 "
  "Instance Savings Plan, the extra runs on demand, so count x2.5 and the blended unit price rises "
  "too; the savings plan fee and everything else flat; the day after is partial (50%)",
  "price and count move together on one line (looks like a price change); a fixed savings-plan "
  "fee beside it; last day partial",
  [L(A2, "AWS", "EC2", "risk", "r7a.4xlarge", 10, 0.9108, cv=0.0, kind="static", com=(10, 0.62)),
   fee(A2, "AWS", "Savings Plans", "shared", "EC2-Instance-SP-r7a-1yr", 148.8),
   L(A2, "AWS", "EC2", "pricing", "r7a.2xlarge", 12, 0.4554, week="office", cv=0.04, integer=True),
   L(A2, "AWS", "S3", "risk", "Standard-Storage-GB", 120000, 0.023 * TPH, kind="storage", grow=0.002),
   static(A2, "AWS", "RDS", "pricing", "db.r7g.xlarge", 2, 0.478),
   L(A2, "AWS", "Data Transfer", "risk", "DataTransfer-Regional-Bytes", 200, 0.02, cv=0.05)],
  [dict(on=D(2026, 12, 16), sel=app("risk", f="r7a.4xlarge"), count=2.5)],
  acct=A2, plast=0.5)

# ================================ no anomaly ====================================================
# 26. month-end on a Saturday (batch x3 every last day), office weekends, EUR + USD, partial last day
S("none", [], D(2026, 10, 31),
  "no cause: Saturday 31 October; the month-end close batch (x3 on every last day: 31 Aug, 30 Sep "
  "in the data) runs; the office estate is at x0.4 (weekend); the day after is partial (40%); EUR "
  "and USD accounts in one file",
  "a month-end spike on a weekend: the day is far above the previous Saturdays (+148%) and level "
  "with the previous month-ends (31 Aug Mon, 30 Sep Wed: their weekday estate offsets this weekend)",
  [L(EUD, "Azure", "Virtual Machines", "close", "E16as_v5", 8, 0.904, mend=3.0, cv=0.03),
   L(EUD, "Azure", "Azure Databricks", "close", "Jobs-Compute-DBU", 60, 0.14, mend=3.0, cv=0.06),
   L(EUD, "Azure", "Virtual Machines", "intranet", "D4as_v5", 20, 0.172, week="office", cv=0.03, integer=True),
   L(EUD, "Azure", "App Service", "intranet", "P1v3", 4, 0.1355, kind="static"),
   static(EUD, "Azure", "Azure SQL Database", "close", "GP_Gen5_8", 1, 1.70),
   L(EUD, "Azure", "Storage", "close", "Hot-LRS-GB", 120000, 1.0, kind="storage", grow=0.002, tiers=HOT),
   L(USB, "Azure", "Virtual Machines", "portal-us", "D4as_v5", 8, 0.172, week="office", cv=0.03)],
  [], acct=EUD, hist=70, plast=0.4, cur={EUD: "EUR", USB: "USD"})

# 27. planned step up two days earlier: a new read replica at its normal price (Monday), then a
#     normal Wednesday
S("none", [], D(2026, 3, 18),
  "no cause on the day: a planned read pool (orders-read, 4 x db.r7g.4xlarge, the primary's class "
  "and price) was added on Monday 16 March and runs at its normal price since; Wednesday 18 March "
  "is a normal day after that step; large request-driven fleet, Savings Plan fee, EDP credit",
  "the day is above its same-weekday history (the step) but equals the two days before it; the "
  "read pool is a new resource, but two days before the day",
  [L(A3, "AWS", "EC2", "web", "c7g.xlarge", 600, 0.145, week="req", cv=0.03, integer=True, com=(300, 0.10)),
   static(A3, "AWS", "RDS", "orders", "db.r7g.4xlarge", 1, 1.932),
   static(A3, "AWS", "RDS", "orders-read", "db.r7g.4xlarge", 4, 1.932, start=D(2026, 3, 16)),
   L(A3, "AWS", "S3", "web", "Standard-Storage-GB", 200000, 0.023 * TPH, kind="storage", grow=0.002),
   L(A3, "AWS", "Data Transfer", "web", "Internet-Egress-GB", 150, 1.0, week="req", cv=0.05, tiers=EGRESS),
   fee(A3, "AWS", "Savings Plans", "shared", "Compute-SP-1yr", 720.0),
   fee(A3, "AWS", "Credits", "shared", "EDP-Credit", -150.0)],
  [], acct=A3)

# 28. Monday 1 June: Monday batch, 1st-of-month batch and support fee, SUD credits; partial first day
S("none", [], D(2026, 6, 1),
  "no cause: Monday 1 June; the Monday ETL (x1.75 every Monday), the billing batch that triples on "
  "every 1st (1 April, 1 May in the data) with its sustained-use credit, the support fee billed on "
  "every 1st; office-hours GKE; first day of data partial (50%)",
  "two habits coincide on one day (Monday and the 1st); a fee that exists only on 1sts; credits "
  "that follow their usage lines",
  [L(G2, "GCP", "Compute Engine", "billing", "n2-standard-16", 6, 0.777, month1=3.0, cv=0.03, key="bb"),
   credit(G2, "GCP", "Compute Engine", "billing", "SustainedUse-Credit-n2-standard-16", "bb", 0.15),
   L(G2, "GCP", "Dataflow", "etl", "vCPU-hour", 60, 0.056, week="mon", cv=0.05),
   L(G2, "GCP", "BigQuery", "etl", "Analysis-TiB", 0.6, 6.25, week="mon", cv=0.08),
   L(G2, "GCP", "GKE", "intranet", "e2-standard-4", 14, 0.134, week="office", cv=0.04),
   static(G2, "GCP", "Cloud SQL", "billing", "db-custom-8-32768", 1, 0.67),
   L(G2, "GCP", "Cloud Storage", "etl", "Standard-Storage-GB", 90000, 0.020 * TPH, kind="storage", grow=0.002),
   fee(G2, "GCP", "Support", "shared", "Enhanced-Support", 500.0, only1=True)],
  [], acct=G2, hist=70, pfirst=0.5)


# ---------------------------------------------------------------------------------------------
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
    assert cats == {"provider": 5, "service": 5, "family": 4, "region": 3, "application": 4,
                    "resource": 4, "none": 3}, cats


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
