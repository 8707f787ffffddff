#!/usr/bin/env python3
"""finops-set8: held-out ITBench-Lite FinOps cost-anomaly scenarios (blind-fin8).

python3 gen.py OUTDIR   -> OUTDIR/Scenario-<N>/{anomaly.json,data.csv,ground_truth.yaml}
                           and OUTDIR/cases.json (labels; never show it, or ground_truth.yaml, to agents).
Stdlib only, deterministic (random.Random seeded per scenario/line/day; no hash()).
The line model is adapted from measurement/finops-set7/gen.py (itself from finops-set6); new here:
lines proportional to the sum of other lines (support charges as a percentage of usage), fees billed
on given dates only (refunds / adjustments), quarter-end habits, events that end a commitment
(reservation expiry: the amortized line stops and the covered usage goes on demand), a price cut
allowed in a no-anomaly bill, accounts holding several providers (Tencent Cloud, Huawei Cloud,
Snowflake beside AWS / Azure), Kubernetes cost-allocation lines (namespace splits, idle capacity).
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
             ref=None, frac=0.0, refs=None, rate=0.0, ondays=None, keep=False, only1=False, cause=False)
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
    nxt = day + dt.timedelta(days=1)
    if nxt.day == 1:
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
              seed=8000 + len(SC) * 41, cur={})
    sc.update(kw)
    SC.append(sc)


# accounts (none used by earlier sets)
A1, A2, A3 = "730415926201", "730415926218", "730415926225"
TKY, USE = "730415926232", "730415926249"        # ap-northeast-1 (JPY) and us-east-1 accounts
MPT = "cc-tencent-aws-0815"                       # a cost-centre account holding Tencent Cloud and AWS
MPH = "cc-huawei-azure-5521"                      # a cost-centre account holding Huawei Cloud and Azure
MPS = "cc-snowflake-aws-7731"                     # a data-platform account holding Snowflake and AWS
GP, GD, GA, GM, GL = "lumen-prod-4410", "lumen-data-4410", "lumen-apps-4410", "lumen-ml-4410", "lumen-media-4410"
GEN, GEW, GF = "lumen-eun1-4410", "lumen-euw1-4410", "lumen-fin-4410"
AUE, AUS = "sub-aue-5c0d", "sub-ause-5c0d"        # Azure australiaeast / australiasoutheast (AUD)
EAR, EAP = "ea-7b31-retail", "ea-7b31-plat"      # Azure EA enrollment accounts billed in EUR

EGRESS = [(10240 * TPH, 0.09), (40960 * TPH, 0.085), (102400 * TPH, 0.07), (None, 0.05)]
TCDN = [(10240 * TPH, 0.08), (40960 * TPH, 0.066), (102400 * TPH, 0.05), (None, 0.04)]   # Tencent CDN
AFD = [(10240 * TPH, 0.083), (40960 * TPH, 0.078), (102400 * TPH, 0.062), (None, 0.05)]  # Front Door egress
AUEG = [(5 * TPH, 0.0), (10240 * TPH, 0.174), (40960 * TPH, 0.165), (None, 0.13)]        # AUD egress, 5 GB free
LOGT = [(50 * TPH, 0.0), (None, 0.50)]                                                # Cloud Logging: 50 GiB free
S3JP = [(51200, 3.6 * TPH), (460800, 3.45 * TPH), (None, 3.3 * TPH)]                   # yen per GB-month
HOT = [(51200, 0.0184 * TPH), (460800, 0.0177 * TPH), (None, 0.0170 * TPH)]

# ================================ provider (CSP) ============================================
# 1. Tencent Cloud +12% in an account that also holds AWS (with an AWS support % line)
S("provider", [("Tencent Cloud", "CSP")], D(2026, 2, 17),
  "Tencent Cloud list prices +12% on every Tencent usage line (CVM, TKE nodes, TencentDB, COS, "
  "tiered CDN, CLB) of a cost-centre account that also holds AWS lines; Tencent's reserved-instance "
  "line (amortized) keeps its amount; the AWS lines and AWS Business Support (10% of AWS usage) flat",
  "a provider no earlier set used, beside AWS in one account; a support line that is a percentage "
  "of usage (flat, because AWS is flat); tiered CDN blends down with traffic (no holiday habit is "
  "modelled: 17 February is a plain Tuesday in this bill)",
  [L(MPT, "Tencent Cloud", "CVM", "game-lobby", "S5.2XLARGE16", 80, 0.262, week="req", integer=True, cv=0.03),
   fee(MPT, "Tencent Cloud", "CVM", "game-lobby", "S5.2XLARGE16-RI-amortized", 240.0),
   L(MPT, "Tencent Cloud", "TKE", "matchmaker", "SA3.4XLARGE32", 24, 0.41, cv=0.03, integer=True),
   static(MPT, "Tencent Cloud", "TencentDB for MySQL", "game-lobby", "MYSQL-8C32G-HA", 2, 0.96),
   L(MPT, "Tencent Cloud", "COS", "assets", "STANDARD-Storage-GB", 260000, 0.0188 * TPH, kind="storage", grow=0.0015),
   L(MPT, "Tencent Cloud", "CDN", "assets", "CDN-Traffic-GB", 900, 1.0, week="req", cv=0.05, tiers=TCDN),
   L(MPT, "Tencent Cloud", "CLB", "matchmaker", "LCU", 60, 0.0075, week="req", cv=0.05),
   L(MPT, "AWS", "EC2", "payments-bridge", "m7i.xlarge", 6, 0.2016, cv=0.03, key="ae"),
   L(MPT, "AWS", "S3", "payments-bridge", "Standard-Storage-GB", 40000, 0.023 * TPH, kind="storage", grow=0.001, key="as"),
   pct(MPT, "AWS", "AWS Support", "shared", "Business-Support", ["ae", "as"], 0.10)],
  [dict(on=D(2026, 2, 17), sel=csp("Tencent Cloud"), price=1.12)],
  acct=MPT, hist=35)

# 2. Huawei Cloud +9% in an account that also holds Azure (spot VMs drifting)
S("provider", [("Huawei Cloud", "CSP")], D(2026, 4, 8),
  "Huawei Cloud pay-per-use prices +9% on every Huawei line (ECS, CCE nodes, RDS, OBS, EIP "
  "bandwidth, ELB) of an EUR cost-centre account that also holds Azure; the Huawei yearly/monthly "
  "package (amortized daily) keeps its amount; Azure pay-as-you-go and spot VMs (price drifts "
  "every day) unchanged",
  "a second new provider; Azure spot prices move every day (noise beside the cause); an amortized "
  "package inside the moved CSP stays flat; static bandwidth and database lines",
  [L(MPH, "Huawei Cloud", "ECS", "erp-eu", "c7.2xlarge.2", 18, 0.186, cv=0.03, integer=True, week="office"),
   fee(MPH, "Huawei Cloud", "ECS", "erp-eu", "Yearly-Monthly-Package-amortized", 96.0),
   L(MPH, "Huawei Cloud", "CCE", "mes", "c7.4xlarge.2", 10, 0.372, cv=0.03, integer=True),
   static(MPH, "Huawei Cloud", "RDS", "erp-eu", "rds.mysql.x1.xlarge.4.ha", 1, 0.83),
   L(MPH, "Huawei Cloud", "OBS", "mes", "Standard-Storage-GB", 90000, 0.0195 * TPH, kind="storage", grow=0.002),
   static(MPH, "Huawei Cloud", "EIP", "mes", "Dedicated-Bandwidth-Mbit", 200, 0.0105),
   L(MPH, "Huawei Cloud", "ELB", "erp-eu", "LCU-Hour", 20, 0.0069, week="office", cv=0.05),
   L(MPH, "Azure", "Virtual Machines", "render-eu", "D8as_v5-Spot", 40, 0.062, drift=0.04, cv=0.05, integer=True),
   L(MPH, "Azure", "Virtual Machines", "render-eu", "D8as_v5", 6, 0.344, cv=0.02, integer=True),
   L(MPH, "Azure", "Storage", "render-eu", "Hot-LRS-GB", 70000, 1.0, kind="storage", grow=0.002, tiers=HOT)],
  [dict(on=D(2026, 4, 8), sel=csp("Huawei Cloud"), price=1.09)],
  acct=MPH, hist=28, cur={MPH: "EUR"})

# 3. GCP +7%; Premium Support (4% of usage) follows; a Marketplace SaaS subscription and a CUD fee flat
S("provider", [("GCP", "CSP")], D(2026, 7, 14),
  "GCP list prices +7% on every usage line of both projects (a 900-node GKE fleet, Compute Engine, "
  "Cloud SQL, Cloud Storage, Memorystore); Premium Support billed daily at 4% of usage rises with "
  "them; a Marketplace SaaS subscription (Elastic Cloud, fixed daily amount) and a resource-based CUD "
  "fee keep their amounts",
  "a support line that is a percentage of spend moves with everything (it is inside the CSP); "
  "marketplace and commitment lines inside the CSP stay flat; large fleet, small relative rise",
  [L(GP, "GCP", "GKE", "storefront", "n2d-standard-4", 900, 0.1687, week="req", cv=0.02, integer=True, key="g1"),
   L(GP, "GCP", "Compute Engine", "ledger", "c3-standard-8", 24, 0.3504, cv=0.02, integer=True, com=(16, 0.2453), key="g2"),
   fee(GP, "GCP", "Compute Engine", "shared", "CUD-c3-1yr-Fee", 94.2),
   static(GP, "GCP", "Cloud SQL", "ledger", "db-custom-16-65536", 2, 1.34, key="g3"),
   L(GP, "GCP", "Cloud Storage", "storefront", "Standard-Storage-GB", 500000, 0.020 * TPH, kind="storage", grow=0.001, key="g4"),
   static(GP, "GCP", "Memorystore", "storefront", "Redis-Standard-M4-GB", 26, 0.054, key="g5"),
   fee(GP, "GCP", "Marketplace", "search", "Elastic-Cloud-Subscription", 310.0),
   pct(GP, "GCP", "Support", "shared", "Premium-Support", ["g1", "g2", "g3", "g4", "g5"], 0.04),
   L(GD, "GCP", "BigQuery", "reporting", "Analysis-TiB", 1.1, 6.25, week="office", cv=0.10)],
  [dict(on=D(2026, 7, 14), sel=csp("GCP"), price=1.07)],
  acct=GP, hist=56)

# 4. Snowflake contract renewal: every Snowflake usage line +15%, AWS in the same account flat
S("provider", [("Snowflake", "CSP")], D(2026, 9, 8),
  "the Snowflake capacity contract renews at a higher price: credits 3.00 -> 3.45 $ and storage "
  "+15% on every Snowflake line (three warehouses, serverless tasks, Snowpipe, storage) of a "
  "data-platform account that also holds AWS (EC2, S3, Glue: flat)",
  "a SaaS provider's FOCUS export beside a cloud; warehouses run office hours (no holiday habit is "
  "modelled); applications are warehouse names that also exist on the AWS side (flat)",
  [L(MPS, "Snowflake", "Warehouse Metering", "BI_WH", "Credits-Standard", 8, 3.0, week="office", cv=0.06),
   L(MPS, "Snowflake", "Warehouse Metering", "ETL_WH", "Credits-Standard", 16, 3.0, cv=0.05),
   L(MPS, "Snowflake", "Warehouse Metering", "DS_WH", "Credits-Snowpark-Optimized", 6, 3.0, week="office", cv=0.08),
   L(MPS, "Snowflake", "Serverless Tasks", "ETL_WH", "Credits-Serverless", 1.5, 4.5, cv=0.06),
   L(MPS, "Snowflake", "Snowpipe", "ETL_WH", "Credits-Snowpipe", 0.8, 3.6, cv=0.06),
   L(MPS, "Snowflake", "Storage", "shared", "Active-Storage-TB", 410, 23.0 * TPH, kind="storage", grow=0.002),
   L(MPS, "AWS", "EC2", "ETL_WH", "m7i.2xlarge", 8, 0.4032, cv=0.03, integer=True),
   L(MPS, "AWS", "S3", "shared", "Standard-Storage-GB", 600000, 0.022 * TPH, kind="storage", grow=0.001),
   L(MPS, "AWS", "Glue", "ETL_WH", "DPU-Hour", 12, 0.44, cv=0.08)],
  [dict(on=D(2026, 9, 8), sel=csp("Snowflake"), price=1.15)],
  acct=MPS, hist=42)

# ================================ service-wide ===============================================
# 5. AWS Marketplace: an observability SaaS repriced at renewal (per host / per GB) in every app
S("service", [("AWS Marketplace", "Cloud_Service")], D(2026, 3, 12),
  "a third-party observability SaaS bought through AWS Marketplace renews at +20% on its metered "
  "dimensions (infra hosts, APM hosts, log GB) in web, api and batch; a hardened-AMI software charge "
  "in the same service is on a private offer (fixed rate, flat); the monitored EC2 fleets flat",
  "marketplace lines follow the fleet sizes they meter (host counts move with EC2 every day); a "
  "private-offer line inside the service does not move; the seller is not the cloud",
  [L(A1, "AWS", "EC2", "web", "c7g.xlarge", 120, 0.145, week="req", cv=0.03, integer=True),
   L(A1, "AWS", "EC2", "api", "m7g.xlarge", 40, 0.1632, week="req", cv=0.03, integer=True),
   L(A1, "AWS", "EC2", "batch", "c7g.4xlarge", 20, 0.58, week="office", cv=0.04, integer=True),
   L(A1, "AWS", "AWS Marketplace", "web", "obsv-infra-host-hour", 120, 0.023, week="req", cv=0.03, integer=True),
   L(A1, "AWS", "AWS Marketplace", "api", "obsv-apm-host-hour", 40, 0.043, week="req", cv=0.03, integer=True),
   L(A1, "AWS", "AWS Marketplace", "batch", "obsv-infra-host-hour", 20, 0.023, week="office", cv=0.04, integer=True),
   L(A1, "AWS", "AWS Marketplace", "api", "obsv-log-GB-ingested", 30, 0.10, week="req", cv=0.06),
   L(A1, "AWS", "AWS Marketplace", "web", "hardened-ami-vCPU-hour", 480, 0.002, week="req", cv=0.03, fixedprice=True),
   L(A1, "AWS", "S3", "web", "Standard-Storage-GB", 90000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 3, 12), sel=lambda l: l["svc"] == "AWS Marketplace" and l["fam"].startswith("obsv"), price=1.20)],
  acct=A1)

# 6. Pub/Sub +25% on a Sunday
S("service", [("Pub/Sub", "Cloud_Service")], D(2026, 5, 24),
  "Pub/Sub throughput and retained-message storage prices +25% on Sunday 24 May in every application "
  "(orders, clickstream, iot-ingest); Dataflow, BigQuery, GKE flat",
  "a Sunday at x0.3 of weekday traffic; two families in three applications; Dataflow reads the same "
  "topics (same applications) and does not move",
  [L(GD, "GCP", "Pub/Sub", "orders", "Message-Delivery-Basic-TiB", 0.004, 40.0, week="req", cv=0.05),
   L(GD, "GCP", "Pub/Sub", "clickstream", "Message-Delivery-Basic-TiB", 0.03, 40.0, week="req", cv=0.05),
   L(GD, "GCP", "Pub/Sub", "iot-ingest", "Message-Delivery-Basic-TiB", 0.012, 40.0, cv=0.04),
   L(GD, "GCP", "Pub/Sub", "clickstream", "Retained-Message-Storage-GB", 9000, 0.27 * TPH, kind="storage", grow=0.001),
   L(GD, "GCP", "Dataflow", "clickstream", "vCPU-hour", 120, 0.056, week="req", cv=0.05),
   L(GD, "GCP", "Dataflow", "iot-ingest", "vCPU-hour", 40, 0.056, cv=0.04),
   L(GD, "GCP", "BigQuery", "clickstream", "Streaming-Insert-GB", 30, 0.05, week="req", cv=0.05),
   L(GD, "GCP", "GKE", "orders", "e2-standard-8", 18, 0.268, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 5, 24), sel=svc("Pub/Sub"), price=1.25)],
  acct=GD, dec=5)

# 7. Azure Front Door +18% (egress tiered, requests, WAF); its base fee flat; EUR
S("service", [("Azure Front Door", "Cloud_Service")], D(2026, 6, 23),
  "Azure Front Door Premium usage prices +18% in every application (tiered data transfer out, "
  "requests, WAF requests) in an EUR enrollment; the per-profile base fee (fixed monthly, billed "
  "daily) keeps its amount; App Service, Blob storage, Azure SQL flat",
  "tiered egress blends over volume; the base fee inside the service is flat; a request-driven "
  "weekly habit; origin services of the same applications do not move",
  [L(EAR, "Azure", "Azure Front Door", "storefront", "Data-Transfer-Out-GB", 700, 1.0, week="req", cv=0.04, tiers=AFD),
   L(EAR, "Azure", "Azure Front Door", "media", "Data-Transfer-Out-GB", 1600, 1.0, week="req", cv=0.05, tiers=AFD),
   L(EAR, "Azure", "Azure Front Door", "storefront", "Requests-10k", 900, 0.0090, week="req", cv=0.04),
   L(EAR, "Azure", "Azure Front Door", "api", "WAF-Requests-1M", 6, 0.55, week="req", cv=0.05),
   fee(EAR, "Azure", "Azure Front Door", "shared", "Premium-Base-Fee", 10.8),
   L(EAR, "Azure", "App Service", "storefront", "P2v3", 6, 0.271, kind="static"),
   L(EAR, "Azure", "Storage", "media", "Hot-LRS-GB", 300000, 1.0, kind="storage", grow=0.002, tiers=HOT),
   static(EAR, "Azure", "Azure SQL Database", "api", "GP_Gen5_8", 1, 1.70)],
  [dict(on=D(2026, 6, 23), sel=svc("Azure Front Door"), price=1.18)],
  acct=EAR, cur={EAR: "EUR"})

# 8. EFS lifecycle change in every file system: IA falls, Standard and IA access rise
S("service", [("EFS", "Cloud_Service")], D(2026, 8, 12),
  "an infrastructure module update sets 'transition to primary storage after one access' on every "
  "EFS file system; the nightly scans read everything back: Standard storage x2.2, IA storage x0.3, "
  "IA read-access GB x8 in cms, builds and ml-data; EC2, S3 and everything else flat",
  "one changed line *falls* (IA storage) while the others rise; storage lines grow slowly every day; "
  "three families in three applications",
  [L(A2, "AWS", "EFS", "cms", "Standard-Storage-GB", 6000, 0.30 * TPH, kind="storage", grow=0.001),
   L(A2, "AWS", "EFS", "cms", "IA-Storage-GB", 40000, 0.016 * TPH, kind="storage", grow=0.001),
   L(A2, "AWS", "EFS", "builds", "Standard-Storage-GB", 3000, 0.30 * TPH, kind="storage", grow=0.001),
   L(A2, "AWS", "EFS", "builds", "IA-Storage-GB", 25000, 0.016 * TPH, kind="storage", grow=0.001),
   L(A2, "AWS", "EFS", "ml-data", "IA-Storage-GB", 80000, 0.016 * TPH, kind="storage", grow=0.001),
   L(A2, "AWS", "EFS", "ml-data", "IA-Read-Access-GB", 20, 0.01, cv=0.08),
   L(A2, "AWS", "EFS", "cms", "IA-Read-Access-GB", 8, 0.01, cv=0.08),
   L(A2, "AWS", "EC2", "builds", "c7i.2xlarge", 30, 0.357, week="office", cv=0.04, integer=True),
   L(A2, "AWS", "EC2", "cms", "m7i.large", 12, 0.1008, cv=0.03, integer=True),
   L(A2, "AWS", "S3", "ml-data", "Standard-Storage-GB", 250000, 0.023 * TPH, kind="storage", grow=0.002)],
  [dict(on=D(2026, 8, 12), sel=lambda l: l["svc"] == "EFS" and l["fam"] == "Standard-Storage-GB", count=2.2),
   dict(on=D(2026, 8, 12), sel=lambda l: l["svc"] == "EFS" and l["fam"] == "IA-Storage-GB", count=0.3),
   dict(on=D(2026, 8, 12), sel=lambda l: l["svc"] == "EFS" and l["fam"] == "IA-Read-Access-GB", count=8.0)],
  acct=A2, dec=5)

# 9. Cloud Logging repriced: ingestion beyond the free allowance and retention +20%
S("service", [("Cloud Logging", "Cloud_Service")], D(2026, 10, 6),
  "Cloud Logging prices +20% in every application: ingestion beyond the 50 GiB monthly free "
  "allowance (0.50 -> 0.60 $/GiB) and retention beyond 30 days (checkout, catalog, auth); Cloud "
  "Monitoring, GKE, Cloud Load Balancing flat",
  "ingestion lines carry a free allowance (blended price a little below list); retention storage "
  "grows every day; small lines beside GKE; Cloud Monitoring, a neighbour observability service, "
  "flat",
  [L(GA, "GCP", "Cloud Logging", "checkout", "Log-Ingestion-GiB", 3.0, 1.0, week="req", cv=0.05, tiers=LOGT),
   L(GA, "GCP", "Cloud Logging", "catalog", "Log-Ingestion-GiB", 1.6, 1.0, week="req", cv=0.05, tiers=LOGT),
   L(GA, "GCP", "Cloud Logging", "auth", "Log-Ingestion-GiB", 0.9, 1.0, week="req", cv=0.05, tiers=LOGT),
   L(GA, "GCP", "Cloud Logging", "checkout", "Log-Retention-GiB", 40000, 0.01 * TPH, kind="storage", grow=0.001),
   L(GA, "GCP", "Cloud Logging", "auth", "Log-Retention-GiB", 15000, 0.01 * TPH, kind="storage", grow=0.002),
   L(GA, "GCP", "Cloud Monitoring", "checkout", "Metric-Samples-M", 2.0, 0.15, week="req", cv=0.04),
   L(GA, "GCP", "GKE", "checkout", "e2-standard-8", 40, 0.268, week="req", cv=0.03, integer=True),
   L(GA, "GCP", "GKE", "catalog", "e2-standard-4", 30, 0.134, week="req", cv=0.03, integer=True),
   L(GA, "GCP", "Cloud Load Balancing", "auth", "Forwarding-Rule-Hour", 6, 0.025, kind="static")],
  [dict(on=D(2026, 10, 6), sel=svc("Cloud Logging"), price=1.20)],
  acct=GA, dec=5)

# ================================ family / SKU ==============================================
# 10. spot capacity crunch on one family: c6a.2xlarge spot price +80% in every app; other spot drifts
S("family", [("c6a.2xlarge-Spot", "Instance_Family")], D(2026, 1, 20),
  "a spot capacity crunch on c6a.2xlarge in the region: its spot price +80% in ci-runners (EC2), "
  "batch (EKS) and render (EC2); m6a.2xlarge-Spot and c6i.2xlarge-Spot keep drifting as usual; "
  "on-demand lines flat",
  "spot prices move every day (4-6% noise) on every spot line; one family's jump; the same "
  "applications run other spot families that keep drifting",
  [L(A3, "AWS", "EC2", "ci-runners", "c6a.2xlarge-Spot", 60, 0.118, drift=0.05, week="office", cv=0.05, integer=True),
   L(A3, "AWS", "EKS", "batch", "c6a.2xlarge-Spot", 40, 0.118, drift=0.05, cv=0.05, integer=True),
   L(A3, "AWS", "EC2", "render", "c6a.2xlarge-Spot", 25, 0.118, drift=0.05, cv=0.04, integer=True),
   L(A3, "AWS", "EC2", "ci-runners", "m6a.2xlarge-Spot", 30, 0.125, drift=0.05, week="office", cv=0.05, integer=True),
   L(A3, "AWS", "EKS", "batch", "c6i.2xlarge-Spot", 35, 0.131, drift=0.06, cv=0.05, integer=True),
   L(A3, "AWS", "EKS", "batch", "m7i.xlarge", 10, 0.2016, cv=0.02, integer=True),
   L(A3, "AWS", "EC2", "render", "c6a.2xlarge", 4, 0.306, cv=0.0, kind="static"),
   L(A3, "AWS", "S3", "render", "Standard-Storage-GB", 150000, 0.023 * TPH, kind="storage", grow=0.002)],
  [dict(on=D(2026, 1, 20), sel=fam("c6a.2xlarge-Spot"), price=1.80)],
  acct=A3, hist=35)

# 11. the L4 GPU SKU (billed apart from the g2 machine) +20% wherever it is attached
S("family", [("NVIDIA-L4-GPU", "Instance_Family")], D(2026, 2, 25),
  "the NVIDIA L4 GPU SKU +20% (GPUs are billed as their own line beside the g2 machine's core/RAM "
  "line) in GKE inference (chat-api, embed-api) and Compute Engine notebooks (research, office "
  "hours); the g2-standard-8 core/RAM lines and everything else flat",
  "the GPU line sits beside its machine line in the same application and service; three "
  "applications in two services; office-hours notebooks",
  [L(GM, "GCP", "GKE", "chat-api", "g2-standard-8", 12, 0.2331, cv=0.03, integer=True),
   L(GM, "GCP", "GKE", "chat-api", "NVIDIA-L4-GPU", 12, 0.56, cv=0.03, integer=True),
   L(GM, "GCP", "GKE", "embed-api", "g2-standard-8", 6, 0.2331, cv=0.03, integer=True),
   L(GM, "GCP", "GKE", "embed-api", "NVIDIA-L4-GPU", 6, 0.56, cv=0.03, integer=True),
   L(GM, "GCP", "Compute Engine", "research", "g2-standard-8", 5, 0.2331, week="office", cv=0.05, integer=True),
   L(GM, "GCP", "Compute Engine", "research", "NVIDIA-L4-GPU", 5, 0.56, week="office", cv=0.05, integer=True),
   L(GM, "GCP", "GKE", "chat-api", "n2-standard-4", 20, 0.1942, week="req", cv=0.03, integer=True),
   L(GM, "GCP", "Cloud Storage", "research", "Standard-Storage-GB", 80000, 0.020 * TPH, kind="storage", grow=0.002)],
  [dict(on=D(2026, 2, 25), sel=fam("NVIDIA-L4-GPU"), price=1.20)],
  acct=GM, dec=5)

# 12. a reserved-instance term ends on Sunday 1 November: amortized line stops, usage goes on demand
S("family", [("m7i.2xlarge", "Instance_Family")], D(2026, 11, 2),
  "the 1-year all-upfront reservation for 50 m7i.2xlarge ends on Monday 2 November: its amortized "
  "line (shared, family m7i.2xlarge) stops and the covered usage in web, api (EC2) and jobs (EKS) is "
  "billed on demand; AWS Business Support is billed on every 1st (1 Sep, 1 Oct, 1 Nov in the data)",
  "a line disappears (cost down) while the usage lines step up; the usage lines' price column "
  "jumps from a blend with zero-rate coverage to on-demand; the day before is a Sunday 1st with a "
  "monthly fee; 70 days of history",
  [L(A1, "AWS", "EC2", "web", "m7i.2xlarge", 30, 0.4032, week="req", cv=0.03, integer=True, com=(24, 0.0)),
   L(A1, "AWS", "EC2", "api", "m7i.2xlarge", 16, 0.4032, cv=0.02, integer=True, com=(16, 0.0)),
   L(A1, "AWS", "EKS", "jobs", "m7i.2xlarge", 14, 0.4032, week="office", cv=0.04, integer=True, com=(10, 0.0)),
   fee(A1, "AWS", "EC2", "shared", "m7i.2xlarge", 50 * 24 * 0.2540),
   L(A1, "AWS", "EC2", "web", "c7i.large", 80, 0.08925, week="req", cv=0.03, integer=True),
   static(A1, "AWS", "RDS", "api", "db.r7i.xlarge", 2, 0.504),
   L(A1, "AWS", "S3", "web", "Standard-Storage-GB", 120000, 0.023 * TPH, kind="storage", grow=0.001),
   fee(A1, "AWS", "AWS Support", "shared", "Business-Support", 600.0, only1=True)],
  [dict(on=D(2026, 11, 2), sel=lambda l: l["fam"] == "m7i.2xlarge" and l["kind"] == "fee", stop=True),
   dict(on=D(2026, 11, 2), sel=fam("m7i.2xlarge"), nocom=True)],
  acct=A1, hist=70)

# 13. Direct Connect outbound data transfer rate +25% in every app; port-hours flat
S("family", [("DX-DataTransfer-Out-GB", "Instance_Family")], D(2026, 12, 8),
  "Direct Connect outbound data-transfer rate +25% (0.02 -> 0.025 $/GB) on every "
  "DX-DataTransfer-Out-GB line (trading, risk, settlement); the DX port-hours of the same "
  "connections, internet egress and everything else flat",
  "a sibling SKU in the same service and applications (port-hours) does not move; volumes "
  "follow office hours in two applications and run flat in one",
  [L(USE, "AWS", "Direct Connect", "trading", "DX-DataTransfer-Out-GB", 500, 0.02, week="office", cv=0.05),
   L(USE, "AWS", "Direct Connect", "risk", "DX-DataTransfer-Out-GB", 220, 0.02, week="office", cv=0.05),
   L(USE, "AWS", "Direct Connect", "settlement", "DX-DataTransfer-Out-GB", 90, 0.02, cv=0.04),
   static(USE, "AWS", "Direct Connect", "trading", "DX-Port-Hour-10G", 2, 2.25),
   static(USE, "AWS", "Direct Connect", "settlement", "DX-Port-Hour-1G", 2, 0.30),
   L(USE, "AWS", "Data Transfer", "trading", "Internet-Egress-GB", 80, 1.0, week="req", cv=0.05, tiers=EGRESS),
   L(USE, "AWS", "EC2", "trading", "c7i.4xlarge", 30, 0.714, week="office", cv=0.03, integer=True),
   static(USE, "AWS", "RDS", "settlement", "db.r7i.2xlarge", 2, 1.008)],
  [dict(on=D(2026, 12, 8), sel=fam("DX-DataTransfer-Out-GB"), price=1.25)],
  acct=USE)

# ================================ region ====================================================
# 14. ap-northeast-1 S3 repriced in the Tokyo account (JPY); us-east-1 S3 flat
S("region", [("S3", "Cloud_Service")], D(2026, 4, 24),
  "ap-northeast-1 S3 prices +12% in yen (one account per region, billed in JPY): every S3 line of "
  "the Tokyo account (tiered Standard storage, PUT and GET requests, Intelligent-Tiering monitoring) "
  "in two applications; EC2 and RDS there and S3 in the us-east-1 account (USD) flat; a Friday",
  "JPY amounts beside a USD account; request lines with tiny unit prices; tiered storage grows; "
  "S3 elsewhere flat",
  [L(TKY, "AWS", "S3", "jp-shop", "Standard-Storage-GB", 300000, 1.0, kind="storage", grow=0.0015, tiers=S3JP),
   L(TKY, "AWS", "S3", "jp-shop", "PUT-Requests-1k", 900, 0.8, week="req", cv=0.05),
   L(TKY, "AWS", "S3", "jp-media", "GET-Requests-1k", 6000, 0.064, week="req", cv=0.05),
   L(TKY, "AWS", "S3", "jp-media", "IntelligentTiering-Monitoring-1k-Objects", 40000, 0.35 * TPH, kind="storage", grow=0.001),
   L(TKY, "AWS", "EC2", "jp-shop", "m7i.xlarge", 20, 35.0, week="req", cv=0.03, integer=True),
   static(TKY, "AWS", "RDS", "jp-shop", "db.r7g.2xlarge", 2, 150.0),
   L(USE, "AWS", "S3", "us-shop", "Standard-Storage-GB", 400000, 0.023 * TPH, kind="storage", grow=0.0015),
   L(USE, "AWS", "EC2", "us-shop", "m7i.xlarge", 30, 0.2016, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 4, 24), sel=svc("S3", acct=TKY), price=1.12)],
  acct=TKY, cur={TKY: "JPY", USE: "USD"})

# 15. europe-north1 Compute Engine +10% (one project per region); europe-west1 flat
S("region", [("Compute Engine", "Cloud_Service")], D(2026, 7, 29),
  "europe-north1 Compute Engine prices +10%: every Compute Engine line of the Finland project "
  "(c3-standard-8 in search, n2-standard-4 in crawler, balanced persistent disk of both); GKE and "
  "Cloud Storage there and Compute Engine in the europe-west1 project flat",
  "persistent disk lines grow slowly; two applications, three families; the same machine types "
  "run flat in the other region's project in the same file",
  [L(GEN, "GCP", "Compute Engine", "search", "c3-standard-8", 24, 0.3835, cv=0.02, integer=True),
   L(GEN, "GCP", "Compute Engine", "crawler", "n2-standard-4", 60, 0.2126, week="req", cv=0.04, integer=True),
   L(GEN, "GCP", "Compute Engine", "search", "PD-Balanced-GB", 24000, 0.11 * TPH, kind="storage", grow=0.001),
   L(GEN, "GCP", "Compute Engine", "crawler", "PD-Balanced-GB", 12000, 0.11 * TPH, kind="storage", grow=0.002),
   L(GEN, "GCP", "GKE", "search", "e2-standard-8", 16, 0.2948, cv=0.03, integer=True),
   L(GEN, "GCP", "Cloud Storage", "crawler", "Standard-Storage-GB", 400000, 0.020 * TPH, kind="storage", grow=0.002),
   L(GEW, "GCP", "Compute Engine", "search", "c3-standard-8", 24, 0.3835, cv=0.02, integer=True),
   L(GEW, "GCP", "Compute Engine", "crawler", "n2-standard-4", 40, 0.2126, week="req", cv=0.04, integer=True)],
  [dict(on=D(2026, 7, 29), sel=svc("Compute Engine", acct=GEN), price=1.10)],
  acct=GEN)

# 16. australiaeast Bandwidth +25% (AUD subscription per region); australiasoutheast flat
S("region", [("Bandwidth", "Cloud_Service")], D(2026, 10, 20),
  "australiaeast bandwidth prices +25% (one subscription per region, billed in AUD): every "
  "Bandwidth line of the australiaeast subscription (tiered internet egress of three applications, "
  "inter-region egress to australiasoutheast); VMs and Storage there and Bandwidth in the "
  "australiasoutheast subscription flat",
  "tiered egress with a free allowance; three applications; the DR region runs the same lines flat",
  [L(AUE, "Azure", "Bandwidth", "portal-au", "Internet-Egress-GB", 120, 1.0, week="req", cv=0.05, tiers=AUEG),
   L(AUE, "Azure", "Bandwidth", "claims-au", "Internet-Egress-GB", 60, 1.0, week="office", cv=0.05, tiers=AUEG),
   L(AUE, "Azure", "Bandwidth", "docs-au", "Internet-Egress-GB", 30, 1.0, week="req", cv=0.06, tiers=AUEG),
   L(AUE, "Azure", "Bandwidth", "claims-au", "Inter-Region-Egress-GB", 25, 0.05, cv=0.05),
   L(AUE, "Azure", "Virtual Machines", "portal-au", "D4as_v5", 16, 0.262, week="req", cv=0.03, integer=True),
   L(AUE, "Azure", "Storage", "docs-au", "Hot-LRS-GB", 150000, 1.0, kind="storage", grow=0.002, tiers=HOT),
   L(AUS, "Azure", "Bandwidth", "claims-au", "Internet-Egress-GB", 10, 1.0, week="office", cv=0.05, tiers=AUEG),
   L(AUS, "Azure", "Virtual Machines", "claims-au", "D4as_v5", 4, 0.262, cv=0.03, integer=True)],
  [dict(on=D(2026, 10, 20), sel=svc("Bandwidth", acct=AUE), price=1.25)],
  acct=AUE, cur={AUE: "AUD", AUS: "AUD"})

# ================================ application ===============================================
# 17. Kubernetes cost allocation: namespace ml-feature's requests grow (split lines), its PVCs, S3
S("application", [("ml-feature", "Application")], D(2026, 5, 13),
  "Kubernetes cost allocation (EKS split cost allocation: each namespace is an application): the "
  "ml-feature namespace deploys a feature backfill: its split vCPU-hours x2.2 and GB-hours x2.5, "
  "its gp3 PVC storage x1.5 (EBS), S3 GET requests x3; the other namespaces and the cluster's "
  "unallocated (idle) capacity flat",
  "allocation lines, not instances: every namespace has the same two families; idle capacity is "
  "its own application; four families in three services",
  [L(A2, "AWS", "EKS", "checkout", "split-vCPU-Hours", 64, 0.0208, week="req", cv=0.03),
   L(A2, "AWS", "EKS", "checkout", "split-GB-Hours", 256, 0.0026, week="req", cv=0.03),
   L(A2, "AWS", "EKS", "search", "split-vCPU-Hours", 96, 0.0208, cv=0.03),
   L(A2, "AWS", "EKS", "search", "split-GB-Hours", 512, 0.0026, cv=0.03),
   L(A2, "AWS", "EKS", "ml-feature", "split-vCPU-Hours", 48, 0.0208, cv=0.04),
   L(A2, "AWS", "EKS", "ml-feature", "split-GB-Hours", 384, 0.0026, cv=0.04),
   L(A2, "AWS", "EKS", "__unallocated__", "idle-m7g.2xlarge", 6, 0.3264, cv=0.05),
   L(A2, "AWS", "EBS", "ml-feature", "gp3-PVC-GB", 4000, 0.08 * TPH, kind="storage", grow=0.001),
   L(A2, "AWS", "EBS", "search", "gp3-PVC-GB", 9000, 0.08 * TPH, kind="storage", grow=0.001),
   L(A2, "AWS", "S3", "ml-feature", "GET-Requests-1k", 200, 0.0004, cv=0.06),
   L(A2, "AWS", "S3", "search", "Standard-Storage-GB", 300000, 0.023 * TPH, kind="storage", grow=0.002)],
  [dict(on=D(2026, 5, 13), sel=app("ml-feature", f="split-vCPU-Hours"), count=2.2),
   dict(on=D(2026, 5, 13), sel=app("ml-feature", f="split-GB-Hours"), count=2.5),
   dict(on=D(2026, 5, 13), sel=app("ml-feature", f="gp3-PVC-GB"), count=1.5),
   dict(on=D(2026, 5, 13), sel=app("ml-feature", f="GET-Requests-1k"), count=3.0)],
  acct=A2, dec=5)

# 18. media-upload: a client bug re-uploads on a Sunday
S("application", [("media-upload", "Application")], D(2026, 8, 30),
  "a mobile-client release re-uploads every photo on Sunday 30 August: media-upload's Cloud Storage "
  "class-A operations x4, Standard storage steps up 25%, Cloud Run (transcoder) x2, Pub/Sub "
  "notifications x4; gallery's and feed's lines flat",
  "a Sunday in a request-driven estate; a storage line that steps up (then keeps growing); four "
  "services; the same families run flat in other applications",
  [L(GL, "GCP", "Cloud Storage", "media-upload", "Class-A-Operations-10k", 30, 0.05, week="req", cv=0.05),
   L(GL, "GCP", "Cloud Storage", "media-upload", "Standard-Storage-GB", 700000, 0.020 * TPH, kind="storage", grow=0.002),
   L(GL, "GCP", "Cloud Run", "media-upload", "vCPU-Second-k", 40, 0.024 * 3.6, week="req", cv=0.05),
   L(GL, "GCP", "Pub/Sub", "media-upload", "Message-Delivery-Basic-TiB", 0.002, 40.0, week="req", cv=0.05),
   L(GL, "GCP", "Cloud Storage", "gallery", "Class-B-Operations-10k", 300, 0.004, week="req", cv=0.05),
   L(GL, "GCP", "Cloud Storage", "gallery", "Standard-Storage-GB", 200000, 0.020 * TPH, kind="storage", grow=0.001),
   L(GL, "GCP", "Cloud Run", "feed", "vCPU-Second-k", 60, 0.024 * 3.6, week="req", cv=0.04),
   L(GL, "GCP", "Cloud CDN", "gallery", "Cache-Egress-GB", 500, 0.08, week="req", cv=0.05)],
  [dict(on=D(2026, 8, 30), sel=app("media-upload", f="Class-A-Operations-10k"), count=4.0),
   dict(on=D(2026, 8, 30), sel=app("media-upload", f="Standard-Storage-GB"), count=1.25),
   dict(on=D(2026, 8, 30), sel=app("media-upload", f="vCPU-Second-k"), count=2.0),
   dict(on=D(2026, 8, 30), sel=app("media-upload", f="Message-Delivery-Basic-TiB"), count=4.0)],
  acct=GL, dec=5)

# 19. crm scaled for a campaign: VMs x2 with a marketplace software plan, SQL tier doubled, LB x2
S("application", [("crm", "Application")], D(2026, 11, 12),
  "crm is scaled for a campaign: Virtual Machines D8as_v5 6 -> 12, the RHEL software plan billed "
  "through Azure Marketplace per VM x2, Azure SQL GP_Gen5_8 moved to 16 vCores (unit price x2, "
  "same count), Load Balancer data processed x2; storefront's D8as_v5, erp and everything else flat",
  "a marketplace line follows the VM count; one line doubles its price at the same count; the "
  "same VM family flat in another application; EUR",
  [L(EAR, "Azure", "Virtual Machines", "crm", "D8as_v5", 6, 0.344, cv=0.0, kind="static"),
   L(EAR, "Azure", "Azure Marketplace", "crm", "RHEL-Software-Plan-8vCPU", 6, 0.13, cv=0.0, kind="static"),
   static(EAR, "Azure", "Azure SQL Database", "crm", "GP_Gen5_8", 1, 1.70),
   L(EAR, "Azure", "Load Balancer", "crm", "Data-Processed-GB", 80, 0.005, week="office", cv=0.05),
   L(EAR, "Azure", "Virtual Machines", "storefront", "D8as_v5", 10, 0.344, week="req", cv=0.03, integer=True),
   L(EAR, "Azure", "Virtual Machines", "erp", "E8as_v5", 4, 0.45, kind="static"),
   L(EAR, "Azure", "Storage", "storefront", "Hot-LRS-GB", 200000, 1.0, kind="storage", grow=0.002, tiers=HOT)],
  [dict(on=D(2026, 11, 12), sel=app("crm", f="D8as_v5"), count=2.0),
   dict(on=D(2026, 11, 12), sel=app("crm", f="RHEL-Software-Plan-8vCPU"), count=2.0),
   dict(on=D(2026, 11, 12), sel=app("crm", f="GP_Gen5_8"), price=2.0),
   dict(on=D(2026, 11, 12), sel=app("crm", f="Data-Processed-GB"), count=2.0)],
  acct=EAR, cur={EAR: "EUR"})

# 20. fraud-scoring spans AWS and Snowflake in one account
S("application", [("fraud-scoring", "Application")], D(2026, 12, 15),
  "fraud-scoring onboards a card issuer: SageMaker ml.c6i.2xlarge endpoint 4 -> 8 (AWS), its "
  "Snowflake warehouse credits x2.5, its AWS data transfer x2; BI_WH, the ETL lines and "
  "everything else flat",
  "one application under two providers (AWS and Snowflake) in one account: no CSP or service "
  "holds its lines; a static endpoint doubles",
  [L(MPS, "AWS", "SageMaker", "fraud-scoring", "ml.c6i.2xlarge", 4, 0.476, kind="static"),
   L(MPS, "Snowflake", "Warehouse Metering", "fraud-scoring", "Credits-Standard", 4, 3.0, cv=0.05),
   L(MPS, "AWS", "Data Transfer", "fraud-scoring", "DataTransfer-Regional-GB", 60, 0.01, cv=0.05),
   L(MPS, "Snowflake", "Warehouse Metering", "BI_WH", "Credits-Standard", 8, 3.0, week="office", cv=0.06),
   L(MPS, "Snowflake", "Warehouse Metering", "ETL_WH", "Credits-Standard", 16, 3.0, cv=0.05),
   L(MPS, "Snowflake", "Storage", "shared", "Active-Storage-TB", 450, 23.0 * TPH, kind="storage", grow=0.002),
   L(MPS, "AWS", "EC2", "ETL_WH", "m7i.2xlarge", 8, 0.4032, cv=0.03, integer=True),
   L(MPS, "AWS", "S3", "shared", "Standard-Storage-GB", 650000, 0.022 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 12, 15), sel=app("fraud-scoring", f="ml.c6i.2xlarge"), count=2.0),
   dict(on=D(2026, 12, 15), sel=app("fraud-scoring", f="Credits-Standard"), count=2.5),
   dict(on=D(2026, 12, 15), sel=app("fraud-scoring", f="DataTransfer-Regional-GB"), count=2.0)],
  acct=MPS)

# ================================ resource ==================================================
# 21. EKS idle capacity: the node group's minimum raised by mistake on a quarter end
S("resource", [("idle-m7g.2xlarge", "Instance_Family")], D(2026, 3, 31),
  "the cluster's node-group minimum is raised 10 -> 40 by mistake: the unallocated (idle) "
  "capacity line of the EKS cost allocation x5 on Tuesday 31 March; the namespaces' split lines "
  "flat; the month-end close (x3 on every last day: 31 Jan, 28 Feb in the data) is a habit",
  "a quarter-end day with a habitual month-end spike elsewhere; idle capacity is a line of its own "
  "application; allocation lines everywhere",
  [L(A3, "AWS", "EKS", "ledger", "split-vCPU-Hours", 80, 0.0208, cv=0.03, mend=3.0),
   L(A3, "AWS", "EKS", "ledger", "split-GB-Hours", 320, 0.0026, cv=0.03, mend=3.0),
   L(A3, "AWS", "EKS", "web", "split-vCPU-Hours", 120, 0.0208, week="req", cv=0.03),
   L(A3, "AWS", "EKS", "web", "split-GB-Hours", 480, 0.0026, week="req", cv=0.03),
   L(A3, "AWS", "EKS", "__unallocated__", "idle-m7g.2xlarge", 3, 0.3264, cv=0.06),
   L(A3, "AWS", "EKS", "shared", "EKS-Cluster-Hour", 2, 0.10, kind="static"),
   static(A3, "AWS", "RDS", "ledger", "db.r7g.2xlarge", 2, 0.966),
   L(A3, "AWS", "S3", "ledger", "Standard-Storage-GB", 200000, 0.023 * TPH, kind="storage", grow=0.002)],
  [dict(on=D(2026, 3, 31), sel=fam("idle-m7g.2xlarge"), count=5.0)],
  acct=A3, hist=70, dec=5)

# 22. Lambda provisioned concurrency left on after a load test (family also flat in auth)
S("resource", [("Provisioned-Concurrency-GB-s", "Instance_Family")], D(2026, 6, 2),
  "api's Lambda provisioned concurrency is left at 600 after a load test (x12); auth's provisioned "
  "concurrency and every duration / request line flat",
  "the family also runs flat in another application (convention: the family); a static line "
  "that is x12 on the day; the Lambda duration lines of the same application do not move",
  [L(A1, "AWS", "Lambda", "api", "Provisioned-Concurrency-GB-s", 50 * 1024 * 3600 / 1024, 0.0000041667, kind="static"),
   L(A1, "AWS", "Lambda", "auth", "Provisioned-Concurrency-GB-s", 20 * 512 * 3600 / 1024, 0.0000041667, kind="static"),
   L(A1, "AWS", "Lambda", "api", "Duration-GB-s", 400000, 0.0000166667, week="req", cv=0.05),
   L(A1, "AWS", "Lambda", "auth", "Duration-GB-s", 90000, 0.0000166667, week="req", cv=0.05),
   L(A1, "AWS", "Lambda", "api", "Requests-1M", 4, 0.20, week="req", cv=0.05),
   L(A1, "AWS", "DynamoDB", "api", "ReadRequestUnits-1M", 30, 0.125, week="req", cv=0.05),
   L(A1, "AWS", "API Gateway", "api", "HTTP-Requests-1M", 4, 1.0, week="req", cv=0.05)],
  [dict(on=D(2026, 6, 2), sel=app("api", f="Provisioned-Concurrency-GB-s"), count=12.0)],
  acct=A1, hist=28, dec=6)

# 23. Ultra Disk provisioned throughput raised x5 on a Saturday (AUD)
S("resource", [("UltraDisk-Throughput-MBps", "Instance_Family")], D(2026, 9, 19),
  "ledger's Ultra Disk provisioned throughput raised 200 -> 1000 MBps (x5) for a migration and not "
  "lowered; its Ultra Disk capacity and IOPS lines, the VMs and everything else flat; a Saturday "
  "in an office estate (AUD)",
  "a static line steps on a Saturday while the office estate drops to x0.4; sibling disk SKUs of "
  "the same disk flat",
  [static(AUS, "Azure", "Managed Disks", "ledger", "UltraDisk-Capacity-GiB", 4096, 0.000195),
   static(AUS, "Azure", "Managed Disks", "ledger", "UltraDisk-IOPS", 20000, 0.0000658),
   static(AUS, "Azure", "Managed Disks", "ledger", "UltraDisk-Throughput-MBps", 200, 0.00071),
   L(AUS, "Azure", "Virtual Machines", "ledger", "E16as_v5", 4, 1.3, kind="static"),
   L(AUS, "Azure", "Virtual Machines", "back-office", "D4as_v5", 20, 0.262, week="office", cv=0.03, integer=True),
   L(AUS, "Azure", "Storage", "back-office", "Hot-LRS-GB", 60000, 1.0, kind="storage", grow=0.002, tiers=HOT),
   L(AUE, "Azure", "Virtual Machines", "portal-au", "D4as_v5", 16, 0.262, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 9, 19), sel=app("ledger", f="UltraDisk-Throughput-MBps"), count=5.0)],
  acct=AUS, dec=6, cur={AUS: "AUD", AUE: "AUD"})

# 24. Snowflake search optimization enabled on a huge table
S("resource", [("Credits-Search-Optimization", "Instance_Family")], D(2026, 6, 16),
  "search optimization is enabled on a 40 TB events table: the Search Optimization service's "
  "credits x8 (initial build); the warehouses, storage and the AWS lines flat",
  "a small serverless line becomes large; warehouses run office hours; AWS lines in the same "
  "account",
  [L(MPS, "Snowflake", "Search Optimization", "BI_WH", "Credits-Search-Optimization", 0.5, 3.0 * 2, cv=0.08),
   L(MPS, "Snowflake", "Warehouse Metering", "BI_WH", "Credits-Standard", 8, 3.0, week="office", cv=0.06),
   L(MPS, "Snowflake", "Warehouse Metering", "ETL_WH", "Credits-Standard", 16, 3.0, cv=0.05),
   L(MPS, "Snowflake", "Serverless Tasks", "ETL_WH", "Credits-Serverless", 1.5, 4.5, cv=0.06),
   L(MPS, "Snowflake", "Storage", "shared", "Active-Storage-TB", 390, 23.0 * TPH, kind="storage", grow=0.002),
   L(MPS, "AWS", "EC2", "ETL_WH", "m7i.2xlarge", 8, 0.4032, cv=0.03, integer=True),
   L(MPS, "AWS", "S3", "shared", "Standard-Storage-GB", 560000, 0.022 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 6, 16), sel=fam("Credits-Search-Optimization"), count=8.0)],
  acct=MPS, hist=35)

# ================================ no anomaly ================================================
# 25. quarter end on a Thursday, 200 days of bill, a refund a month earlier, partial last day
S("none", [], D(2026, 12, 31),
  "no cause: Thursday 31 December, a quarter end; the close batch runs x2.5 on every month end and "
  "x5 on every quarter end (30 Jun Tue, 30 Sep Wed in the data); an SLA refund (one-off negative "
  "line) on 4 December; the day after is partial (30%); 200 days of bill",
  "the day is far above the previous Thursdays and the previous month ends; only the two earlier "
  "quarter ends (months back) match it; a refund dip in the same-month history",
  [L(USE, "AWS", "EC2", "close", "r7i.4xlarge", 10, 1.0584, mend=2.5, qend=5.0, cv=0.03),
   L(USE, "AWS", "Glue", "close", "DPU-Hour", 40, 0.44, mend=2.5, qend=5.0, cv=0.06),
   L(USE, "AWS", "EC2", "web", "m7i.large", 60, 0.1008, week="req", cv=0.03, integer=True),
   L(USE, "AWS", "EC2", "backoffice", "m7i.xlarge", 12, 0.2016, week="office", cv=0.03, integer=True),
   static(USE, "AWS", "RDS", "close", "db.r7i.2xlarge", 1, 1.008),
   L(USE, "AWS", "S3", "close", "Standard-Storage-GB", 300000, 0.023 * TPH, kind="storage", grow=0.001),
   fee(USE, "AWS", "AWS Support", "shared", "SLA-Refund", -420.0, ondays={D(2026, 12, 4)})],
  [], acct=USE, hist=200, plast=0.3)

# 26. month end on a Monday: Monday batch and month-end close coincide; partial first day
S("none", [], D(2026, 8, 31),
  "no cause: Monday 31 August; the month-end close (x3 on every last day: 31 May Sun, 30 Jun Tue, "
  "31 Jul Fri in the data) and the Monday batch (x1.75) coincide; egress grows 0.4%/day; first day "
  "of data partial (40%)",
  "two habits on one day; the earlier month ends fall on three other weekdays; data-transfer growth "
  "makes every week a little higher",
  [L(GF, "GCP", "BigQuery", "close", "Analysis-TiB", 2.0, 6.25, mend=3.0, cv=0.06),
   L(GF, "GCP", "Compute Engine", "close", "n2-highmem-16", 6, 1.0, mend=3.0, cv=0.03),
   L(GF, "GCP", "Dataflow", "etl", "vCPU-hour", 80, 0.056, week="mon", cv=0.05),
   L(GF, "GCP", "GKE", "app", "e2-standard-8", 30, 0.268, week="req", cv=0.03, integer=True),
   L(GF, "GCP", "Networking", "app", "Premium-Internet-Egress-GB", 30, 0.11, kind="storage", grow=0.004),
   static(GF, "GCP", "Cloud SQL", "close", "db-custom-8-32768", 1, 0.67)],
  [], acct=GF, hist=100, pfirst=0.4)

# 27. planned step: a new AKS node pool at the existing price six days before; spot; a refund
S("none", [], D(2026, 4, 15),
  "no cause on the day: a planned node pool (search-v2, 8 x E8as_v5 at the pool's normal price) "
  "was added on Thursday 9 April and runs since; spot VMs drift; an adjustment credit on Monday 13 "
  "April (one-off negative line); Wednesday 15 April is a normal day after the step",
  "the day is above every earlier Wednesday (the step) and above Monday (the adjustment), but "
  "level with the days since 9 April; the new resource is six days old",
  [L(EAP, "Azure", "AKS", "search", "E8as_v5", 12, 0.45, cv=0.02, integer=True),
   static(EAP, "Azure", "AKS", "search-v2", "E8as_v5", 8, 0.45, start=D(2026, 4, 9)),
   L(EAP, "Azure", "Virtual Machines", "render", "D16as_v5-Spot", 20, 0.14, drift=0.05, cv=0.05, integer=True),
   L(EAP, "Azure", "Storage", "search", "Hot-LRS-GB", 100000, 1.0, kind="storage", grow=0.002, tiers=HOT),
   static(EAP, "Azure", "Azure Database for PostgreSQL", "search", "GP_Standard_D8ds_v5", 1, 0.71),
   fee(EAP, "Azure", "Adjustments", "shared", "Billing-Adjustment-Credit", -60.0, ondays={D(2026, 4, 13)})],
  [], acct=EAP, cur={EAP: "EUR"})

# 28. a price cut on the day (Graviton -10%) on a Monday after the weekend; support fee on the 1st
S("none", [], D(2026, 2, 2),
  "no cause of a rise: on Monday 2 February every m7g line is cut 10% (a price reduction); the "
  "request-driven estate triples from Sunday; the Monday batch x1.75; Business Support billed on "
  "Sunday 1 February; first day of data partial (50%)",
  "a price *did* change on the day, downwards; the day is about twice the Saturday, below the "
  "Sunday 1st (support fee) and a little below the last Mondays; the Monday habit sits in another "
  "family",
  [L(A2, "AWS", "EC2", "web", "m7g.xlarge", 80, 0.1632, week="req", cv=0.03, integer=True),
   L(A2, "AWS", "EKS", "api", "m7g.2xlarge", 20, 0.3264, week="req", cv=0.03, integer=True),
   L(A2, "AWS", "EC2", "reports", "c7i.2xlarge", 10, 0.357, week="mon", cv=0.04),
   static(A2, "AWS", "RDS", "api", "db.r7i.large", 2, 0.252),
   L(A2, "AWS", "S3", "web", "Standard-Storage-GB", 150000, 0.023 * TPH, kind="storage", grow=0.001),
   fee(A2, "AWS", "AWS Support", "shared", "Business-Support", 900.0, only1=True)],
  [dict(on=D(2026, 2, 2), sel=lambda l: l["fam"].startswith("m7g") and _use(l), price=0.90)],
  acct=A2, hist=42, pfirst=0.5, cut=True)


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
        if sc.get("cut"):  # a price cut on the day: lines may change, but only downwards
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
