#!/usr/bin/env python3
"""finops-set12: held-out ITBench-Lite FinOps cost-anomaly scenarios (blind-fin12): quiet days that look loud.

python3 gen.py OUTDIR   -> OUTDIR/Scenario-<N>/{anomaly.json,data.csv,ground_truth.yaml}
                           and OUTDIR/cases.json (labels; never show it, or ground_truth.yaml, to agents).
Stdlib only, deterministic. The line model, writer and self-check are copied from
measurement/finops-set11/gen.py (itself from sets 8-10); new in set12: `fx` (a billing-currency rate
reset on given dates, applied to every line marked fx=True in both builds), a generalised no-anomaly
check for migrations (flat or cheaper), and the cases.
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


def fx_rate(sc, ln, day):
    """billing-currency rate (relative to the first) in force on `day` for lines marked fx=True."""
    if not ln.get("fx"):
        return 1.0
    r = 1.0
    for on, v in sc.get("fx", []):
        if day >= on:
            r = v
    return r


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
                p = ln["p"] * (1.0 if ln["fixedprice"] else pm) * fx_rate(sc, ln, day)
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



# accounts (new in set12)
A1, A2, A3 = "604417728815", "604417728822", "604417728839"     # AWS member accounts of one organization
AIN, AUS = "604417728846", "604417728853"                       # AWS ap-south-1 / us-east-1 accounts
MSN = "cc-data-snowflake-aws-8812"      # Snowflake + AWS (export in Europe/Berlin)
MOC = "cc-db-oci-azure-3307"            # Oracle Cloud (Database@Azure) + Azure
MMA = "cc-app-atlas-aws-5190"           # MongoDB Atlas + AWS (export in America/New_York)
MDD = "cc-obs-datadog-gcp-7743"         # Datadog + GCP
MCC = "cc-stream-confluent-gcp-2268"    # Confluent Cloud + GCP
ZF, ZM = "sub-fjord-fin-41c9", "sub-fjord-ml-41c9"                   # Azure subscriptions (FY ends 30 June)
ZJP = "sub-fjord-jp-41c9"                                           # a JPY-billed subscription
GA, GB = "fjord-shop-8830", "fjord-core-8830"                       # GCP projects
GAU = "fjord-syd-8830"                                              # GCP project exported in Australia/Sydney

# daylight-saving days in the export's time zone (25 hours = x25/24 on every metered line, 23 = x23/24)
DST_BER = {D(2025, 3, 30): 23 / 24, D(2025, 10, 26): 25 / 24, D(2026, 3, 29): 23 / 24, D(2026, 10, 25): 25 / 24}
DST_NY = {D(2025, 3, 9): 23 / 24, D(2025, 11, 2): 25 / 24, D(2026, 3, 8): 23 / 24, D(2026, 11, 1): 25 / 24}
DST_SYD = {D(2025, 4, 6): 25 / 24, D(2025, 10, 5): 23 / 24, D(2026, 4, 5): 25 / 24, D(2026, 10, 4): 23 / 24}


def p445(fy_start):
    """period ends (Saturdays) of a 4-4-5 fiscal year that starts on the Sunday `fy_start`."""
    out, d = [], fy_start
    for q in range(4):
        for w in (4, 4, 5):
            d = d + dt.timedelta(weeks=w)
            out.append(d - dt.timedelta(days=1))
    return out


# a retailer's 4-4-5 calendar: FY2025 from Sun 29 Dec 2024, FY2026 from Sun 28 Dec 2025 (52 weeks each)
PE445 = p445(D(2024, 12, 29)) + p445(D(2025, 12, 28))
CLOSE445 = {d: 2.6 for d in PE445}                       # the period-close jobs
for d in PE445[2::3]:
    CLOSE445[d] = 3.4                                    # quarter closes (5-week periods) run longer
# fiscal year ending 30 September (month ends x1.5, FY end x3)
FYSEP = {D(2025, 9, 30): 3.0 / 1.5, D(2026, 9, 30): 3.0 / 1.5}
FYJUN = {D(2025, 6, 30): 3.0 / 1.5, D(2026, 6, 30): 3.0 / 1.5}
# Black Friday / Cyber Monday traffic, seen in 2025 and in 2026
BF = {D(2025, 11, 28): 1.9, D(2025, 12, 1): 1.6, D(2026, 11, 27): 1.9, D(2026, 11, 30): 1.6,
      D(2025, 11, 27): 0.6, D(2026, 11, 26): 0.6}
# Golden Week (Japan): 29 Apr and 3-6 May, and the working days between run light
GW = {}
for y in (2025, 2026):
    for md, f in (((4, 29), 0.45), ((4, 30), 0.7), ((5, 1), 0.7), ((5, 2), 0.7), ((5, 3), 0.4),
                  ((5, 4), 0.4), ((5, 5), 0.4), ((5, 6), 0.45)):
        GW[D(y, *md)] = f
# JPY per USD list, reset on each 1st (relative to the first month of the bill); the yen weakened on
# 1 May 2025 the way it did on 1 May 2026
FXJPY = [(D(2025, 3, 1), 1.0), (D(2025, 4, 1), 0.985), (D(2025, 5, 1), 1.042), (D(2025, 6, 1), 1.031),
         (D(2025, 7, 1), 1.02), (D(2025, 8, 1), 1.035), (D(2025, 9, 1), 1.01), (D(2025, 10, 1), 1.025),
         (D(2025, 11, 1), 1.05), (D(2025, 12, 1), 1.047), (D(2026, 1, 1), 1.06), (D(2026, 2, 1), 1.055),
         (D(2026, 3, 1), 1.04), (D(2026, 4, 1), 1.03), (D(2026, 5, 1), 1.085), (D(2026, 6, 1), 1.08)]
SUNS = {D(2024, 12, 29) + dt.timedelta(weeks=k): 3.0 for k in range(110)}   # a weekly Sunday batch

# ================================ provider (CSP) ============================================
# 1. Snowflake capacity contract lapses; the day is the 25-hour day of the Europe/Berlin export
S("provider", [("Snowflake", "CSP")], D(2026, 10, 25),
  "the Snowflake capacity contract ends on Saturday 24 October and is not renewed in time: from Sunday "
  "25 October every Snowflake line (warehouse compute credits in bi and elt, Snowpipe serverless "
  "credits, cloud-services credits, storage TB) is billed at on-demand rates (x1.25); the AWS lines of "
  "the cost centre (EC2, S3, RDS) flat; the day is also the 25-hour day (CEST -> CET) of the Berlin export",
  "the real rise falls on a 25-hour day, when every metered line is +4.2% anyway (the bill shows the "
  "same on 26 Oct 2025 and the 23-hour day in March); Snowflake beside AWS; the ELT warehouse runs "
  "every day and the BI one follows office hours",
  [L(MSN, "Snowflake", "Warehouse Compute", "bi", "Compute-Credits-Medium", 4, 2.6, week="office", cv=0.06),
   L(MSN, "Snowflake", "Warehouse Compute", "elt", "Compute-Credits-Large", 6, 2.6, cv=0.05),
   L(MSN, "Snowflake", "Snowpipe", "elt", "Serverless-Credits", 1.2, 2.6 * 1.25, cv=0.06),
   L(MSN, "Snowflake", "Cloud Services", "bi", "Cloud-Services-Credits", 0.5, 2.6, week="office", cv=0.08),
   L(MSN, "Snowflake", "Storage", "elt", "Storage-TB", 180, 23.0 * TPH, kind="storage", grow=0.001),
   static(MSN, "AWS", "RDS", "elt", "db.r7g.large", 2, 0.269),
   L(MSN, "AWS", "EC2", "elt", "m7g.2xlarge", 10, 0.3264, cv=0.03, integer=True),
   L(MSN, "AWS", "S3", "bi", "Standard-Storage-GB", 150000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 10, 25), sel=csp("Snowflake"), price=1.25)],
  acct=MSN, hist=220, dst=DST_BER)

# 2. Oracle Cloud (Database@Azure) universal-credit commitment ends with the fiscal year, beside Azure
S("provider", [("Oracle Cloud", "CSP")], D(2026, 7, 1),
  "the Oracle Universal Credits annual commitment (a 23% discount) ends with the customer's fiscal year "
  "on 30 June: from Wednesday 1 July every Oracle Cloud usage line (Exadata ECPU hours of erp and hr, "
  "Autonomous Database ECPU of hr, Exadata storage, Object Storage) costs 1/0.77 more; the monthly "
  "Exadata infrastructure fee keeps its amount; the Azure lines (VMs, Azure Monitor, Storage) flat",
  "a 1st of the month with monthly fees (the Oracle infrastructure fee and an Azure support plan) and the "
  "first day of a fiscal year; Oracle beside Azure in one cost centre; Exadata ECPU static until the day",
  [static(MOC, "Oracle Cloud", "Exadata Database Service", "erp", "Exadata-ECPU-Hour", 48, 0.336 * 0.77),
   static(MOC, "Oracle Cloud", "Exadata Database Service", "hr", "Exadata-ECPU-Hour", 16, 0.336 * 0.77),
   L(MOC, "Oracle Cloud", "Autonomous Database", "hr", "ADB-ECPU-Hour", 12, 0.336 * 0.77, week="office", cv=0.05),
   L(MOC, "Oracle Cloud", "Exadata Database Service", "erp", "Exadata-Storage-GB", 40000, 0.0425 * TPH * 0.77, kind="storage", grow=0.001),
   L(MOC, "Oracle Cloud", "Object Storage", "erp", "Object-Storage-GB", 90000, 0.0255 * TPH * 0.77, kind="storage", grow=0.001),
   fee(MOC, "Oracle Cloud", "Exadata Database Service", "erp", "Exadata-Infrastructure-Monthly", 9800.0, only1=True),
   fee(MOC, "Azure", "Support", "shared", "ProDirect-Support-Monthly", 1000.0, only1=True),
   L(MOC, "Azure", "Virtual Machines", "erp", "E8s_v5", 16, 0.504, cv=0.02, integer=True),
   L(MOC, "Azure", "Azure Monitor", "hr", "Analytics-Logs-Ingestion-GB", 30, 2.30 / 24, week="office", cv=0.05),
   L(MOC, "Azure", "Storage", "erp", "Hot-LRS-GB", 60000, 0.0184 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 7, 1), sel=csp("Oracle Cloud"), price=1 / 0.77)],
  acct=MOC, hist=150)

# ================================ service ===================================================
# 3. a VM-family migration that costs 40% more (n2 -> c4) in Compute Engine, beside Datadog
S("service", [("Compute Engine", "Cloud_Service")], D(2026, 4, 14),
  "the platform team migrates the checkout and search VM groups from n2-standard-8 to c4-standard-8 on "
  "Tuesday 14 April expecting the same cost; c4 lacks the committed-use discount the n2 fleet had and "
  "the groups keep their size: the n2 lines stop and c4 lines start at x1.4 the cost; GKE, Cloud SQL "
  "and the Datadog lines (hosts, APM, logs) flat",
  "looks like a planned migration (lines stop and start in one service, host counts unchanged), but "
  "the new lines cost 40% more; two applications, two families; Datadog beside GCP",
  [L(MDD, "GCP", "Compute Engine", "checkout", "n2-standard-8", 24, 0.3885 * 0.63, week="req", cv=0.03, integer=True, key="n1"),
   L(MDD, "GCP", "Compute Engine", "search", "n2-standard-8", 16, 0.3885 * 0.63, cv=0.03, integer=True, key="n2"),
   L(MDD, "GCP", "Compute Engine", "checkout", "c4-standard-8", 24, 0.3885 * 0.63 * 1.4, week="req", cv=0.03, integer=True, cause=True, start=D(2026, 4, 14)),
   L(MDD, "GCP", "Compute Engine", "search", "c4-standard-8", 16, 0.3885 * 0.63 * 1.4, cv=0.03, integer=True, cause=True, start=D(2026, 4, 14)),
   L(MDD, "GCP", "GKE", "checkout", "e2-standard-8", 20, 0.268, week="req", cv=0.03, integer=True),
   static(MDD, "GCP", "Cloud SQL", "search", "db-custom-8-32768", 1, 0.62),
   static(MDD, "Datadog", "Infrastructure", "shared", "Infra-Host-Pro", 60, 15.0 * TPH),
   static(MDD, "Datadog", "APM", "checkout", "APM-Host", 24, 31.0 * TPH),
   L(MDD, "Datadog", "Log Management", "search", "Logs-Ingested-GB", 120, 0.10 / 24, week="req", cv=0.05)],
  [dict(on=D(2026, 4, 14), sel=lambda l: l.get("key") in ("n1", "n2"), stop=True)],
  acct=MDD, hist=100)

# 4. a new service (Bedrock) whose lines are not a migration, on the 23-hour day of the New York export
S("service", [("Amazon Bedrock", "Cloud_Service")], D(2026, 3, 8),
  "support and search start calling Amazon Bedrock on Sunday 8 March (a feature flag flipped for every "
  "tenant): new lines for Claude input and output tokens (support) and Titan embeddings (search); "
  "nothing stops or falls elsewhere (it is not a migration); MongoDB Atlas, EC2 and Lambda flat; the "
  "day is the 23-hour day (EST -> EDT) of the America/New_York export",
  "new lines without history on a day when every other metered line is 23/24 of a Sunday, so the "
  "account's total moves little while a new service appears; MongoDB Atlas beside AWS",
  [static(MMA, "MongoDB Atlas", "Dedicated Cluster", "support", "M40-Instance-Hour", 3, 1.04),
   static(MMA, "MongoDB Atlas", "Dedicated Cluster", "search", "M30-Instance-Hour", 3, 0.54),
   L(MMA, "MongoDB Atlas", "Data Transfer", "search", "Transfer-Inter-Region-GB", 40, 0.02, week="req", cv=0.05),
   L(MMA, "MongoDB Atlas", "Backup", "support", "Backup-Snapshot-GB", 3000, 0.14 * TPH, kind="storage", grow=0.001),
   L(MMA, "AWS", "EC2", "support", "m7i.xlarge", 18, 0.2016, week="req", cv=0.03, integer=True),
   L(MMA, "AWS", "Lambda", "search", "Lambda-GB-Second-Million", 0.3, 16.67, week="req", cv=0.05),
   L(MMA, "AWS", "Amazon Bedrock", "support", "Claude-Sonnet-Input-1K-Tokens", 900, 0.003, week="req", cv=0.06, cause=True, start=D(2026, 3, 8)),
   L(MMA, "AWS", "Amazon Bedrock", "support", "Claude-Sonnet-Output-1K-Tokens", 150, 0.015, week="req", cv=0.06, cause=True, start=D(2026, 3, 8)),
   L(MMA, "AWS", "Amazon Bedrock", "search", "Titan-Embed-Text-1K-Tokens", 4000, 0.0001, week="req", cv=0.06, cause=True, start=D(2026, 3, 8))],
  [], acct=MMA, hist=130, dst=DST_NY)

# 5. Dataproc close jobs run 2.2x longer, on a 4-4-5 period end (a Saturday the close always runs)
S("service", [("Dataproc", "Cloud_Service")], D(2026, 6, 27),
  "a Dataproc image upgrade on Saturday 27 June (the end of fiscal period 6 of a 4-4-5 calendar, a quarter "
  "close) turns off adaptive query execution: the close jobs of finance and ledger run 2.2x longer "
  "(Dataproc-vCPU-Hour of both, Dataproc-Premium-Shuffle-GB of ledger); GKE, Cloud Storage, Cloud SQL flat",
  "the day is a 4-4-5 period end (a Saturday, not a month end) when the Dataproc close jobs already run "
  "x2.6 (x3.4 at quarter closes, as on 29 March and 28 June 2025 in the bill); the real rise sits on top",
  [L(GB, "GCP", "Dataproc", "finance", "Dataproc-vCPU-Hour", 64, 0.010 + 0.0475, cv=0.05, hol=CLOSE445),
   L(GB, "GCP", "Dataproc", "ledger", "Dataproc-vCPU-Hour", 96, 0.010 + 0.0475, cv=0.05, hol=CLOSE445),
   L(GB, "GCP", "Dataproc", "ledger", "Dataproc-Premium-Shuffle-GB", 300, 0.1 / 24, cv=0.06, hol=CLOSE445),
   L(GB, "GCP", "GKE", "stores", "n2-standard-8", 40, 0.3885, week="req", cv=0.03, integer=True),
   L(GB, "GCP", "Cloud Storage", "ledger", "Standard-Storage-GB", 250000, 0.020 * TPH, kind="storage", grow=0.001),
   static(GB, "GCP", "Cloud SQL", "stores", "db-custom-16-65536", 1, 1.55)],
  [dict(on=D(2026, 6, 27), sel=svc("Dataproc"), count=2.2)],
  acct=GB, hist=460)

# ================================ family / SKU ===============================================
# 6. NAT gateway data processed, on the Monday of the weekly batch
S("family", [("NatGateway-Bytes-GB", "Instance_Family")], D(2026, 2, 9),
  "a Terraform change on Monday 9 February deletes the ECR and S3 VPC endpoints: image pulls and S3 "
  "reads of orders, catalog and search go through the NAT gateways: NatGateway-Bytes-GB x4 in the "
  "three applications; NatGateway-Hours and the EC2/EMR lines flat",
  "the day is the Monday of the weekly EMR reconciliation batch (x1.75 every Monday, visible in the "
  "bill); the NAT family is small beside the batch; its hourly family in the same service is flat",
  [L(A1, "AWS", "VPC", "orders", "NatGateway-Bytes-GB", 60, 0.045, week="req", cv=0.05),
   L(A1, "AWS", "VPC", "catalog", "NatGateway-Bytes-GB", 35, 0.045, week="req", cv=0.05),
   L(A1, "AWS", "VPC", "search", "NatGateway-Bytes-GB", 20, 0.045, cv=0.05),
   static(A1, "AWS", "VPC", "shared", "NatGateway-Hours", 3, 0.045),
   L(A1, "AWS", "EMR", "orders", "m7g.4xlarge", 20, 0.6528 + 0.163, week="mon", cv=0.04),
   L(A1, "AWS", "EC2", "catalog", "m7g.2xlarge", 36, 0.3264, week="req", cv=0.03, integer=True),
   L(A1, "AWS", "S3", "orders", "Standard-Storage-GB", 200000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 2, 9), sel=fam("NatGateway-Bytes-GB"), count=4)],
  acct=A1, hist=75)

# 7. Fargate vCPU doubled in the Black Friday readiness change, on Black Friday
S("family", [("Fargate-vCPU-Hour", "Instance_Family")], D(2026, 11, 27),
  "a Black Friday readiness change on Friday 27 November doubles the CPU of every ECS task definition "
  "(memory unchanged): Fargate-vCPU-Hour x2 in storefront, cart and checkout; Fargate-GB-Hour of the same "
  "tasks, CloudFront, DynamoDB and RDS flat (apart from the Black Friday traffic they always see)",
  "the day is Black Friday, when traffic lines are x1.9 (the 400-day bill shows 28 Nov 2025 the same way); "
  "the vCPU family moves across three applications while the memory family of the same tasks does not",
  [L(A3, "AWS", "ECS", "storefront", "Fargate-vCPU-Hour", 80, 0.04048, week="req", cv=0.04, hol=BF),
   L(A3, "AWS", "ECS", "storefront", "Fargate-GB-Hour", 320, 0.004445, week="req", cv=0.04, hol=BF),
   L(A3, "AWS", "ECS", "cart", "Fargate-vCPU-Hour", 40, 0.04048, week="req", cv=0.04, hol=BF),
   L(A3, "AWS", "ECS", "cart", "Fargate-GB-Hour", 160, 0.004445, week="req", cv=0.04, hol=BF),
   L(A3, "AWS", "ECS", "checkout", "Fargate-vCPU-Hour", 24, 0.04048, week="req", cv=0.04, hol=BF),
   L(A3, "AWS", "CloudFront", "storefront", "DataTransfer-Out-GB", 900, 0.085, week="req", cv=0.05, hol=BF),
   L(A3, "AWS", "DynamoDB", "cart", "WriteRequestUnits-Million", 3, 1.25 / 24 * 24, week="req", cv=0.05, hol=BF),
   static(A3, "AWS", "RDS", "checkout", "db.r7g.xlarge", 2, 0.478)],
  [dict(on=D(2026, 11, 27), sel=fam("Fargate-vCPU-Hour"), count=2)],
  acct=A3, hist=400)

# ================================ region =====================================================
# 8. RDS prices in ap-south-1 rise on the fiscal-year end (30 September)
S("region", [("RDS", "Cloud_Service")], D(2026, 9, 30),
  "AWS raises RDS prices in ap-south-1 (Mumbai) +10% on Wednesday 30 September: the db.r7g instance "
  "lines of payments and ledger and the gp3 storage of payments in the ap-south-1 account; EC2 and S3 "
  "there and the same RDS families in the us-east-1 account flat",
  "the day is the company's fiscal-year end (30 September: the ledger batch runs x3, every month end "
  "x1.5; 30 Sep 2025 is in the 400-day bill); a region's price change seen as one service of one account",
  [static(AIN, "AWS", "RDS", "payments", "db.r7g.xlarge", 2, 0.52),
   static(AIN, "AWS", "RDS", "ledger", "db.r7g.large", 2, 0.26),
   L(AIN, "AWS", "RDS", "payments", "gp3-Storage-GB", 4000, 0.131 * TPH, kind="storage", grow=0.001),
   L(AIN, "AWS", "EC2", "ledger", "c7g.2xlarge", 8, 0.2752, cv=0.04, integer=True, mend=1.5, hol=FYSEP),
   L(AIN, "AWS", "EC2", "payments", "m7g.xlarge", 20, 0.1632, week="req", cv=0.03, integer=True),
   L(AIN, "AWS", "S3", "ledger", "Standard-Storage-GB", 90000, 0.025 * TPH, kind="storage", grow=0.001),
   static(AUS, "AWS", "RDS", "payments", "db.r7g.xlarge", 4, 0.478),
   L(AUS, "AWS", "EC2", "ledger", "c7g.2xlarge", 10, 0.289, cv=0.04, integer=True, mend=1.5, hol=FYSEP)],
  [dict(on=D(2026, 9, 30), sel=svc("RDS", acct=AIN), price=1.10)],
  acct=AIN, hist=400)

# ================================ application ================================================
# 9. reco scales up across GCP and Confluent, on the Sunday of the weekly ETL batch
S("application", [("reco", "Application")], D(2026, 9, 13),
  "reco switches to a two-tower model on Sunday 13 September: its GKE node pool x1.6, its Memorystore "
  "instance x2 and its Confluent topic partitions x3 (Partition-Hour); etl, web and the other Confluent "
  "and GCP lines flat",
  "the day is the Sunday of the weekly ETL batch (Dataflow and Confluent throughput of etl x3 every "
  "Sunday, in the bill); reco's change spans two providers, three services and three families",
  [L(MCC, "GCP", "GKE", "reco", "n2-highmem-8", 12, 0.524, cv=0.03, integer=True),
   static(MCC, "GCP", "Memorystore", "reco", "Redis-Standard-M3-GB", 26, 0.054),
   static(MCC, "Confluent Cloud", "Kafka Dedicated", "reco", "Partition-Hour", 300, 0.0015),
   static(MCC, "Confluent Cloud", "Kafka Dedicated", "shared", "CKU-Hour", 2, 2.25),
   L(MCC, "Confluent Cloud", "Kafka Dedicated", "etl", "Throughput-Write-GB", 80, 0.05 / 24 * 24 / 24, cv=0.05, hol=SUNS),
   L(MCC, "GCP", "Dataflow", "etl", "vCPU-Hour", 60, 0.056, cv=0.05, hol=SUNS),
   L(MCC, "GCP", "GKE", "web", "n2-standard-4", 20, 0.194, week="req", cv=0.03, integer=True),
   L(MCC, "GCP", "Cloud Storage", "etl", "Standard-Storage-GB", 100000, 0.020 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 9, 13), sel=app("reco"), count=1.6),
   dict(on=D(2026, 9, 13), sel=app("reco", f="Redis-Standard-M3-GB"), count=2 / 1.6),
   dict(on=D(2026, 9, 13), sel=app("reco", f="Partition-Hour"), count=3 / 1.6)],
  acct=MCC, hist=90)

# 10. kiosk scales up in a JPY-billed subscription, on the 1st when the monthly JPY rate resets
S("application", [("kiosk", "Application")], D(2026, 6, 1),
  "kiosk is moved to a higher tier on Monday 1 June for a store roll-out: its App Service plan x2 "
  "(P2v3 -> 2 x P2v3), its Azure SQL database x2 vCores and its Front Door requests x1.5; pos and "
  "reporting flat",
  "a JPY-billed subscription: every USD-priced line is converted at a rate reset on each 1st (the bill "
  "shows month steps of -1.5% to +5%, the yen moving the same way on 1 June 2025); the day is a 1st and "
  "a Monday; the application's rise sits on top of a -0.5% rate move of every line",
  [L(ZJP, "Azure", "App Service", "kiosk", "P2v3", 4, 0.40 * 150, week="req", cv=0.02, integer=True, fx=True),
   static(ZJP, "Azure", "Azure SQL Database", "kiosk", "GP_Gen5_4", 1, 0.50 * 150, fx=True),
   L(ZJP, "Azure", "Front Door", "kiosk", "Requests-10K", 300, 0.009 * 150 / 24, week="req", cv=0.05, fx=True),
   L(ZJP, "Azure", "App Service", "pos", "P2v3", 10, 0.40 * 150, week="req", cv=0.02, integer=True, fx=True),
   static(ZJP, "Azure", "Azure SQL Database", "pos", "GP_Gen5_8", 1, 1.00 * 150, fx=True),
   L(ZJP, "Azure", "Virtual Machines", "reporting", "D4s_v5", 6, 0.192 * 150, week="office", cv=0.03, integer=True, fx=True),
   L(ZJP, "Azure", "Storage", "reporting", "Hot-LRS-GB", 50000, 0.0184 * 150 * TPH, kind="storage", grow=0.001, fx=True)],
  [dict(on=D(2026, 6, 1), sel=app("kiosk"), count=2.0),
   dict(on=D(2026, 6, 1), sel=app("kiosk", f="Requests-10K"), count=1.5 / 2.0)],
  acct=ZJP, hist=420, cur={ZJP: "JPY"}, fx=FXJPY, dec=4)

# ================================ resource ===================================================
# 11. one training VM scale set, on the fiscal-year end (30 June)
S("resource", [("NC24ads_A100_v4", "Instance_Family")], D(2026, 6, 30),
  "a training job of ml-train on Tuesday 30 June is restarted with three times the nodes and never "
  "scales back: the NC24ads_A100_v4 line of ml-train x3; the same GPU family in vision, and the rest flat",
  "the day is the company's fiscal-year end (30 June: the finance close on Synapse runs x3, every "
  "month end x1.5; 30 Jun 2025 is in the bill); the GPU family runs flat in another application",
  [L(ZM, "Azure", "Virtual Machines", "ml-train", "NC24ads_A100_v4", 2, 3.673, cv=0.03),
   L(ZM, "Azure", "Virtual Machines", "vision", "NC24ads_A100_v4", 3, 3.673, cv=0.03),
   L(ZM, "Azure", "Azure Machine Learning", "vision", "Managed-Endpoint-D4s_v5", 4, 0.192, cv=0.02, integer=True),
   L(ZM, "Azure", "Azure Synapse Analytics", "finance", "DWU-100", 10, 1.20, week="office", cv=0.05, mend=1.5, hol=FYJUN),
   static(ZM, "Azure", "Storage", "ml-train", "Premium-Files-GB", 20000, 0.16 * TPH),
   L(ZF, "Azure", "Azure Synapse Analytics", "finance", "DWU-100", 20, 1.20, week="office", cv=0.05, mend=1.5, hol=FYJUN)],
  [dict(on=D(2026, 6, 30), sel=fam("NC24ads_A100_v4", app="ml-train"), count=3)],
  acct=ZM, hist=380)

# 12. one Glacier retrieval line, on a 1st with monthly fees
S("resource", [("Glacier-Expedited-Retrieval-GB", "Instance_Family")], D(2026, 9, 1),
  "a restore test on Tuesday 1 September uses expedited retrievals for the whole archive of backups: "
  "the Glacier-Expedited-Retrieval-GB line of backups x25; the bulk and standard retrievals of "
  "compliance, storage and the rest flat",
  "a 1st of the month: the AWS Support and Shield Advanced monthly fees are billed that day and the "
  "monthly reports run x2 on every 1st; the retrieval line is small beside the fees",
  [L(A2, "AWS", "S3 Glacier", "backups", "Glacier-Expedited-Retrieval-GB", 10, 0.03, cv=0.2),
   L(A2, "AWS", "S3 Glacier", "compliance", "Glacier-Standard-Retrieval-GB", 20, 0.01 / 24 * 24 / 24, cv=0.2),
   L(A2, "AWS", "S3 Glacier", "backups", "Glacier-Deep-Archive-GB", 2000000, 0.00099 * TPH, kind="storage", grow=0.0005),
   fee(A2, "AWS", "AWS Support", "shared", "Business-Support-Monthly", 2400.0, only1=True),
   fee(A2, "AWS", "AWS Shield", "shared", "Shield-Advanced-Monthly", 3000.0, only1=True),
   L(A2, "AWS", "EC2", "reports", "r7g.2xlarge", 6, 0.4284, week="office", cv=0.04, month1=2.0),
   L(A2, "AWS", "EC2", "backups", "m7g.large", 8, 0.0816, cv=0.02, integer=True)],
  [dict(on=D(2026, 9, 1), sel=fam("Glacier-Expedited-Retrieval-GB"), count=25)],
  acct=A2, hist=180)

# ================================ no anomaly ================================================
# N1. the 25-hour day of the New York export, which is also a 1st with monthly fees
S("none", [], D(2026, 11, 1),
  "no cause: Sunday 1 November 2026 is the 25-hour day (EDT -> EST) of the America/New_York export "
  "(every metered line x25/24, as on 2 Nov 2025; 8 Mar 2026 was a 23-hour day; both are in the bill) "
  "and a 1st: the MongoDB Atlas support fee and the AWS Business Support fee are billed, and the monthly "
  "usage report runs x2 on every 1st",
  "three reasons for a loud Sunday at once (25 hours, monthly fees, the monthly report), all of which "
  "the bill shows earlier (fees and reports on every 1st, the 23-hour day in March); nothing changed",
  [static(MMA, "MongoDB Atlas", "Dedicated Cluster", "accounts", "M50-Instance-Hour", 3, 2.00),
   L(MMA, "MongoDB Atlas", "Data Transfer", "accounts", "Transfer-Internet-GB", 60, 0.09, week="req", cv=0.05),
   fee(MMA, "MongoDB Atlas", "Support", "shared", "Atlas-Developer-Support-Monthly", 1800.0, only1=True),
   fee(MMA, "AWS", "AWS Support", "shared", "Business-Support-Monthly", 2100.0, only1=True),
   L(MMA, "AWS", "EC2", "accounts", "m7i.xlarge", 24, 0.2016, week="req", cv=0.03, integer=True),
   L(MMA, "AWS", "EC2", "reports", "r7i.2xlarge", 4, 0.5292, week="office", cv=0.04, month1=2.0),
   L(MMA, "AWS", "S3", "accounts", "Standard-Storage-GB", 120000, 0.023 * TPH, kind="storage", grow=0.001)],
  [], acct=MMA, hist=370, dst=DST_NY)

# N2. the 23-hour day of the Australia/Sydney export (no fees)
S("none", [], D(2026, 10, 4),
  "no cause: Sunday 4 October 2026 is the 23-hour day (AEST -> AEDT) of the Australia/Sydney export: "
  "every metered line x23/24; the 25-hour day of 5 April 2026 is in the bill",
  "a Sunday 4% below the previous Sundays with no fee and no change; the export is in a southern-"
  "hemisphere zone, so its short day is in October, not March",
  [static(GAU, "GCP", "Cloud SQL", "bookings", "db-custom-8-32768", 2, 0.62),
   L(GAU, "GCP", "GKE", "bookings", "n2-standard-8", 30, 0.4275, week="req", cv=0.03, integer=True),
   L(GAU, "GCP", "Cloud Run", "web", "CPU-vCPU-Second-K", 40, 0.0264, week="req", cv=0.04),
   L(GAU, "GCP", "Cloud Storage", "web", "Standard-Storage-GB", 70000, 0.023 * TPH, kind="storage", grow=0.001),
   L(GAU, "GCP", "Networking", "bookings", "Egress-Internet-GB", 400, 0.12 / 24, week="req", cv=0.05)],
  [], acct=GAU, hist=200, dst=DST_SYD)

# N3. a 4-4-5 fiscal quarter close on a Saturday
S("none", [], D(2026, 9, 26),
  "no cause: Saturday 26 September 2026 closes the 5-week period 9 (Q3) of a 4-4-5 fiscal calendar: "
  "the Redshift and Glue close jobs of finance run x3.4 (x2.6 on other period ends); every period end "
  "since 27 Sep 2025 is in the bill (Saturdays 4 or 5 weeks apart, never a month end)",
  "a Saturday far above the previous Saturdays; 30 September, the calendar quarter end, is four days "
  "later; only a tool that finds the 4/4/5-week rhythm in the bill explains it",
  [L(A2, "AWS", "Redshift", "finance", "ra3.4xlarge", 4, 3.26, cv=0.03, hol=CLOSE445),
   L(A2, "AWS", "Glue", "finance", "Glue-DPU-Hour", 20, 0.44, cv=0.05, hol=CLOSE445),
   L(A2, "AWS", "EC2", "stores", "m7g.2xlarge", 50, 0.3264, week="req", cv=0.03, integer=True),
   static(A2, "AWS", "RDS", "stores", "db.r7g.2xlarge", 2, 0.862),
   L(A2, "AWS", "S3", "finance", "Standard-Storage-GB", 250000, 0.023 * TPH, kind="storage", grow=0.001)],
  [], acct=A2, hist=370)

# N4. a fiscal year ending 30 September
S("none", [], D(2026, 9, 30),
  "no cause: Wednesday 30 September 2026 is the fiscal-year end of a company whose year ends 30 "
  "September: the BigQuery and Dataflow close jobs of finance run x3 (month ends x1.5); 30 Sep 2025 is in "
  "the 420-day bill and looks the same",
  "a weekday far above the previous ones and twice a month end; the calendar year end and calendar "
  "quarter pattern do not explain it, only the bill's own 30 Sep 2025",
  [L(GA, "GCP", "BigQuery", "finance", "Analysis-TiB", 1.5, 6.25 / 24, week="office", cv=0.08, mend=1.5, hol=FYSEP),
   L(GA, "GCP", "Dataflow", "finance", "vCPU-Hour", 30, 0.056, cv=0.05, mend=1.5, hol=FYSEP),
   L(GA, "GCP", "GKE", "shop", "n2-standard-8", 40, 0.3885, week="req", cv=0.03, integer=True),
   static(GA, "GCP", "Cloud SQL", "shop", "db-custom-8-32768", 2, 0.62),
   L(GA, "GCP", "Cloud Storage", "finance", "Standard-Storage-GB", 150000, 0.020 * TPH, kind="storage", grow=0.001)],
  [], acct=GA, hist=420)

# N5. a planned migration from self-managed Kafka on EC2 to Amazon MSK, total flat
_K = 6 * 0.4032 + 6 * 2000 * 0.08 * TPH        # the old cost per hour: 6 brokers + their EBS
S("none", [], D(2026, 7, 16),
  "no cause: the events platform moves from self-managed Kafka on EC2 (6 x m7i.2xlarge and gp3 volumes) to "
  "Amazon MSK (broker hours and MSK storage) on Thursday 16 July as planned, at the same cost: the EC2 "
  "and EBS lines of events stop, the MSK lines start; the total is flat",
  "two services change on the day in opposite directions (MSK lines are new); a tool naming the "
  "lines that changed names MSK or EC2; the account's total is level",
  [static(A3, "AWS", "EC2", "events", "m7i.2xlarge", 6, 0.4032, key="k1"),
   static(A3, "AWS", "EBS", "events", "gp3-Storage-GB", 12000, 0.08 * TPH, key="k2"),
   static(A3, "AWS", "Amazon MSK", "events", "kafka.m7g.xlarge", 6, _K * 0.85 / 6, cause=True, start=D(2026, 7, 16)),
   static(A3, "AWS", "Amazon MSK", "events", "MSK-Storage-GB", 12000, _K * 0.15 / 12000, cause=True, start=D(2026, 7, 16)),
   L(A3, "AWS", "EC2", "orders", "m7g.xlarge", 30, 0.1632, week="req", cv=0.03, integer=True),
   L(A3, "AWS", "DynamoDB", "orders", "WriteRequestUnits-Million", 2, 1.25, week="req", cv=0.05)],
  [dict(on=D(2026, 7, 16), sel=lambda l: l.get("key") in ("k1", "k2"), stop=True)],
  acct=A3, hist=110, mig=1.0, dec=6)

# N6. a region move us-east4 -> us-central1 in Compute Engine, 5% cheaper
S("none", [], D(2026, 8, 19),
  "no cause: the search VM group moves from us-east4 to us-central1 on Wednesday 19 August as planned "
  "(a region SKU change inside Compute Engine: N2 core and RAM SKUs of us-east4 stop, those of "
  "us-central1 start), 5% cheaper; Datadog hosts unchanged",
  "lines stop and start in one service and application (a SKU/region migration); the cost falls, it "
  "does not rise: nothing to blame",
  [static(MDD, "GCP", "Compute Engine", "search", "N2-Instance-Core-us-east4", 96, 0.0356, key="e1"),
   static(MDD, "GCP", "Compute Engine", "search", "N2-Instance-Ram-us-east4", 384, 0.00477, key="e2"),
   static(MDD, "GCP", "Compute Engine", "search", "N2-Instance-Core-us-central1", 96, 0.0356 * 0.95, cause=True, start=D(2026, 8, 19)),
   static(MDD, "GCP", "Compute Engine", "search", "N2-Instance-Ram-us-central1", 384, 0.00477 * 0.95, cause=True, start=D(2026, 8, 19)),
   L(MDD, "GCP", "GKE", "web", "e2-standard-8", 24, 0.268, week="req", cv=0.03, integer=True),
   static(MDD, "Datadog", "Infrastructure", "shared", "Infra-Host-Pro", 40, 15.0 * TPH),
   L(MDD, "Datadog", "Log Management", "web", "Logs-Ingested-GB", 90, 0.10 / 24, week="req", cv=0.05)],
  [dict(on=D(2026, 8, 19), sel=lambda l: l.get("key") in ("e1", "e2"), stop=True)],
  acct=MDD, hist=140, mig=0.95, dec=6)

# N7. a Compute Savings Plan bought on the day and amortised, on the Monday of the weekly batch
S("none", [], D(2026, 10, 12),
  "no cause: a 1-year Compute Savings Plan (no upfront) starts on Monday 12 October: 60% of the api "
  "m7i fleet is now covered (its on-demand line falls to 40%) and a fixed daily amortisation line appears "
  "at 72% of the covered on-demand cost; the batch plan bought on 1 June is amortised the same way in the "
  "bill; Monday is the weekly EMR batch (x1.75 every Monday)",
  "a new fixed line appears on the day and the day is the loud Monday of the batch, but the account's "
  "cost falls (the commitment is cheaper than the on-demand it replaces)",
  [L(A1, "AWS", "EC2", "api", "m7i.xlarge", 50, 0.2016, cv=0.03, integer=True),
   fee(A1, "AWS", "Savings Plans", "api", "ComputeSavingsPlan-1yr-Amortized", 30 * 0.2016 * 24 * 0.72, cause=True, start=D(2026, 10, 12)),
   fee(A1, "AWS", "Savings Plans", "batch", "ComputeSavingsPlan-1yr-Amortized", 150.0, start=D(2026, 6, 1)),
   L(A1, "AWS", "EMR", "batch", "m7g.4xlarge", 16, 0.6528 + 0.163, week="mon", cv=0.04),
   static(A1, "AWS", "RDS", "api", "db.r7g.xlarge", 2, 0.478),
   L(A1, "AWS", "S3", "batch", "Standard-Storage-GB", 180000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 10, 12), sel=fam("m7i.xlarge", app="api"), count=0.4)],
  acct=A1, hist=160, mig=0.0)

# N8. Golden Week and a JPY rate reset on the 1st, both seen the year before
S("none", [], D(2026, 5, 1),
  "no cause: Friday 1 May 2026 in a JPY-billed subscription: inside Golden Week (traffic x0.4-0.7 from 29 "
  "April to 6 May, as in 2025) and a 1st, when the monthly JPY rate resets (+5.3%, the yen weakening as on "
  "1 May 2025, +5.8%); nothing changed in use",
  "the unit prices of every usage line step up on the day while quantities fall for the holiday; the "
  "420-day bill holds the same pattern a year earlier",
  [L(ZJP, "Azure", "App Service", "pos", "P2v3", 10, 0.40 * 150, week="req", cv=0.02, integer=True, fx=True, hol=GW),
   static(ZJP, "Azure", "Azure SQL Database", "pos", "GP_Gen5_8", 1, 1.00 * 150, fx=True),
   L(ZJP, "Azure", "Front Door", "pos", "Requests-10K", 500, 0.009 * 150 / 24, week="req", cv=0.05, fx=True, hol=GW),
   L(ZJP, "Azure", "Virtual Machines", "reporting", "D4s_v5", 6, 0.192 * 150, week="office", cv=0.03, integer=True, fx=True, hol=GW),
   L(ZJP, "Azure", "Storage", "reporting", "Hot-LRS-GB", 50000, 0.0184 * 150 * TPH, kind="storage", grow=0.001, fx=True)],
  [], acct=ZJP, hist=420, cur={ZJP: "JPY"}, fx=FXJPY)
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
        if sc.get("mig") is not None:  # a planned migration or a commitment: the day's cost is flat or lower
            w, wo = day_costs(sc, True), day_costs(sc, False)
            assert ch, "a migration bill without its migration"
            a, b = sum(w.get(i, 0.0) for i in ch), sum(wo.get(i, 0.0) for i in ch)
            if sc["mig"] > 0:
                assert abs(a / b - sc["mig"]) < 0.002, ("migration ratio", a / b, sc["mig"])
            assert sum(w.values()) <= sum(wo.values()) * 1.002, "a no-anomaly change that raises the cost"
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
    assert cats == {"provider": 2, "service": 3, "family": 2, "region": 1, "application": 2,
                    "resource": 2, "none": 8}, cats
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
    # every loud-day reason is shown earlier in the same bill: another daylight-saving day, another day
    # of the same holiday / close calendar at least as loud, another rate reset the same way
    for c, sc in zip(cases, SC):
        first = sc["date"] - dt.timedelta(days=sc.get("hist", 42))
        inbill = lambda d: first < d < sc["date"]
        if sc.get("dst"):
            assert sc["date"] in sc["dst"] and any(inbill(d) for d in sc["dst"]), "DST day not shown before"
        for ln in sc["lines"]:
            if ln["hol"] and sc["date"] in ln["hol"] and ln["acct"] == sc["acct"]:
                f = ln["hol"][sc["date"]]
                assert any(inbill(d) and (v >= f if f > 1 else v <= f) for d, v in ln["hol"].items()), \
                    ("calendar day not shown before", c["scenario"], ln["fam"])
        if sc.get("fx") and any(on == sc["date"] for on, _ in sc["fx"]):
            steps = [(on, v / pv) for (on, v), (_, pv) in zip(sc["fx"][1:], sc["fx"][:-1])]
            today = dict(steps)[sc["date"]]
            assert any(inbill(on) and (r - 1) * (today - 1) > 0 and on.month == sc["date"].month
                       for on, r in steps), "rate move not shown a year before"
    assert len(cases) == 20 and sum(1 for c in cases if not c["truth"]) == 8
    # at least two provider-wide bills in accounts holding several providers
    multi = [c for c in cases if c["category"] == "provider" and len(c["providers_in_account"]) > 1]
    assert len(multi) >= 2, multi


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
