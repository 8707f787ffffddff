#!/usr/bin/env python3
"""finops-set11: held-out ITBench-Lite FinOps cost-anomaly scenarios (blind-fin11).

python3 gen.py OUTDIR   -> OUTDIR/Scenario-<N>/{anomaly.json,data.csv,ground_truth.yaml}
                           and OUTDIR/cases.json (labels; never show it, or ground_truth.yaml, to agents).
Stdlib only, deterministic. The line model, writer and self-check are copied from
measurement/finops-set10/gen.py (itself from sets 8-9); new in set11: `retag` (a line's Application
written under an old name before a date: tags changing case, a resource renamed mid-bill); the cases.
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
             hol=None, yend=None, untag=None)
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
                cnt = max(cnt, 0.0) * frac * sc.get("dst", {}).get(day, 1.0)
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
            shown = "" if (ln["untag"] and day in ln["untag"]) else ln["app"]
            if ln.get("retag") and day < ln["retag"][0]:
                shown = ln["retag"][1]
            rows.append([day.isoformat(), ln["acct"], ln["csp"], ln["svc"], shown, ln["fam"],
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
              seed=10000 + len(SC) * 47, cur={})
    sc.update(kw)
    SC.append(sc)


# accounts (none used by earlier sets)
W1, W2, W3 = "381502264417", "381502264424", "381502264431"     # AWS member accounts of one organization
WSA, WUS = "381502264448", "381502264455"                       # AWS sa-east-1 / us-east-1 accounts
MCF = "cc-edge-cloudflare-aws-3391"      # Cloudflare + AWS
MOA = "cc-ai-openai-azure-6024"          # OpenAI + Azure
MTW = "cc-comms-twilio-gcp-1187"         # Twilio + GCP
MGH = "cc-dev-github-aws-4405"           # GitHub + AWS
MFY = "cc-media-fastly-gcp-2290"         # Fastly + GCP
ZP, ZQ, ZR = "sub-kite-prod-7b21", "sub-kite-data-7b21", "sub-kite-dev-7b21"   # Azure subscriptions
ZJE, ZWE = "sub-kite-jpe-7b21", "sub-kite-we-7b21"                           # japaneast / westeurope subscriptions
GP, GQ = "kite-web-5521", "kite-analytics-5521"                              # GCP projects
GFR, GIA = "kite-euw3-5521", "kite-use1-5521"                                # europe-west3 / us-east1 projects
UKA = "sub-kite-uk-7b21"                                                     # a GBP-billed subscription

# a retail 13-period fiscal year: every period ends on a Saturday, 28 days apart (not calendar month ends)
FP = {D(2026, 1, 31) + dt.timedelta(days=28 * k): 3.0 for k in range(-3, 14)}
THX = {D(2025, 11, 27): 0.35, D(2025, 11, 28): 0.5, D(2025, 11, 29): 0.7, D(2025, 11, 30): 0.8,
       D(2026, 11, 26): 0.35, D(2026, 11, 27): 0.5, D(2026, 11, 28): 0.7, D(2026, 11, 29): 0.8,
       D(2025, 12, 24): 0.5, D(2025, 12, 25): 0.3, D(2025, 12, 31): 0.6, D(2026, 1, 1): 0.4}

# ================================ provider (CSP) ============================================
# 1. Cloudflare Enterprise contract renewed at a higher rate, beside AWS
S("provider", [("Cloudflare", "CSP")], D(2026, 3, 3),
  "the Cloudflare Enterprise contract renews on Tuesday 3 March at +18% on every usage line (Workers "
  "requests and CPU-ms, R2 storage and Class A operations, Argo smart-routing GB, CDN bandwidth) in "
  "storefront, api and media; the AWS origin lines (EC2, S3, CloudFront for a legacy domain) flat",
  "Cloudflare beside AWS in one cost centre; both providers have a CDN service and a storage service "
  "for the same applications; R2 storage grows every day; Workers requests follow a weekly habit",
  [L(MCF, "Cloudflare", "Workers", "storefront", "Workers-Requests-Million", 1.2, 0.30, week="req", cv=0.05),
   L(MCF, "Cloudflare", "Workers", "api", "Workers-CPU-ms-Million", 3.0, 0.02, week="req", cv=0.06),
   L(MCF, "Cloudflare", "R2", "media", "R2-Storage-GB", 250000, 0.015 * TPH, kind="storage", grow=0.0015),
   L(MCF, "Cloudflare", "R2", "media", "R2-ClassA-Ops-Million", 0.4, 4.50, week="req", cv=0.06),
   L(MCF, "Cloudflare", "Argo Smart Routing", "api", "Argo-GB", 180, 0.10, week="req", cv=0.05),
   L(MCF, "Cloudflare", "CDN", "storefront", "Bandwidth-GB", 3000, 0.012, week="req", cv=0.05),
   L(MCF, "AWS", "EC2", "api", "m7g.xlarge", 24, 0.1632, week="req", cv=0.03, integer=True),
   L(MCF, "AWS", "S3", "media", "Standard-Storage-GB", 400000, 0.023 * TPH, kind="storage", grow=0.001),
   L(MCF, "AWS", "CloudFront", "storefront", "DataTransfer-Out-GB", 400, 0.085, week="req", cv=0.05)],
  [dict(on=D(2026, 3, 3), sel=csp("Cloudflare"), price=1.18)],
  acct=MCF, hist=75)

# 2. OpenAI scale-tier discount ends, beside Azure (and the Azure OpenAI service of Azure stays flat)
S("provider", [("OpenAI", "CSP")], D(2026, 5, 12),
  "the OpenAI committed scale-tier discount (20%) lapses on Tuesday 12 May: every OpenAI API line "
  "(gpt-4.1 input and output tokens, embeddings, batch tokens, file-search storage) in assistant, "
  "search and triage goes to list (x1.25); the Azure half (Azure OpenAI Service tokens for the same "
  "applications, AKS, AI Search) flat",
  "two providers bill LLM tokens under look-alike families (OpenAI API and Azure OpenAI Service) for "
  "the same applications: only the direct OpenAI ones move; office-hours token traffic",
  [L(MOA, "OpenAI", "API", "assistant", "gpt-4.1-Input-1K-Tokens", 1500, 0.002 * 0.8, week="office", cv=0.06),
   L(MOA, "OpenAI", "API", "assistant", "gpt-4.1-Output-1K-Tokens", 300, 0.008 * 0.8, week="office", cv=0.06),
   L(MOA, "OpenAI", "API", "search", "text-embedding-3-large-1K-Tokens", 9000, 0.00013 * 0.8, cv=0.05),
   L(MOA, "OpenAI", "Batch API", "triage", "gpt-4.1-mini-Batch-1K-Tokens", 6000, 0.0002 * 0.8, week="office", cv=0.08),
   L(MOA, "OpenAI", "File Search", "search", "Vector-Storage-GB-Day", 40, 0.10 / 24 * 0.8, kind="storage", grow=0.002),
   L(MOA, "Azure", "Azure OpenAI Service", "assistant", "gpt-4o-Global-Input-1K-Tokens", 1200, 0.0025, week="office", cv=0.06),
   L(MOA, "Azure", "AKS", "assistant", "D4s_v5", 14, 0.192, week="req", cv=0.03, integer=True),
   static(MOA, "Azure", "Azure AI Search", "search", "S1-Search-Unit", 3, 0.336)],
  [dict(on=D(2026, 5, 12), sel=csp("OpenAI"), price=1.25)],
  acct=MOA, hist=100)

# 3. Twilio price list change (+10%) beside GCP
S("provider", [("Twilio", "CSP")], D(2026, 8, 4),
  "Twilio raises its US messaging and voice prices on Tuesday 4 August (+10% on every line: SMS "
  "outbound segments, A2P 10DLC carrier fees, Verify attempts, Voice minutes, phone-number rentals) "
  "in notify, otp and support; the GCP lines of the same cost centre (Cloud Run, Pub/Sub, Cloud SQL) flat",
  "Twilio beside GCP; the phone-number rental is a static line (exactly flat) that also moves; "
  "messaging follows a weekly habit and carrier-fee lines have tiny unit prices",
  [L(MTW, "Twilio", "Programmable Messaging", "notify", "SMS-Outbound-Segment", 2500, 0.0079, week="req", cv=0.05),
   L(MTW, "Twilio", "Programmable Messaging", "notify", "A2P-10DLC-Carrier-Fee", 2500, 0.003, week="req", cv=0.05),
   L(MTW, "Twilio", "Verify", "otp", "Verify-Attempt", 900, 0.05, week="req", cv=0.05),
   L(MTW, "Twilio", "Programmable Voice", "support", "Voice-Outbound-Minute", 400, 0.014, week="office", cv=0.06),
   static(MTW, "Twilio", "Phone Numbers", "support", "Local-Number-Month", 120, 1.15 * TPH),
   L(MTW, "GCP", "Cloud Run", "notify", "CPU-vCPU-Second-K", 60, 0.024, week="req", cv=0.04),
   L(MTW, "GCP", "Pub/Sub", "notify", "Message-Delivery-TiB", 0.05, 40.0, week="req", cv=0.05),
   static(MTW, "GCP", "Cloud SQL", "otp", "db-custom-4-16384", 1, 0.36)],
  [dict(on=D(2026, 8, 4), sel=csp("Twilio"), price=1.10)],
  acct=MTW, hist=60)

# 4. Azure: an Azure-only export with three subscriptions; the MACC discount of one subscription's offer ends
S("provider", [("Azure", "CSP")], D(2026, 10, 1),
  "the negotiated Azure discount (8% off pay-as-you-go) on sub-kite-prod ends with its enrollment on "
  "Thursday 1 October: every Azure usage line of that subscription (VMs, AKS, Azure SQL, Storage, Application "
  "Gateway) costs 1/0.92 more; the reserved-instance amortization line "
  "keeps its amount; the data and dev subscriptions in the same export move the same way",
  "an Azure export holding three subscriptions; the anomaly subscription is Azure-only so the top node "
  "is the answer; the day is a 1st with a monthly Defender fee and an RI amortization line that do not move",
  [fee(ZP, "Azure", "Reservations", "shared", "RI-D8s_v5-3yr-Amortized", 310.0),
   fee(ZP, "Azure", "Microsoft Defender for Cloud", "shared", "Defender-Servers-P2-Monthly", 900.0, only1=True),
   L(ZP, "Azure", "Virtual Machines", "portal", "D8s_v5", 40, 0.384 * 0.92, week="req", cv=0.03, integer=True),
   L(ZP, "Azure", "AKS", "orders", "E8s_v5", 24, 0.504 * 0.92, cv=0.03, integer=True),
   static(ZP, "Azure", "Azure SQL Database", "orders", "GP_Gen5_8", 2, 1.0 * 0.92),
   L(ZP, "Azure", "Storage", "portal", "Hot-ZRS-GB", 200000, 0.0216 * TPH * 0.92, kind="storage", grow=0.001),
   L(ZP, "Azure", "Application Gateway", "portal", "WAF_v2-Capacity-Unit", 20, 0.0144 * 0.92, week="req", cv=0.05),
   L(ZQ, "Azure", "Azure Databricks", "lake", "Jobs-Compute-DBU", 300, 0.30 * 0.92, week="office", cv=0.06),
   L(ZR, "Azure", "Virtual Machines", "sandbox", "B4ms", 20, 0.166 * 0.92, week="off", cv=0.05, integer=True)],
  [dict(on=D(2026, 10, 1), sel=lambda l: l["csp"] == "Azure" and _use(l), price=1 / 0.92)],
  acct=ZP, hist=180)

# ================================ service ===================================================
# 5. Aurora clusters switched to I/O-Optimized while their I/O is low: instance x1.3, storage x2.25, I/O lines stop
S("service", [("Amazon Aurora", "Cloud_Service")], D(2026, 2, 17),
  "a platform ticket switches every Aurora PostgreSQL cluster to the I/O-Optimized storage "
  "configuration on Tuesday 17 February: instance hours x1.3 and storage GB-month x2.25 in billing "
  "and catalog, and the I/O-request lines stop; the clusters do little I/O so the service's cost rises; "
  "EC2, ElastiCache and S3 flat",
  "lines stop (I/O requests) while others rise in one service over two applications and three "
  "families; the static instances are exactly flat until the day; the I/O line that vanishes is small",
  [static(W1, "AWS", "Amazon Aurora", "billing", "db.r7g.2xlarge", 2, 0.996),
   static(W1, "AWS", "Amazon Aurora", "catalog", "db.r7g.xlarge", 3, 0.498),
   L(W1, "AWS", "Amazon Aurora", "billing", "Aurora-Storage-GB", 4000, 0.10 * TPH, kind="storage", grow=0.001),
   L(W1, "AWS", "Amazon Aurora", "catalog", "Aurora-Storage-GB", 2500, 0.10 * TPH, kind="storage", grow=0.001),
   L(W1, "AWS", "Amazon Aurora", "billing", "Aurora-IO-Requests-Million", 1.5, 0.20, week="req", cv=0.06, key="io1"),
   L(W1, "AWS", "Amazon Aurora", "catalog", "Aurora-IO-Requests-Million", 0.8, 0.20, week="req", cv=0.06, key="io2"),
   L(W1, "AWS", "EC2", "billing", "m7g.2xlarge", 16, 0.3264, week="req", cv=0.03, integer=True),
   static(W1, "AWS", "ElastiCache", "catalog", "cache.r7g.large", 3, 0.219),
   L(W1, "AWS", "S3", "catalog", "Standard-Storage-GB", 90000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 2, 17), sel=lambda l: l["svc"] == "Amazon Aurora" and l["fam"] != "Aurora-IO-Requests-Million", price=1.3),
   dict(on=D(2026, 2, 17), sel=fam("Aurora-Storage-GB"), price=2.25 / 1.3),
   dict(on=D(2026, 2, 17), sel=fam("Aurora-IO-Requests-Million"), stop=True)],
  acct=W1, hist=90)

# 6. S3 request classes: an inventory/tagging job hits every bucket: Tier1 (PUT/COPY/LIST) x9, Tier2 (GET) x3
S("service", [("S3", "Cloud_Service")], D(2026, 4, 22),
  "a data-governance job deployed on Wednesday 22 April re-tags every object nightly (CopyObject and "
  "ListObjectsV2) and reads its metadata: S3 Requests-Tier1 x9 and Requests-Tier2 x3 in media, "
  "backups and datalake; S3 storage classes (Standard, Standard-IA) flat; EC2 and Athena flat",
  "request classes with tiny unit prices over three applications; the storage lines of the same "
  "buckets are the large S3 lines and do not move; a Lambda running the job is billed in another "
  "account of the organization",
  [L(W2, "AWS", "S3", "media", "Requests-Tier1-1K", 900, 0.005, week="req", cv=0.06),
   L(W2, "AWS", "S3", "media", "Requests-Tier2-1K", 9000, 0.0004, week="req", cv=0.06),
   L(W2, "AWS", "S3", "backups", "Requests-Tier1-1K", 300, 0.005, cv=0.06),
   L(W2, "AWS", "S3", "datalake", "Requests-Tier2-1K", 20000, 0.0004, week="office", cv=0.06),
   L(W2, "AWS", "S3", "media", "Standard-Storage-GB", 700000, 0.023 * TPH, kind="storage", grow=0.001, keep=True),
   L(W2, "AWS", "S3", "backups", "Standard-IA-Storage-GB", 900000, 0.0125 * TPH, kind="storage", grow=0.0008, keep=True),
   L(W2, "AWS", "EC2", "media", "c7g.2xlarge", 20, 0.289, week="req", cv=0.03, integer=True),
   L(W2, "AWS", "Athena", "datalake", "Data-Scanned-TB", 1.0, 5.0 / 24, week="office", cv=0.08),
   L(W3, "AWS", "Lambda", "governance", "Lambda-GB-Second-Million", 0.1, 16.67, cv=0.05)],
  [dict(on=D(2026, 4, 22), sel=lambda l: l["svc"] == "S3" and l["fam"] == "Requests-Tier1-1K" and l["acct"] == W2, count=9),
   dict(on=D(2026, 4, 22), sel=lambda l: l["svc"] == "S3" and l["fam"] == "Requests-Tier2-1K" and l["acct"] == W2, count=3)],
  acct=W2, hist=45)

# 7. Cosmos DB: autoscale max RU/s raised on every account (autoscale bills the highest RU/s of each hour)
S("service", [("Azure Cosmos DB", "Cloud_Service")], D(2026, 6, 10),
  "a Bicep module change raises the autoscale maximum RU/s of every Cosmos DB container x4 on Wednesday "
  "10 June; a noisy health probe keeps each container near its new maximum: Autoscale-RU-100-Hour x2.8 "
  "(single-region accounts) and Autoscale-MultiRegion-Write-RU-100-Hour x2.8 in profiles, cart and "
  "telemetry; Cosmos DB transactional storage flat; AKS and Functions flat",
  "autoscale RU/s bills the hour's peak, so the usual weekday curve is visible and the step is not "
  "a clean multiple; two RU families (single- and multi-region write) over three applications; the "
  "storage line of the same service is flat",
  [L(ZQ, "Azure", "Azure Cosmos DB", "profiles", "Autoscale-RU-100-Hour", 300, 0.012, week="req", cv=0.05),
   L(ZQ, "Azure", "Azure Cosmos DB", "cart", "Autoscale-MultiRegion-Write-RU-100-Hour", 200, 0.024, week="req", cv=0.05),
   L(ZQ, "Azure", "Azure Cosmos DB", "telemetry", "Autoscale-RU-100-Hour", 500, 0.012, cv=0.04),
   L(ZQ, "Azure", "Azure Cosmos DB", "telemetry", "Transactional-Storage-GB", 8000, 0.25 * TPH, kind="storage", grow=0.002, keep=True),
   L(ZQ, "Azure", "AKS", "cart", "D8s_v5", 30, 0.384, week="req", cv=0.03, integer=True),
   L(ZQ, "Azure", "Functions", "telemetry", "Execution-Time-GB-s-Million", 0.5, 16.0, cv=0.05)],
  [dict(on=D(2026, 6, 10), sel=lambda l: l["svc"] == "Azure Cosmos DB" and l["fam"].startswith("Autoscale"), count=2.8)],
  acct=ZQ, hist=120)

# 8. BigQuery: on-demand analysis moved to Enterprise edition slots with a baseline left at 500 slots
S("service", [("BigQuery", "Cloud_Service")], D(2026, 9, 9),
  "the analytics projects move from on-demand pricing to BigQuery Enterprise edition reservations on "
  "Wednesday 9 September with a 500-slot baseline that nobody sized: the Analysis-TiB lines stop and "
  "Enterprise-Slot-Hour lines start in reports, ml-features and finance (net x2.6 for the service); "
  "BigQuery active storage, Dataflow and Cloud Storage flat",
  "lines stop and new lines start in one service over three applications; a weekday habit on the "
  "old lines (office-hours queries) while the new slot baseline runs every day; storage of the same "
  "datasets flat",
  [L(GQ, "GCP", "BigQuery", "reports", "Analysis-TiB", 1.6, 6.25 / 24, week="office", cv=0.08, key="od1"),
   L(GQ, "GCP", "BigQuery", "ml-features", "Analysis-TiB", 2.4, 6.25 / 24, week="office", cv=0.08, key="od2"),
   L(GQ, "GCP", "BigQuery", "finance", "Analysis-TiB", 0.8, 6.25 / 24, week="office", cv=0.08, key="od3"),
   static(GQ, "GCP", "BigQuery", "reports", "Enterprise-Slot-Hour", 200, 0.06, cause=True, start=D(2026, 9, 9)),
   static(GQ, "GCP", "BigQuery", "ml-features", "Enterprise-Slot-Hour", 200, 0.06, cause=True, start=D(2026, 9, 9)),
   static(GQ, "GCP", "BigQuery", "finance", "Enterprise-Slot-Hour", 100, 0.06, cause=True, start=D(2026, 9, 9)),
   L(GQ, "GCP", "BigQuery", "reports", "Active-Logical-Storage-GB", 300000, 0.02 * TPH, kind="storage", grow=0.001, keep=True),
   L(GQ, "GCP", "Dataflow", "ml-features", "vCPU-Hour", 40, 0.056, cv=0.05),
   L(GQ, "GCP", "Cloud Storage", "finance", "Standard-Storage-GB", 120000, 0.020 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 9, 9), sel=lambda l: l.get("key") in ("od1", "od2", "od3"), stop=True)],
  acct=GQ, hist=150)

# 9. Log Analytics: a policy turns on allLogs diagnostic settings in one subscription
S("service", [("Log Analytics", "Cloud_Service")], D(2026, 11, 17),
  "an Azure Policy assignment (deployIfNotExists) turns on the allLogs diagnostic category for every "
  "resource of sub-kite-prod on Tuesday 17 November: Analytics-Logs-Ingestion-GB x3.5 in portal and "
  "orders, and Basic-Logs-Ingestion-GB x2 in portal; Log Analytics retention flat; the VMs and AKS "
  "that emit the logs flat; the data and dev subscriptions in the export flat",
  "two ingestion families over two applications in an export with three subscriptions; the retention "
  "line of the same workspace does not move; the emitting resources are flat",
  [L(ZP, "Azure", "Log Analytics", "portal", "Analytics-Logs-Ingestion-GB", 60, 2.30 / 24, week="req", cv=0.05),
   L(ZP, "Azure", "Log Analytics", "orders", "Analytics-Logs-Ingestion-GB", 40, 2.30 / 24, cv=0.05),
   L(ZP, "Azure", "Log Analytics", "portal", "Basic-Logs-Ingestion-GB", 200, 0.50 / 24, cv=0.05),
   L(ZP, "Azure", "Log Analytics", "orders", "Data-Retention-GB", 30000, 0.10 * TPH, kind="storage", grow=0.001, keep=True),
   L(ZP, "Azure", "Virtual Machines", "portal", "D8s_v5", 40, 0.384, week="req", cv=0.03, integer=True),
   L(ZP, "Azure", "AKS", "orders", "E8s_v5", 24, 0.504, cv=0.03, integer=True),
   L(ZQ, "Azure", "Log Analytics", "lake", "Analytics-Logs-Ingestion-GB", 30, 2.30 / 24, cv=0.05),
   L(ZR, "Azure", "Virtual Machines", "sandbox", "B4ms", 20, 0.166, week="off", cv=0.05, integer=True)],
  [dict(on=D(2026, 11, 17), sel=fam("Analytics-Logs-Ingestion-GB", acct=ZP), count=3.5),
   dict(on=D(2026, 11, 17), sel=fam("Basic-Logs-Ingestion-GB", acct=ZP), count=2.0)],
  acct=ZP, hist=70)

# ================================ family / SKU ===============================================
# 10. Windows Server licence family repriced (licence line separate from the compute line)
S("family", [("Windows-Server-License-vCPU-Hour", "Instance_Family")], D(2026, 1, 20),
  "the Windows Server licence rate included in pay-as-you-go VMs rises +25% on Tuesday 20 January: "
  "the Windows-Server-License-vCPU-Hour lines of erp, pos and reporting (Virtual Machines and the AKS "
  "Windows node pool) move; the compute lines of the same VMs (D8s_v5, E4s_v5) and the Linux fleet flat",
  "a licence SKU billed beside its compute line in the same applications and services: the compute "
  "lines are larger and flat; one family across two services and three applications",
  [L(ZWE, "Azure", "Virtual Machines", "erp", "D8s_v5", 12, 0.384, cv=0.02, integer=True),
   L(ZWE, "Azure", "Virtual Machines", "erp", "Windows-Server-License-vCPU-Hour", 96, 0.046, cv=0.02),
   L(ZWE, "Azure", "Virtual Machines", "reporting", "E4s_v5", 6, 0.252, week="office", cv=0.03, integer=True),
   L(ZWE, "Azure", "Virtual Machines", "reporting", "Windows-Server-License-vCPU-Hour", 24, 0.046, week="office", cv=0.03),
   L(ZWE, "Azure", "AKS", "pos", "D4s_v5", 10, 0.192, week="req", cv=0.03, integer=True),
   L(ZWE, "Azure", "AKS", "pos", "Windows-Server-License-vCPU-Hour", 40, 0.046, week="req", cv=0.03),
   L(ZWE, "Azure", "AKS", "web", "D4ps_v5", 30, 0.154, week="req", cv=0.03, integer=True),
   static(ZWE, "Azure", "Azure SQL Database", "erp", "BC_Gen5_4", 1, 1.36)],
  [dict(on=D(2026, 1, 20), sel=fam("Windows-Server-License-vCPU-Hour"), price=1.25)],
  acct=ZWE, hist=110)

# 11. GitHub Actions: a reusable workflow adds an arm64 leg to every repository's matrix
S("family", [("Actions-Linux-ARM64-4core-Minute", "Instance_Family")], D(2026, 5, 27),
  "the shared CI workflow adds an arm64 leg to every repository's test matrix on Wednesday 27 May: "
  "GitHub Actions Actions-Linux-ARM64-4core-Minute x4 in storefront, api and mobile-backend (the "
  "arm64 leg existed only for release builds); the x86 Actions-Linux-4core-Minute lines, Actions "
  "storage, Copilot seats and the AWS lines (Graviton m7g and x86 m7i fleets) flat",
  "ARM vs x86 families side by side in GitHub Actions and in AWS EC2 of the same applications; only the "
  "GitHub arm64 runner family moves; CI follows office hours",
  [L(MGH, "GitHub", "Actions", "storefront", "Actions-Linux-4core-Minute", 400, 0.016 * 60 / 60, week="office", cv=0.08),
   L(MGH, "GitHub", "Actions", "storefront", "Actions-Linux-ARM64-4core-Minute", 60, 0.01, week="office", cv=0.1),
   L(MGH, "GitHub", "Actions", "api", "Actions-Linux-4core-Minute", 300, 0.016, week="office", cv=0.08),
   L(MGH, "GitHub", "Actions", "api", "Actions-Linux-ARM64-4core-Minute", 40, 0.01, week="office", cv=0.1),
   L(MGH, "GitHub", "Actions", "mobile-backend", "Actions-Linux-ARM64-4core-Minute", 30, 0.01, week="office", cv=0.1),
   L(MGH, "GitHub", "Actions", "api", "Actions-Storage-GB", 2000, 0.25 * TPH, kind="storage", grow=0.001),
   fee(MGH, "GitHub", "Copilot", "shared", "Copilot-Business-Seat", 190 * 19 / 30.0),
   L(MGH, "AWS", "EC2", "api", "m7g.xlarge", 30, 0.1632, week="req", cv=0.03, integer=True),
   L(MGH, "AWS", "EC2", "storefront", "m7i.xlarge", 20, 0.2016, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 5, 27), sel=fam("Actions-Linux-ARM64-4core-Minute"), count=4)],
  acct=MGH, hist=90)

# 12. Fastly: a cache-key change defeats image-optimizer caching
S("family", [("Image-Optimizer-Request-1K", "Instance_Family")], D(2026, 7, 21),
  "a front-end release on Tuesday 21 July adds a per-session query string to every image URL: "
  "Fastly Image-Optimizer-Request-1K x5 in shop, blog and help; Fastly bandwidth and request lines "
  "(served from cache as before) and the GCS origin flat",
  "Fastly beside GCP; the image-optimizer family across three applications while the larger "
  "bandwidth family of the same service and applications is flat; weekly traffic habit",
  [L(MFY, "Fastly", "CDN", "shop", "Bandwidth-NA-GB", 4000, 0.12 / 24, week="req", cv=0.05),
   L(MFY, "Fastly", "CDN", "shop", "Requests-10K", 2000, 0.0075 / 24, week="req", cv=0.05),
   L(MFY, "Fastly", "Image Optimizer", "shop", "Image-Optimizer-Request-1K", 400, 0.3 / 24, week="req", cv=0.05),
   L(MFY, "Fastly", "Image Optimizer", "blog", "Image-Optimizer-Request-1K", 90, 0.3 / 24, cv=0.06),
   L(MFY, "Fastly", "Image Optimizer", "help", "Image-Optimizer-Request-1K", 50, 0.3 / 24, week="req", cv=0.06),
   L(MFY, "Fastly", "CDN", "blog", "Bandwidth-EU-GB", 1200, 0.12 / 24, cv=0.05),
   L(MFY, "GCP", "Cloud Storage", "shop", "Standard-Storage-GB", 80000, 0.020 * TPH, kind="storage", grow=0.001),
   L(MFY, "GCP", "Cloud Run", "help", "CPU-vCPU-Second-K", 30, 0.024, week="req", cv=0.04)],
  [dict(on=D(2026, 7, 21), sel=fam("Image-Optimizer-Request-1K"), count=5)],
  acct=MFY, hist=60)

# 13. Premium SSD v2 provisioned IOPS raised by a disk policy on every disk
S("family", [("PremiumSSDv2-IOPS-Hour", "Instance_Family")], D(2026, 10, 14),
  "a storage baseline applied on Wednesday 14 October sets 12,000 provisioned IOPS on every Premium "
  "SSD v2 disk (was 3,000 free + about 1,000): PremiumSSDv2-IOPS-Hour x6 in erp, pos and web (VM and AKS "
  "disks); the capacity (PremiumSSDv2-GB) and throughput lines of the same disks flat",
  "three families bill one disk (capacity, IOPS, throughput): only IOPS moves; static lines exactly "
  "flat until the day; one family across two services",
  [static(ZWE, "Azure", "Managed Disks", "erp", "PremiumSSDv2-GB", 8192, 0.0000945),
   static(ZWE, "Azure", "Managed Disks", "erp", "PremiumSSDv2-IOPS-Hour", 4000, 0.0000068),
   static(ZWE, "Azure", "Managed Disks", "erp", "PremiumSSDv2-MBps-Hour", 200, 0.0000548),
   static(ZWE, "Azure", "AKS", "pos", "PremiumSSDv2-IOPS-Hour", 6000, 0.0000068),
   static(ZWE, "Azure", "AKS", "web", "PremiumSSDv2-IOPS-Hour", 3000, 0.0000068),
   static(ZWE, "Azure", "AKS", "web", "PremiumSSDv2-GB", 4096, 0.0000945),
   L(ZWE, "Azure", "AKS", "web", "D4ps_v5", 30, 0.154, week="req", cv=0.03, integer=True),
   L(ZWE, "Azure", "Virtual Machines", "erp", "D8s_v5", 12, 0.384, cv=0.02, integer=True)],
  [dict(on=D(2026, 10, 14), sel=fam("PremiumSSDv2-IOPS-Hour"), count=6)],
  acct=ZWE, hist=80, dec=7)

# ================================ region =====================================================
# 14. EC2 on-demand prices in sa-east-1 rise; the same families in us-east-1 flat
S("region", [("EC2", "Cloud_Service")], D(2026, 3, 25),
  "AWS raises EC2 on-demand prices in sa-east-1 (São Paulo) +9% on Wednesday 25 March: m7i and c7g "
  "lines of checkout and search in the sa-east-1 account; RDS and S3 there and the same EC2 families in "
  "the us-east-1 account flat",
  "a region's price change: one account per region in the same file; the same families run flat "
  "in the other region; Graviton and x86 families both move",
  [L(WSA, "AWS", "EC2", "checkout", "m7i.xlarge", 24, 0.32, week="req", cv=0.03, integer=True),
   L(WSA, "AWS", "EC2", "search", "c7g.2xlarge", 12, 0.44, cv=0.02, integer=True),
   static(WSA, "AWS", "RDS", "checkout", "db.r7g.xlarge", 2, 0.76),
   L(WSA, "AWS", "S3", "search", "Standard-Storage-GB", 60000, 0.0405 * TPH, kind="storage", grow=0.001),
   L(WUS, "AWS", "EC2", "checkout", "m7i.xlarge", 80, 0.2016, week="req", cv=0.03, integer=True),
   L(WUS, "AWS", "EC2", "search", "c7g.2xlarge", 40, 0.289, cv=0.02, integer=True)],
  [dict(on=D(2026, 3, 25), sel=svc("EC2", acct=WSA), price=1.09)],
  acct=WSA, hist=100)

# 15. Cloud Run in europe-west3 repriced (+15%) after moving to a tier-2 price
S("region", [("Cloud Run", "Cloud_Service")], D(2026, 6, 16),
  "Cloud Run prices in europe-west3 (Frankfurt) +15% on Tuesday 16 June: the vCPU-second and "
  "memory GiB-second lines of booking and pricing in the europe-west3 project; Cloud SQL and Memorystore "
  "there and Cloud Run in the us-east1 project flat",
  "two families in two applications of a small project beside a larger us-east1 project with the same "
  "services flat; request-based billing follows office hours",
  [L(GFR, "GCP", "Cloud Run", "booking", "CPU-vCPU-Second-K", 80, 0.0336, week="req", cv=0.04),
   L(GFR, "GCP", "Cloud Run", "booking", "Memory-GiB-Second-K", 160, 0.0035, week="req", cv=0.04),
   L(GFR, "GCP", "Cloud Run", "pricing", "CPU-vCPU-Second-K", 40, 0.0336, cv=0.04),
   static(GFR, "GCP", "Cloud SQL", "booking", "db-custom-8-32768", 1, 0.72),
   static(GFR, "GCP", "Memorystore", "pricing", "Redis-Standard-GB", 13, 0.058),
   L(GIA, "GCP", "Cloud Run", "booking", "CPU-vCPU-Second-K", 200, 0.024, week="req", cv=0.04),
   L(GIA, "GCP", "Cloud Run", "pricing", "Memory-GiB-Second-K", 300, 0.0025, cv=0.04)],
  [dict(on=D(2026, 6, 16), sel=svc("Cloud Run", acct=GFR), price=1.15)],
  acct=GFR, hist=130)

# 16. Azure Database for PostgreSQL in japaneast +12%; westeurope flat
S("region", [("Azure Database for PostgreSQL", "Cloud_Service")], D(2026, 9, 29),
  "Azure Database for PostgreSQL flexible server prices in Japan East +12% on Tuesday 29 September: "
  "the vCore and storage lines of loyalty and inventory in the japaneast subscription; App Service "
  "there and the same server SKUs in the westeurope subscription flat",
  "static servers (exactly flat until the day) and growing storage in two applications; the same "
  "SKUs flat in the other region's subscription; a 45-day bill",
  [static(ZJE, "Azure", "Azure Database for PostgreSQL", "loyalty", "GP_Standard_D4ds_v5", 2, 0.44),
   L(ZJE, "Azure", "Azure Database for PostgreSQL", "inventory", "PG-Storage-GB", 4096, 0.138 * TPH, kind="storage", grow=0.002),
   static(ZJE, "Azure", "Azure Database for PostgreSQL", "inventory", "MO_Standard_E4ds_v5", 1, 0.58),
   L(ZJE, "Azure", "App Service", "loyalty", "P1v3", 6, 0.30, week="req", cv=0.03, integer=True),
   static(ZWE, "Azure", "Azure Database for PostgreSQL", "loyalty", "GP_Standard_D4ds_v5", 4, 0.37),
   L(ZWE, "Azure", "AKS", "web", "D4ps_v5", 30, 0.154, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 9, 29), sel=svc("Azure Database for PostgreSQL", acct=ZJE), price=1.12)],
  acct=ZJE, hist=45)

# ================================ application ================================================
# 17. one application spanning three services: verbose tracing left on in checkout
S("application", [("checkout", "Application")], D(2026, 2, 4),
  "a checkout release on Wednesday 4 February ships with DEBUG logging and 100% trace sampling: "
  "checkout's Lambda GB-seconds x1.6, CloudWatch log ingestion x6 and X-Ray traces recorded x10; the "
  "same families in cart and search flat",
  "one application over three services and three families; each family runs flat in other "
  "applications so no service or family holds the change",
  [L(W3, "AWS", "Lambda", "checkout", "Lambda-GB-Second-Million", 0.6, 16.67, week="req", cv=0.05),
   L(W3, "AWS", "CloudWatch", "checkout", "Logs-Ingested-GB", 8, 0.50 / 24, week="req", cv=0.05),
   L(W3, "AWS", "X-Ray", "checkout", "Traces-Recorded-Million", 0.4, 5.0 / 24, week="req", cv=0.05),
   L(W3, "AWS", "Lambda", "cart", "Lambda-GB-Second-Million", 0.9, 16.67, week="req", cv=0.05),
   L(W3, "AWS", "CloudWatch", "cart", "Logs-Ingested-GB", 20, 0.50 / 24, week="req", cv=0.05),
   L(W3, "AWS", "X-Ray", "search", "Traces-Recorded-Million", 0.5, 5.0 / 24, cv=0.05),
   static(W3, "AWS", "DynamoDB", "checkout", "Provisioned-WCU", 2000, 0.00065, keep=True)],
  [dict(on=D(2026, 2, 4), sel=app("checkout", f="Lambda-GB-Second-Million"), count=1.6),
   dict(on=D(2026, 2, 4), sel=app("checkout", f="Logs-Ingested-GB"), count=6),
   dict(on=D(2026, 2, 4), sel=app("checkout", f="Traces-Recorded-Million"), count=10)],
  acct=W3, hist=60)

# 18. tags changing case: "Payments" until 1 June, "payments" after; payments scales on 8 July
S("application", [("payments", "Application")], D(2026, 7, 8),
  "payments onboards a new acquirer on Wednesday 8 July: its EKS nodes x1.7 and its SQS requests x3; "
  "the Application tag was written 'Payments' until 31 May and 'payments' from 1 June (a tagging "
  "policy lower-cased every tag); ledger and the rest flat",
  "tags changing case: a per-application baseline keyed on the exact string sees 'payments' only for "
  "five weeks; two services, two families; the same families flat in ledger",
  [L(W1, "AWS", "EKS", "payments", "m7g.2xlarge", 20, 0.3264, week="req", cv=0.03, integer=True, retag=(D(2026, 6, 1), "Payments")),
   L(W1, "AWS", "SQS", "payments", "Requests-Million", 12, 0.40 / 24, week="req", cv=0.05, retag=(D(2026, 6, 1), "Payments")),
   L(W1, "AWS", "EKS", "ledger", "m7g.2xlarge", 30, 0.3264, cv=0.03, integer=True, retag=(D(2026, 6, 1), "Ledger")),
   L(W1, "AWS", "SQS", "ledger", "Requests-Million", 20, 0.40 / 24, cv=0.05, retag=(D(2026, 6, 1), "Ledger")),
   static(W1, "AWS", "RDS", "ledger", "db.r7g.2xlarge", 2, 0.862),
   L(W1, "AWS", "S3", "payments", "Standard-Storage-GB", 50000, 0.023 * TPH, kind="storage", grow=0.001, keep=True,
     retag=(D(2026, 6, 1), "Payments"))],
  [dict(on=D(2026, 7, 8), sel=app("payments", f="m7g.2xlarge"), count=1.7),
   dict(on=D(2026, 7, 8), sel=app("payments", f="Requests-Million"), count=3)],
  acct=W1, hist=80)

# 19. one application across OpenAI and Azure: assistant enables agentic search
S("application", [("assistant", "Application")], D(2026, 9, 22),
  "assistant turns on multi-step tool use on Tuesday 22 September: its OpenAI input tokens x3 and output "
  "tokens x2, and its Azure AI Search replicas 2 -> 5 (S1 units); search's and triage's lines (same "
  "families and providers) flat; assistant's AKS nodes flat",
  "one application under two providers; the token families run flat in other applications and the "
  "AI Search family runs flat in search; assistant's own AKS line does not move",
  [L(MOA, "OpenAI", "API", "assistant", "gpt-4.1-Input-1K-Tokens", 1500, 0.002, week="office", cv=0.06),
   L(MOA, "OpenAI", "API", "assistant", "gpt-4.1-Output-1K-Tokens", 300, 0.008, week="office", cv=0.06),
   L(MOA, "OpenAI", "API", "triage", "gpt-4.1-Input-1K-Tokens", 800, 0.002, week="office", cv=0.06),
   L(MOA, "OpenAI", "API", "search", "text-embedding-3-large-1K-Tokens", 9000, 0.00013, cv=0.05),
   static(MOA, "Azure", "Azure AI Search", "assistant", "S1-Search-Unit", 2, 0.336),
   static(MOA, "Azure", "Azure AI Search", "search", "S1-Search-Unit", 3, 0.336),
   L(MOA, "Azure", "AKS", "assistant", "D4s_v5", 14, 0.192, week="req", cv=0.03, integer=True, keep=True)],
  [dict(on=D(2026, 9, 22), sel=app("assistant", f="gpt-4.1-Input-1K-Tokens"), count=3),
   dict(on=D(2026, 9, 22), sel=app("assistant", f="gpt-4.1-Output-1K-Tokens"), count=2),
   dict(on=D(2026, 9, 22), sel=app("assistant", f="S1-Search-Unit"), count=2.5)],
  acct=MOA, hist=90)

# 20. SMS pumping fraud on the otp application (Twilio + GCP)
S("application", [("otp", "Application")], D(2026, 12, 2),
  "an SMS-pumping attack on the sign-up form starts on Wednesday 2 December: otp's Twilio Verify "
  "attempts x6 and SMS segments x6, and its Cloud Run CPU x2; notify's messaging lines (same families) "
  "and support's voice flat; otp's Cloud SQL flat",
  "one application under two providers and three services; the SMS family runs flat in notify (the "
  "larger line); Black-Friday and Cyber-Monday peaks of notify (27 and 30 November) in the history",
  [L(MTW, "Twilio", "Verify", "otp", "Verify-Attempt", 900, 0.05, week="req", cv=0.05),
   L(MTW, "Twilio", "Programmable Messaging", "otp", "SMS-Outbound-Segment", 900, 0.0079, week="req", cv=0.05),
   L(MTW, "Twilio", "Programmable Messaging", "notify", "SMS-Outbound-Segment", 4000, 0.0079, week="req", cv=0.05,
     hol={D(2026, 11, 27): 2.5, D(2026, 11, 30): 2.0}),
   L(MTW, "Twilio", "Programmable Voice", "support", "Voice-Outbound-Minute", 400, 0.014, week="office", cv=0.06),
   L(MTW, "GCP", "Cloud Run", "otp", "CPU-vCPU-Second-K", 30, 0.024, week="req", cv=0.04),
   L(MTW, "GCP", "Cloud Run", "notify", "CPU-vCPU-Second-K", 60, 0.024, week="req", cv=0.04,
     hol={D(2026, 11, 27): 2.0, D(2026, 11, 30): 1.7}),
   static(MTW, "GCP", "Cloud SQL", "otp", "db-custom-4-16384", 1, 0.36, keep=True)],
  [dict(on=D(2026, 12, 2), sel=lambda l: l["app"] == "otp" and l["csp"] == "Twilio", count=6),
   dict(on=D(2026, 12, 2), sel=app("otp", f="CPU-vCPU-Second-K"), count=2)],
  acct=MTW, hist=65)

# ================================ resource ===================================================
# 21. Lambda provisioned concurrency raised on one function
S("resource", [("Lambda-Provisioned-Concurrency-GB-Second", "Instance_Family")], D(2026, 1, 14),
  "the pricing function's provisioned concurrency is raised 20 -> 200 for a load test on Wednesday 14 "
  "January and not lowered: its Lambda-Provisioned-Concurrency-GB-Second line x10; its invocation "
  "duration line and every other Lambda function flat",
  "a static line (exactly flat) steps in a service with request-driven lines of the same application; "
  "the New Year dip (24 December - 1 January) is in the history",
  [static(W2, "AWS", "Lambda", "pricing", "Lambda-Provisioned-Concurrency-GB-Second", 40, 0.0000041667 * 3600),
   L(W2, "AWS", "Lambda", "pricing", "Lambda-GB-Second-Million", 0.5, 16.67, week="req", cv=0.05, hol=THX),
   L(W2, "AWS", "Lambda", "search", "Lambda-GB-Second-Million", 0.8, 16.67, week="req", cv=0.05, hol=THX),
   L(W2, "AWS", "API Gateway", "pricing", "HTTP-API-Requests-Million", 3, 1.0 / 24, week="req", cv=0.05, hol=THX),
   static(W2, "AWS", "DynamoDB", "search", "Provisioned-RCU", 3000, 0.00013)],
  [dict(on=D(2026, 1, 14), sel=app("pricing", f="Lambda-Provisioned-Concurrency-GB-Second"), count=10)],
  acct=W2, hist=60)

# 22. a resource renamed mid-bill: legacy-etl -> etl (same line), then its node pool is doubled
S("resource", [("n2-highmem-16", "Instance_Family")], D(2026, 4, 8),
  "the etl Dataproc cluster's secondary workers (n2-highmem-16) are doubled by an autoscaling-policy "
  "edit on Wednesday 8 April: that one line x2; the cluster was renamed legacy-etl -> etl on 2 March (the "
  "same line under the old Application before); etl's Dataproc licence line and the rest flat",
  "a resource renamed mid-bill: its history is under another application name; one line; the "
  "Dataproc-vCPU licence line of the same cluster and service is flat",
  [L(GQ, "GCP", "Dataproc", "etl", "n2-highmem-16", 8, 0.9571, cv=0.03, integer=True, retag=(D(2026, 3, 2), "legacy-etl")),
   L(GQ, "GCP", "Dataproc", "etl", "Dataproc-vCPU-Hour", 192, 0.010, cv=0.02, retag=(D(2026, 3, 2), "legacy-etl")),
   L(GQ, "GCP", "Compute Engine", "reports", "n2-highmem-16", 4, 0.9571, cv=0.02, integer=True),
   L(GQ, "GCP", "BigQuery", "reports", "Analysis-TiB", 1.6, 6.25 / 24, week="office", cv=0.08),
   L(GQ, "GCP", "Cloud Storage", "etl", "Standard-Storage-GB", 200000, 0.020 * TPH, kind="storage", grow=0.001,
     retag=(D(2026, 3, 2), "legacy-etl"))],
  [dict(on=D(2026, 4, 8), sel=app("etl", f="n2-highmem-16"), count=2)],
  acct=GQ, hist=70)

# 23. GitHub Actions storage: artifact retention raised 7 -> 90 days in one repository
S("resource", [("Actions-Storage-GB", "Instance_Family")], D(2026, 8, 12),
  "the mobile-backend repository's artifact retention is raised from 7 to 90 days and a release "
  "workflow uploads nightly simulator images on Wednesday 12 August: that repository's "
  "Actions-Storage-GB line x6 (restored from cold storage the same day); api's Actions storage, all "
  "runner minutes and the AWS lines flat",
  "a storage line growing every day steps; the same family grows flat in another repository; "
  "GitHub beside AWS; a Copilot seat fee billed daily",
  [L(MGH, "GitHub", "Actions", "mobile-backend", "Actions-Storage-GB", 500, 0.25 * TPH * 24, kind="storage", grow=0.002),
   L(MGH, "GitHub", "Actions", "api", "Actions-Storage-GB", 2000, 0.25 * TPH * 24, kind="storage", grow=0.001),
   L(MGH, "GitHub", "Actions", "mobile-backend", "Actions-macOS-Minute", 120, 0.08, week="office", cv=0.08),
   L(MGH, "GitHub", "Actions", "api", "Actions-Linux-4core-Minute", 300, 0.016, week="office", cv=0.08),
   fee(MGH, "GitHub", "Copilot", "shared", "Copilot-Business-Seat", 190 * 19 / 30.0),
   L(MGH, "AWS", "EC2", "api", "m7g.xlarge", 30, 0.1632, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 8, 12), sel=app("mobile-backend", f="Actions-Storage-GB"), count=6)],
  acct=MGH, hist=50)

# 24. S3 Intelligent-Tiering monitoring: one bucket's small-object prefix moved into INT
S("resource", [("IntelligentTiering-Monitoring-1K-Objects", "Instance_Family")], D(2026, 10, 28),
  "a lifecycle rule on Wednesday 28 October moves the thumbnails bucket of media (hundreds of millions "
  "of objects above 128 KB) into Intelligent-Tiering: its IntelligentTiering-Monitoring-1K-Objects line "
  "x12; the tiering storage lines (transitions happen after 30 days) and other buckets flat",
  "a small per-object monitoring line in the storage service grows x12 while the storage lines of the "
  "same bucket are much larger and flat; backups' monitoring line of the same family flat",
  [L(W3, "AWS", "S3", "media", "IntelligentTiering-Monitoring-1K-Objects", 20000, 0.0025 / 24, kind="storage", grow=0.001),
   L(W3, "AWS", "S3", "backups", "IntelligentTiering-Monitoring-1K-Objects", 50000, 0.0025 / 24, kind="storage", grow=0.001),
   L(W3, "AWS", "S3", "media", "IntelligentTiering-FA-Storage-GB", 900000, 0.023 * TPH, kind="storage", grow=0.001),
   L(W3, "AWS", "S3", "media", "Standard-Storage-GB", 400000, 0.023 * TPH, kind="storage", grow=0.001),
   L(W3, "AWS", "S3", "media", "Requests-Tier1-1K", 500, 0.005, week="req", cv=0.06),
   L(W3, "AWS", "CloudFront", "media", "DataTransfer-Out-GB", 2000, 0.085, week="req", cv=0.05)],
  [dict(on=D(2026, 10, 28), sel=app("media", f="IntelligentTiering-Monitoring-1K-Objects"), count=12)],
  acct=W3, hist=95)

# ================================ no anomaly ================================================
# 25. a 13-period retail fiscal year: every period closes on a Saturday 28 days apart
S("none", [], D(2026, 10, 10),
  "no cause: Saturday 10 October 2026 closes fiscal period 9 of a 13-period (4-week) retail year: the "
  "close batch (EMR and Redshift of finance) runs x3 on every period end, always a Saturday, 28 days "
  "apart (never on a calendar month end); 11 earlier period ends are in the 330-day bill",
  "the day is far above the previous Saturdays (weekend low) and not a calendar month or quarter end; "
  "the habit is visible every 4 weeks only",
  [L(W1, "AWS", "EMR", "finance", "r7g.4xlarge", 20, 0.857, cv=0.04, integer=True, hol=FP),
   L(W1, "AWS", "Redshift", "finance", "ra3.4xlarge", 4, 3.26, cv=0.03, hol=FP),
   L(W1, "AWS", "EC2", "stores", "m7g.2xlarge", 60, 0.3264, week="req", cv=0.03, integer=True),
   static(W1, "AWS", "RDS", "stores", "db.r7g.2xlarge", 2, 0.862),
   L(W1, "AWS", "S3", "finance", "Standard-Storage-GB", 300000, 0.023 * TPH, kind="storage", grow=0.001)],
  [], acct=W1, hist=330)

# 26. a planned migration Cloud SQL -> AlloyDB, total flat
S("none", [], D(2026, 5, 6),
  "no cause: the orders database moves from Cloud SQL (2 x db-custom-16-65536 HA and its SSD storage) "
  "to AlloyDB (vCPU and memory hours, cluster storage) on Wednesday 6 May as planned: the Cloud SQL lines "
  "stop and the AlloyDB lines start at the same cost; the total is flat",
  "two services change on the day in opposite directions (new lines without history); a tool naming "
  "'the lines that changed' names AlloyDB or Cloud SQL; the project's total is level",
  [static(GP, "GCP", "Cloud SQL", "orders", "db-custom-16-65536", 2, 1.55, key="o1"),
   static(GP, "GCP", "Cloud SQL", "orders", "SSD-Storage-GB", 2000, 0.17 * TPH, key="o2"),
   static(GP, "GCP", "AlloyDB", "orders", "AlloyDB-vCPU-Hour", 32, (1.55 * 2 + 0.17 * TPH * 2000) * 0.7 / 32, cause=True, start=D(2026, 5, 6)),
   static(GP, "GCP", "AlloyDB", "orders", "AlloyDB-Memory-GB-Hour", 256, (1.55 * 2 + 0.17 * TPH * 2000) * 0.25 / 256, cause=True, start=D(2026, 5, 6)),
   static(GP, "GCP", "AlloyDB", "orders", "AlloyDB-Storage-GB", 1500, (1.55 * 2 + 0.17 * TPH * 2000) * 0.05 / 1500, cause=True, start=D(2026, 5, 6)),
   L(GP, "GCP", "GKE", "orders", "n2-standard-8", 30, 0.3885, week="req", cv=0.03, integer=True),
   L(GP, "GCP", "Cloud Load Balancing", "web", "LB-Data-Processed-GB", 300, 0.008, week="req", cv=0.05)],
  [dict(on=D(2026, 5, 6), sel=lambda l: l.get("key") in ("o1", "o2"), stop=True)],
  acct=GP, hist=120, neutral=True, dec=6)

# 27. GBP subscription at a stable rate; a 3-year reservation bought 3 weeks earlier amortised evenly; Monday batch
S("none", [], D(2026, 6, 29),
  "no cause: Monday 29 June 2026 in a GBP-billed subscription (stable rate): the weekly Monday "
  "reconciliation batch (x1.75 every Monday); a 3-year reserved-instance purchase is amortised evenly "
  "(a fixed daily line of GBP 60 since 8 June, three weeks before); 30 June, the quarter end, is the next day",
  "the day is far above the weekend and level with earlier Mondays; the amortization line started in the "
  "history (8 June) and looks like a new cost but is not on the day; a 90-day bill",
  [L(UKA, "Azure", "Virtual Machines", "ledger", "E8s_v5", 20, 0.40, week="mon", cv=0.03, integer=True),
   fee(UKA, "Azure", "Reservations", "ledger", "RI-E8s_v5-3yr-Amortized", 60.0, start=D(2026, 6, 8)),
   L(UKA, "Azure", "Azure Synapse Analytics", "ledger", "DWU-100", 20, 1.05, week="mon", cv=0.05),
   L(UKA, "Azure", "App Service", "portal", "P2v3", 8, 0.30, week="req", cv=0.03, integer=True),
   L(UKA, "Azure", "Storage", "ledger", "Hot-LRS-GB", 80000, 0.0158 * TPH, kind="storage", grow=0.001)],
  [], acct=UKA, hist=90, cur={UKA: "GBP"})

# 28. the Monday after US Thanksgiving (a 400-day bill with last year's holiday), last day partial
S("none", [], D(2026, 11, 30),
  "no cause: Monday 30 November 2026, the first working day after Thanksgiving week (traffic x0.35-0.8 "
  "from 26 to 29 November; Thanksgiving 2025 and Christmas are in the 400-day bill), which is also a "
  "month end (the invoicing batch x1.6 on every month end); the first and last days of the bill are partial",
  "the day is far above the holiday days just before it and only matches earlier Mondays and earlier "
  "month ends; a bill of 400 days with partial edges",
  [L(W2, "AWS", "EC2", "web", "m7g.xlarge", 80, 0.1632, week="req", cv=0.03, integer=True, hol=THX),
   L(W2, "AWS", "EC2", "invoicing", "c7g.2xlarge", 10, 0.289, week="office", cv=0.04, integer=True, mend=1.6, hol=THX),
   static(W2, "AWS", "RDS", "web", "db.r7g.xlarge", 2, 0.553),
   L(W2, "AWS", "CloudFront", "web", "DataTransfer-Out-GB", 1500, 0.085, week="req", cv=0.05, hol=THX),
   L(W2, "AWS", "S3", "web", "Standard-Storage-GB", 200000, 0.023 * TPH, kind="storage", grow=0.001)],
  [], acct=W2, hist=400, pfirst=0.4, plast=0.25)

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
        elif typ == "Application":  # several families (in one or several services)
            assert len({lines[i]["fam"] for i in ch}) > 1
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
    # set10 shapes: untagged days are written with an empty Application; daylight-saving days scale
    # every metered line (a static line's Num_Instances is n x hours/24); currencies as declared
    for c, sc in zip(cases, SC):
        with open(os.path.join(out, c["scenario"], "data.csv")) as f:
            body = list(csv.reader(f))[1:]
        for ln in sc["lines"]:
            if ln["untag"]:
                for day in ln["untag"]:
                    assert any(r[0] == day.isoformat() and r[1] == ln["acct"] and r[3] == ln["svc"]
                               and r[4] == "" and r[5] == ln["fam"] for r in body), "untagged row missing"
                assert any(r[4] == ln["app"] and r[5] == ln["fam"] for r in body)
        for day, f in sc.get("dst", {}).items():
            if sc["date"] - dt.timedelta(days=sc.get("hist", 42)) < day <= sc["date"]:
                st = [ln for ln in sc["lines"] if ln["kind"] == "static" and not ln["cause"] and ln["acct"] == sc["acct"]]
                assert st, "a DST bill needs a static line to show the hours"
                ln = st[0]
                got = [float(r[7]) for r in body if r[0] == day.isoformat() and r[3] == ln["svc"]
                       and r[4] == ln["app"] and r[5] == ln["fam"]]
                assert got and abs(got[0] - ln["n"] * f) < 0.002, ("DST hours", day, got)
        for acct, cur in sc["cur"].items():
            assert all(r[9] == cur for r in body if r[1] == acct), "currency column"
    # at least two provider-wide bills in accounts holding several providers
    multi = [c for c in cases if c["category"] == "provider" and len(c["providers_in_account"]) > 1]
    assert len(multi) >= 2, multi


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
