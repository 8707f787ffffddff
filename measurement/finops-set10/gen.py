#!/usr/bin/env python3
"""finops-set10: held-out ITBench-Lite FinOps cost-anomaly scenarios (blind-fin10).

python3 gen.py OUTDIR   -> OUTDIR/Scenario-<N>/{anomaly.json,data.csv,ground_truth.yaml}
                           and OUTDIR/cases.json (labels; never show it, or ground_truth.yaml, to agents).
Stdlib only, deterministic (random.Random seeded per scenario/line/day; no hash()).
The line model, writer and self-check are reused from measurement/finops-set9/gen.py (itself from set8);
new in set10: `dst` (hours in a day: 23/25 on daylight-saving days, every metered line scales),
`untag` (days on which a line's Application tag is missing: written as ''), application-level
causes inside one service; inherited from set9:
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
A1, A2, A3 = "604213877501", "604213877518", "604213877525"   # AWS linked accounts of one payer
APAY = "604213877490"                                          # the payer (management) account
AEU, AUS = "604213877532", "604213877549"                     # AWS eu-west-1 / us-east-1 accounts
MAT = "cc-atlas-gcp-2871"          # MongoDB Atlas + GCP
MCF = "cc-confluent-azure-5530"    # Confluent Cloud + Azure (Marketplace private offer)
MEL = "cc-elastic-aws-7716"        # Elastic Cloud + AWS
GA, GB, GC = "orca-api-3318", "orca-data-3318", "orca-ml-3318"   # GCP projects (billing account 01A2-...)
GX = "orca-legacy-5120"                                          # GCP project under a second billing account
GIN, GUS = "orca-as1-3318", "orca-usc1-3318"                     # asia-south1 / us-central1 projects
ZW, ZS, ZE = "sub-orca-we-44c1", "sub-orca-sc-44c1", "sub-orca-eu-44c1"   # Azure subscriptions
ZJ = "sub-orca-jp-44c1"                                          # a JPY-billed subscription
ALI = "ali-orca-8812"                                            # Alibaba Cloud account (CNY)

LNY = {D(2027, 2, d): f for d, f in [(5, 0.7), (6, 0.4), (7, 0.35), (8, 0.35), (9, 0.4), (10, 0.45),
                                      (11, 0.55), (12, 0.7)]}
LNY.update({D(2026, 2, d): f for d, f in [(15, 0.7), (16, 0.4), (17, 0.35), (18, 0.35), (19, 0.4),
                                          (20, 0.5), (21, 0.6), (22, 0.7)]})
DST_EU_26 = {D(2026, 3, 29): 23 / 24, D(2026, 10, 25): 25 / 24}
DST_US_26 = {D(2026, 3, 8): 23 / 24, D(2026, 11, 1): 25 / 24}

# ================================ provider (CSP) ============================================
# 1. MongoDB Atlas annual commitment (20% off) ends beside GCP; several GCP projects in the file
S("provider", [("MongoDB Atlas", "CSP")], D(2026, 2, 10),
  "the MongoDB Atlas annual commitment (20% off list) ends on Tuesday 10 February: every Atlas line "
  "(M50/M60 dedicated cluster hours, Atlas Search nodes, cloud backup snapshot storage, Atlas data "
  "transfer) in orders, profiles and catalog goes to list (x1.25); the GCP lines of the same cost "
  "centre (GKE, Cloud Storage, Cloud Load Balancing) flat; two other GCP projects in the file flat",
  "a SaaS database provider beside GCP in one cost centre; the Atlas clusters are static (exactly flat "
  "until the day) while the GKE nodes of the same applications move every day; Atlas backup storage "
  "grows; a 60-day bill",
  [static(MAT, "MongoDB Atlas", "Atlas Dedicated", "orders", "M60-Cluster-Hour", 3, 3.95 * 0.8),
   static(MAT, "MongoDB Atlas", "Atlas Dedicated", "profiles", "M50-Cluster-Hour", 3, 2.00 * 0.8),
   static(MAT, "MongoDB Atlas", "Atlas Search", "catalog", "S40-Search-Node-Hour", 2, 0.98 * 0.8),
   L(MAT, "MongoDB Atlas", "Atlas Backup", "orders", "Snapshot-Storage-GB", 9000, 0.14 * TPH * 0.8, kind="storage", grow=0.002),
   L(MAT, "MongoDB Atlas", "Atlas Data Transfer", "catalog", "Inter-Region-Transfer-GB", 20, 0.02 * 0.8, week="req", cv=0.06),
   L(MAT, "GCP", "GKE", "orders", "n2-standard-8", 36, 0.3885, week="req", cv=0.03, integer=True),
   L(MAT, "GCP", "GKE", "catalog", "n2-standard-4", 20, 0.1943, week="req", cv=0.03, integer=True),
   L(MAT, "GCP", "Cloud Storage", "catalog", "Standard-Storage-GB", 150000, 0.020 * TPH, kind="storage", grow=0.001),
   L(MAT, "GCP", "Cloud Load Balancing", "orders", "LB-Data-Processed-GB", 90, 0.008, week="req", cv=0.05),
   L(GA, "GCP", "Compute Engine", "gateway", "e2-standard-8", 12, 0.268, cv=0.02, integer=True),
   L(GB, "GCP", "BigQuery", "warehouse", "Analysis-TiB", 2.0, 6.25, week="office", cv=0.08)],
  [dict(on=D(2026, 2, 10), sel=csp("MongoDB Atlas"), price=1.25)],
  acct=MAT, hist=60)

# 2. Confluent Cloud private offer through the Azure Marketplace expires beside Azure (EUR)
S("provider", [("Confluent Cloud", "CSP")], D(2026, 4, 15),
  "the Confluent Cloud private offer bought through the Azure Marketplace (30% off) expires on "
  "Wednesday 15 April: every Confluent line (Dedicated CKU hours, Basic/Standard cluster eCKUs, "
  "ingress/egress throughput, Flink CFU, managed connector tasks) in clickstream, payments and "
  "inventory costs 1/0.7 more; the Azure half (AKS, Event Grid, Blob) of the EUR subscription flat",
  "Confluent as a provider beside Azure, billed in EUR; CKUs are static while throughput follows "
  "traffic; the Azure services consuming the same topics (same applications) are flat",
  [static(MCF, "Confluent Cloud", "Kafka", "clickstream", "Dedicated-CKU-Hour", 4, 1.75 * 0.7),
   L(MCF, "Confluent Cloud", "Kafka", "payments", "Standard-eCKU-Hour", 6, 0.14 * 0.7, week="req", cv=0.04),
   L(MCF, "Confluent Cloud", "Kafka", "clickstream", "Ingress-GB", 300, 0.045 * 0.7, week="req", cv=0.06),
   L(MCF, "Confluent Cloud", "Kafka", "clickstream", "Egress-GB", 900, 0.045 * 0.7, week="req", cv=0.06),
   L(MCF, "Confluent Cloud", "Flink", "inventory", "Flink-CFU-Hour", 20, 0.19 * 0.7, cv=0.05),
   static(MCF, "Confluent Cloud", "Connect", "inventory", "Managed-Connector-Task-Hour", 12, 0.0315 * 0.7),
   L(MCF, "Azure", "AKS", "clickstream", "D8s_v5", 30, 0.352, week="req", cv=0.03, integer=True),
   L(MCF, "Azure", "Event Grid", "payments", "Operations-Million", 0.9, 0.55, week="req", cv=0.06),
   L(MCF, "Azure", "Storage", "inventory", "Hot-LRS-GB", 70000, 0.0166 * TPH, kind="storage", grow=0.0012)],
  [dict(on=D(2026, 4, 15), sel=csp("Confluent Cloud"), price=1 / 0.7)],
  acct=MCF, hist=90, cur={MCF: "EUR"}, dec=5)

# 3. Elastic Cloud price list +12% beside AWS; AWS lines flat
S("provider", [("Elastic Cloud", "CSP")], D(2026, 7, 14),
  "Elastic Cloud raises its hosted-deployment prices +12% on Tuesday 14 July on every line (hot, warm "
  "and frozen data tiers, ML nodes, Kibana, snapshot storage, data transfer) in siem, apm and "
  "search; the AWS lines that ship the data (Kinesis Data Firehose, S3, EC2 shippers) flat",
  "Elastic Cloud beside AWS in one cost centre; the tiers are billed per GB of RAM per hour at very "
  "different prices; the frozen tier grows daily; the same application names on both providers",
  [L(MEL, "Elastic Cloud", "Elasticsearch", "siem", "Data-Hot-Storage-Optimized-RAM-GB", 960, 0.0159, cv=0.01),
   L(MEL, "Elastic Cloud", "Elasticsearch", "siem", "Data-Frozen-RAM-GB", 120, 0.0312, kind="storage", grow=0.002),
   L(MEL, "Elastic Cloud", "Elasticsearch", "apm", "Data-Warm-Dense-RAM-GB", 240, 0.0104, cv=0.01),
   static(MEL, "Elastic Cloud", "Machine Learning", "siem", "ML-Node-RAM-GB", 64, 0.0233),
   static(MEL, "Elastic Cloud", "Kibana", "search", "Kibana-RAM-GB", 8, 0.0118),
   L(MEL, "Elastic Cloud", "Snapshot Storage", "siem", "Snapshot-Storage-GB", 40000, 0.033 * TPH, kind="storage", grow=0.0015),
   L(MEL, "Elastic Cloud", "Data Transfer", "search", "Data-Transfer-Out-GB", 60, 0.032, week="req", cv=0.06),
   L(MEL, "AWS", "Kinesis Data Firehose", "siem", "Ingested-GB", 400, 0.029, cv=0.05),
   L(MEL, "AWS", "S3", "siem", "Standard-Storage-GB", 300000, 0.023 * TPH, kind="storage", grow=0.001),
   L(MEL, "AWS", "EC2", "apm", "c7g.large", 10, 0.0725, cv=0.02, integer=True)],
  [dict(on=D(2026, 7, 14), sel=csp("Elastic Cloud"), price=1.12)],
  acct=MEL, hist=120)

# 4. AWS: the payer's Enterprise Discount Program ends; every linked account's AWS usage x1/0.91; SP line flat
S("provider", [("AWS", "CSP")], D(2026, 9, 1),
  "the organization's AWS private pricing (EDP, 9% off) ends on Tuesday 1 September: every AWS usage "
  "line of linked account 604213877518 (EC2, RDS, S3, CloudFront, Lambda) costs 1/0.91 more (the "
  "other linked accounts in the file too); the Compute Savings Plan's fixed hourly commitment (an "
  "amortized line) and the monthly Business Support fee on the 1st keep their amounts",
  "the day is a 1st: the support fee (billed every 1st) and the month's first day make the account "
  "look high anyway; the Savings Plan line (a large fixed line) is flat; the file holds the payer and three "
  "linked accounts",
  [fee(A2, "AWS", "Savings Plans", "shared", "ComputeSP-1yr-NoUpfront-Commitment", 2400.0),
   fee(A2, "AWS", "AWS Support (Business)", "shared", "Business-Support-Monthly", 3100.0, only1=True),
   L(A2, "AWS", "EC2", "storefront", "m7i.2xlarge", 60, 0.4032 * 0.91, week="req", cv=0.03, integer=True),
   L(A2, "AWS", "EC2", "search", "r7g.2xlarge", 24, 0.4284 * 0.91, cv=0.02, integer=True),
   static(A2, "AWS", "RDS", "storefront", "db.r7g.2xlarge", 2, 0.862 * 0.91),
   L(A2, "AWS", "S3", "media", "Standard-Storage-GB", 500000, 0.023 * TPH * 0.91, kind="storage", grow=0.001),
   L(A2, "AWS", "CloudFront", "media", "DataTransfer-Out-GB", 2500, 0.085 * 0.91, week="req", cv=0.05),
   L(A2, "AWS", "Lambda", "search", "Lambda-GB-Second-Million", 0.5, 16.67 * 0.91, week="req", cv=0.06),
   L(A1, "AWS", "EC2", "batch", "c7i.4xlarge", 30, 0.714 * 0.91, cv=0.03, integer=True),
   L(A3, "AWS", "EKS", "platform", "m7g.xlarge", 40, 0.1632 * 0.91, cv=0.03, integer=True),
   fee(APAY, "AWS", "AWS Organizations", "shared", "Consolidated-Billing", 0.0 + 1.0)],
  [dict(on=D(2026, 9, 1), sel=lambda l: l["csp"] == "AWS" and _use(l), price=1 / 0.91)],
  acct=A2, hist=150)

# ================================ service ===================================================
# 5. Bedrock: the gateway's prompt cache disabled: input tokens x3, cache-read tokens fall
S("service", [("Amazon Bedrock", "Cloud_Service")], D(2026, 3, 18),
  "an LLM gateway release drops the prompt-caching header on Wednesday 18 March: in every "
  "application using Amazon Bedrock (support-bot, doc-search, code-review) the input tokens are billed "
  "in full (x3) and the cache-read tokens fall to a tenth; output tokens flat; the GPU instances "
  "(EC2 g6e) and OpenSearch Serverless vector store of the same applications flat",
  "one family rises while another of the same service falls; three applications; a GPU family in "
  "the same applications does not move; office-hours traffic",
  [L(A1, "AWS", "Amazon Bedrock", "support-bot", "Model-A-Input-Tokens-1K", 9000, 0.003, week="office", cv=0.05),
   L(A1, "AWS", "Amazon Bedrock", "support-bot", "Model-A-Cache-Read-Tokens-1K", 30000, 0.0003, week="office", cv=0.05),
   L(A1, "AWS", "Amazon Bedrock", "support-bot", "Model-A-Output-Tokens-1K", 1500, 0.015, week="office", cv=0.05, keep=True),
   L(A1, "AWS", "Amazon Bedrock", "doc-search", "Model-B-Input-Tokens-1K", 14000, 0.0008, week="req", cv=0.05),
   L(A1, "AWS", "Amazon Bedrock", "doc-search", "Model-B-Cache-Read-Tokens-1K", 40000, 0.00008, week="req", cv=0.05),
   L(A1, "AWS", "Amazon Bedrock", "code-review", "Model-A-Input-Tokens-1K", 5000, 0.003, week="office", cv=0.06),
   L(A1, "AWS", "Amazon Bedrock", "code-review", "Model-A-Cache-Read-Tokens-1K", 16000, 0.0003, week="office", cv=0.06),
   L(A1, "AWS", "EC2", "doc-search", "g6e.2xlarge", 6, 2.242, cv=0.02, integer=True),
   L(A1, "AWS", "OpenSearch Serverless", "doc-search", "OCU-Hour", 4, 0.24, cv=0.01),
   L(A1, "AWS", "S3", "support-bot", "Standard-Storage-GB", 60000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 3, 18), sel=lambda l: l["svc"] == "Amazon Bedrock" and "-Input-" in l["fam"], count=3.0),
   dict(on=D(2026, 3, 18), sel=lambda l: l["svc"] == "Amazon Bedrock" and "Cache-Read" in l["fam"], count=0.1)],
  acct=A1, hist=70, dec=6)

# 6. Kinesis Data Streams moved from provisioned to on-demand on every stream
S("service", [("Kinesis Data Streams", "Cloud_Service")], D(2026, 5, 20),
  "a platform change switches every Kinesis data stream from provisioned to on-demand capacity on "
  "Wednesday 20 May: the shard-hour and PUT-payload-unit lines stop and on-demand stream-hour, "
  "ingested-GB and retrieved-GB lines start in telemetry, orders and audit (net x2.3 for the service); "
  "Lambda consumers, DynamoDB and S3 flat",
  "lines stop and new lines start (no history) in one service over three applications; the service's "
  "total rises while its old families vanish; Lambda consumers of the same streams flat",
  [static(A3, "AWS", "Kinesis Data Streams", "telemetry", "Shard-Hour", 40, 0.015, key="k1"),
   L(A3, "AWS", "Kinesis Data Streams", "telemetry", "PUT-Payload-Units-Million", 12, 0.014, cv=0.05, key="k2"),
   static(A3, "AWS", "Kinesis Data Streams", "orders", "Shard-Hour", 10, 0.015, key="k3"),
   static(A3, "AWS", "Kinesis Data Streams", "audit", "Shard-Hour", 4, 0.015, key="k4"),
   static(A3, "AWS", "Kinesis Data Streams", "telemetry", "OnDemand-Stream-Hour", 1, 0.04, cause=True, start=D(2026, 5, 20)),
   L(A3, "AWS", "Kinesis Data Streams", "telemetry", "OnDemand-Ingested-GB", 45, 0.08, cv=0.05, cause=True, start=D(2026, 5, 20)),
   L(A3, "AWS", "Kinesis Data Streams", "telemetry", "OnDemand-Retrieved-GB", 90, 0.04, cv=0.05, cause=True, start=D(2026, 5, 20)),
   L(A3, "AWS", "Kinesis Data Streams", "orders", "OnDemand-Ingested-GB", 8, 0.08, week="req", cv=0.05, cause=True, start=D(2026, 5, 20)),
   L(A3, "AWS", "Kinesis Data Streams", "audit", "OnDemand-Ingested-GB", 3, 0.08, week="office", cv=0.06, cause=True, start=D(2026, 5, 20)),
   L(A3, "AWS", "Lambda", "telemetry", "Lambda-GB-Second-Million", 0.4, 16.67, cv=0.05),
   L(A3, "AWS", "DynamoDB", "orders", "WriteRequestUnits-Million", 1.5, 1.25, week="req", cv=0.05),
   L(A3, "AWS", "S3", "audit", "Standard-Storage-GB", 200000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 5, 20), sel=lambda l: l.get("key") in ("k1", "k2", "k3", "k4"), stop=True)],
  acct=A3, hist=63)

# 7. Cloud Bigtable committed-use discount expires (nodes above the commitment were already on demand)
S("service", [("Cloud Bigtable", "Cloud_Service")], D(2026, 6, 23),
  "the 1-year Cloud Bigtable committed-use discount (covering 30 nodes at 20% off) expires on "
  "Tuesday 23 June: SSD and HDD node hours of ads-profile, fraud-features and timeseries are billed "
  "on demand; Bigtable storage and every other service (GKE, Dataflow, Cloud Storage) flat; projects "
  "of a second billing account (orca-legacy-5120) in the same export",
  "a commitment spread over three applications and two node families; autoscaled node counts move "
  "every day and exceed the commitment (the part above it was on demand already, so the price column "
  "blends); storage of the same clusters flat",
  [L(GB, "GCP", "Cloud Bigtable", "ads-profile", "Bigtable-SSD-Node-Hour", 16, 0.65, cv=0.04, com=(12, 0.52)),
   L(GB, "GCP", "Cloud Bigtable", "fraud-features", "Bigtable-SSD-Node-Hour", 12, 0.65, week="req", cv=0.04, com=(10, 0.52)),
   L(GB, "GCP", "Cloud Bigtable", "timeseries", "Bigtable-HDD-Node-Hour", 10, 0.65, cv=0.02, com=(8, 0.52)),
   L(GB, "GCP", "Cloud Bigtable", "timeseries", "Bigtable-HDD-Storage-GB", 400000, 0.026 * TPH, kind="storage", grow=0.002, keep=True),
   L(GB, "GCP", "GKE", "ads-profile", "n2d-standard-16", 30, 0.675, week="req", cv=0.03, integer=True),
   L(GB, "GCP", "Dataflow", "fraud-features", "Dataflow-vCPU-Hour", 80, 0.056, cv=0.06),
   L(GB, "GCP", "Cloud Storage", "timeseries", "Nearline-Storage-GB", 600000, 0.010 * TPH, kind="storage", grow=0.001),
   L(GX, "GCP", "Cloud Bigtable", "legacy-crm", "Bigtable-SSD-Node-Hour", 3, 0.65, cv=0.02),
   L(GX, "GCP", "Compute Engine", "legacy-crm", "n1-standard-8", 8, 0.38, cv=0.02, integer=True)],
  [dict(on=D(2026, 6, 23), sel=lambda l: l["svc"] == "Cloud Bigtable" and l["acct"] == GB and _use(l), nocom=True)],
  acct=GB, hist=91)

# 8. Azure Container Apps: a policy sets min replicas 0 -> 2 on every app (idle becomes active)
S("service", [("Azure Container Apps", "Cloud_Service")], D(2026, 8, 5),
  "an Azure Policy remediation sets minReplicas 0 -> 2 on every container app on Wednesday 5 August: "
  "vCPU-seconds and memory GiB-seconds of the Consumption plan x2.6 in portal, notifier and pdf-render "
  "(their requests flat); AKS, Azure SQL and Storage flat",
  "two families in three applications of one service; the requests line of the same apps does not "
  "move; office-hours apps where the weekend level was near zero",
  [L(ZW, "Azure", "Azure Container Apps", "portal", "Consumption-vCPU-Second-Million", 0.9, 24.0 / 24, week="office", cv=0.05),
   L(ZW, "Azure", "Azure Container Apps", "portal", "Consumption-Memory-GiB-Second-Million", 1.8, 3.0 / 24, week="office", cv=0.05),
   L(ZW, "Azure", "Azure Container Apps", "portal", "Requests-Million", 0.2, 0.40 / 24, week="office", cv=0.06, keep=True),
   L(ZW, "Azure", "Azure Container Apps", "notifier", "Consumption-vCPU-Second-Million", 0.3, 24.0 / 24, week="req", cv=0.05),
   L(ZW, "Azure", "Azure Container Apps", "pdf-render", "Consumption-Memory-GiB-Second-Million", 1.2, 3.0 / 24, week="office", cv=0.06),
   L(ZW, "Azure", "AKS", "portal", "D4s_v5", 12, 0.192, cv=0.02, integer=True),
   static(ZW, "Azure", "Azure SQL Database", "notifier", "GP_S_Gen5_2", 1, 0.52),
   L(ZW, "Azure", "Storage", "pdf-render", "Hot-LRS-GB", 30000, 0.0184 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 8, 5), sel=lambda l: l["svc"] == "Azure Container Apps" and not l["keep"], count=2.6)],
  acct=ZW, hist=84)

# 9. Firestore prices +25% (reads, writes, deletes) in every application
S("service", [("Firestore", "Cloud_Service")], D(2026, 10, 7),
  "Firestore (Native mode) operation prices +25% on Wednesday 7 October: document reads, writes and "
  "deletes in mobile-app, chat and leaderboard; Firestore stored data (GB) keeps its price; Cloud "
  "Functions, Firebase Hosting and Cloud Run flat",
  "operation lines with tiny unit prices and a weekly habit; the stored-data line of the same "
  "service and application keeps its price and grows; three applications, three operation SKUs",
  [L(GA, "GCP", "Firestore", "mobile-app", "Document-Reads-100K", 180, 0.03 / 24 * 24, week="req", cv=0.05),
   L(GA, "GCP", "Firestore", "mobile-app", "Document-Writes-100K", 40, 0.09, week="req", cv=0.05),
   L(GA, "GCP", "Firestore", "chat", "Document-Writes-100K", 60, 0.09, cv=0.05),
   L(GA, "GCP", "Firestore", "chat", "Document-Deletes-100K", 20, 0.01, cv=0.05),
   L(GA, "GCP", "Firestore", "leaderboard", "Document-Reads-100K", 90, 0.03, week="req", cv=0.06),
   L(GA, "GCP", "Firestore", "chat", "Stored-Data-GB", 8000, 0.18 * TPH, kind="storage", grow=0.002, keep=True),
   L(GA, "GCP", "Cloud Functions", "chat", "Invocations-Million", 1.2, 0.40, cv=0.05),
   L(GA, "GCP", "Cloud Run", "leaderboard", "vCPU-Second-Million", 0.15, 86.4 / 3.6, week="req", cv=0.05),
   L(GA, "GCP", "Firebase Hosting", "mobile-app", "Hosting-Transfer-GB", 40, 0.15, week="req", cv=0.06)],
  [dict(on=D(2026, 10, 7), sel=lambda l: l["svc"] == "Firestore" and "Document-" in l["fam"], price=1.25)],
  acct=GA, hist=77)

# ================================ family / SKU ===============================================
# 10. GCP inter-zone egress: a mesh loses zone-aware routing; internet egress of the same apps flat
S("family", [("Network-Inter-Zone-Data-Transfer-GB", "Instance_Family")], D(2026, 1, 27),
  "an Istio upgrade drops locality-load-balancing on Tuesday 27 January: traffic between pods is "
  "spread over the three zones and Network-Inter-Zone-Data-Transfer-GB x3.2 in checkout, catalog and "
  "recs (GKE, Compute Engine); Premium internet egress of the same applications, inter-region "
  "transfer and the nodes flat",
  "two egress SKUs of the same traffic in the same applications: only the between-zones one moves; "
  "internet egress is the larger line and is flat; one family across two services",
  [L(GC, "GCP", "Networking", "checkout", "Network-Inter-Zone-Data-Transfer-GB", 900, 0.01, week="req", cv=0.05),
   L(GC, "GCP", "Networking", "catalog", "Network-Inter-Zone-Data-Transfer-GB", 500, 0.01, week="req", cv=0.05),
   L(GC, "GCP", "Compute Engine", "recs", "Network-Inter-Zone-Data-Transfer-GB", 300, 0.01, cv=0.05),
   L(GC, "GCP", "Networking", "checkout", "Premium-Internet-Egress-GB", 2200, 0.085, week="req", cv=0.05),
   L(GC, "GCP", "Networking", "catalog", "Premium-Internet-Egress-GB", 900, 0.085, week="req", cv=0.05),
   L(GC, "GCP", "Networking", "recs", "Network-Inter-Region-Data-Transfer-GB", 200, 0.02, cv=0.05),
   L(GC, "GCP", "GKE", "checkout", "n2-standard-8", 48, 0.3885, week="req", cv=0.03, integer=True),
   L(GC, "GCP", "Compute Engine", "recs", "c3-highmem-8", 10, 0.4512, cv=0.02, integer=True)],
  [dict(on=D(2026, 1, 27), sel=fam("Network-Inter-Zone-Data-Transfer-GB"), count=3.2)],
  acct=GC, hist=63, dec=5)

# 11. GPU family: a shared scheduler's quota for ND H100 v5 raised: every team's training pool doubles
S("family", [("ND96isr_H100_v5", "Instance_Family")], D(2026, 5, 6),
  "the ML platform's shared queue gets its ND96isr_H100_v5 quota raised on Wednesday 6 May and the "
  "pending jobs of three teams start: that GPU family x2 in vision, speech and llm-eval (AKS and Azure "
  "Machine Learning); the NC A100 v4 family in the same teams, storage and CPU pools flat",
  "a GPU family across two services and three applications while a sibling GPU family in the same "
  "applications is flat; an expensive, spiky family (jobs come and go) with a high noise level",
  [L(ZS, "Azure", "AKS", "vision", "ND96isr_H100_v5", 4, 98.32, cv=0.12, integer=True),
   L(ZS, "Azure", "Azure Machine Learning", "speech", "ND96isr_H100_v5", 2, 98.32, cv=0.12, integer=True),
   L(ZS, "Azure", "Azure Machine Learning", "llm-eval", "ND96isr_H100_v5", 3, 98.32, cv=0.12, integer=True),
   L(ZS, "Azure", "AKS", "vision", "NC24ads_A100_v4", 6, 3.67, cv=0.10, integer=True),
   L(ZS, "Azure", "Azure Machine Learning", "speech", "NC24ads_A100_v4", 4, 3.67, cv=0.10, integer=True),
   L(ZS, "Azure", "AKS", "vision", "D16s_v5", 20, 0.768, cv=0.03, integer=True),
   L(ZS, "Azure", "Storage", "llm-eval", "Premium-Blob-GB", 200000, 0.15 * TPH, kind="storage", grow=0.002)],
  [dict(on=D(2026, 5, 6), sel=fam("ND96isr_H100_v5"), count=2.0)],
  acct=ZS, hist=60)

# 12. CloudWatch vended logs: VPC flow logs switched from REJECT to ALL in every VPC
S("family", [("VendedLogs-Ingested-GB", "Instance_Family")], D(2026, 8, 18),
  "a compliance change switches every VPC flow log from REJECT-only to ALL traffic on Tuesday 18 "
  "August: CloudWatch VendedLogs-Ingested-GB x7 in payments, search and identity; standard CloudWatch "
  "log ingestion (application logs), metrics and log storage of the same applications flat",
  "log ingestion per GB with two SKUs in the same service and applications: only the vended one "
  "moves; the standard log SKU is larger and has its own weekly habit",
  [L(A1, "AWS", "CloudWatch", "payments", "VendedLogs-Ingested-GB", 40, 0.50, cv=0.05),
   L(A1, "AWS", "CloudWatch", "search", "VendedLogs-Ingested-GB", 25, 0.50, cv=0.05),
   L(A1, "AWS", "CloudWatch", "identity", "VendedLogs-Ingested-GB", 10, 0.50, cv=0.05),
   L(A1, "AWS", "CloudWatch", "payments", "Logs-Ingested-GB", 200, 0.50, week="req", cv=0.05),
   L(A1, "AWS", "CloudWatch", "search", "Logs-Ingested-GB", 150, 0.50, week="req", cv=0.05),
   L(A1, "AWS", "CloudWatch", "identity", "Metrics-Custom", 3000, 0.30 * TPH, cv=0.01),
   L(A1, "AWS", "CloudWatch", "payments", "Logs-Storage-GB", 90000, 0.03 * TPH, kind="storage", grow=0.002),
   L(A1, "AWS", "EC2", "search", "r7g.xlarge", 30, 0.2142, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 8, 18), sel=fam("VendedLogs-Ingested-GB"), count=7.0)],
  acct=A1, hist=98)

# 13. Glacier Instant Retrieval retrievals x15 after a shared Athena view starts scanning archived partitions
S("family", [("GlacierIR-Retrieval-GB", "Instance_Family")], D(2026, 11, 11),
  "a shared Athena view is redefined without its date filter on Wednesday 11 November: every daily "
  "report scans the archived partitions and S3 GlacierIR-Retrieval-GB x15 in finance, marketing and "
  "risk; Glacier IR storage, Standard storage, Athena scanned bytes (a partition-projected engine "
  "billing only the Standard data) flat",
  "a small retrieval SKU in three applications becomes large; the storage SKUs of the same class and "
  "applications do not move; Athena (the cause's tool) is flat",
  [L(A3, "AWS", "S3", "finance", "GlacierIR-Retrieval-GB", 60, 0.03, week="office", cv=0.08),
   L(A3, "AWS", "S3", "marketing", "GlacierIR-Retrieval-GB", 40, 0.03, week="office", cv=0.08),
   L(A3, "AWS", "S3", "risk", "GlacierIR-Retrieval-GB", 90, 0.03, cv=0.08),
   L(A3, "AWS", "S3", "finance", "GlacierIR-Storage-GB", 3000000, 0.004 * TPH, kind="storage", grow=0.001),
   L(A3, "AWS", "S3", "risk", "Standard-Storage-GB", 800000, 0.023 * TPH, kind="storage", grow=0.001),
   L(A3, "AWS", "Athena", "finance", "DataScanned-TB", 2.0, 5.0 / 24 * 24, week="office", cv=0.08),
   L(A3, "AWS", "EC2", "risk", "m7i.xlarge", 16, 0.2016, cv=0.02, integer=True)],
  [dict(on=D(2026, 11, 11), sel=fam("GlacierIR-Retrieval-GB"), count=15.0)],
  acct=A3, hist=200)

# ================================ region =====================================================
# 14. RDS reserved instances expire in eu-west-1 only (one account per region); us-east-1 RIs still active
S("region", [("RDS", "Cloud_Service")], D(2026, 2, 25),
  "the 3-year RDS reserved instances bought for eu-west-1 expire on Wednesday 25 February: every RDS "
  "instance line of the eu-west-1 account (db.r6g.2xlarge of billing, db.m6g.xlarge of crm) is billed "
  "on demand (about x1.55); the RDS storage there (gp3 GB) and the same families in the us-east-1 "
  "account (reservations running to 2027) flat; EC2 and ElastiCache there flat",
  "a reservation ending in one region only: the same families run flat under the other region's "
  "account in the same file; static databases (exactly flat cost until the day); RDS storage of the "
  "same applications is inside the moved service and flat",
  [static(AEU, "AWS", "RDS", "billing", "db.r6g.2xlarge", 4, 0.94, com=(4, 0.605)),
   static(AEU, "AWS", "RDS", "crm", "db.m6g.xlarge", 2, 0.35, com=(2, 0.226)),
   L(AEU, "AWS", "RDS", "billing", "RDS-gp3-Storage-GB", 20000, 0.127 * TPH, kind="storage", grow=0.001, keep=True),
   L(AEU, "AWS", "EC2", "billing", "m6g.2xlarge", 24, 0.344, week="req", cv=0.03, integer=True),
   static(AEU, "AWS", "ElastiCache", "crm", "cache.r6g.large", 2, 0.228),
   static(AUS, "AWS", "RDS", "billing", "db.r6g.2xlarge", 6, 0.86, com=(6, 0.553)),
   static(AUS, "AWS", "RDS", "crm", "db.m6g.xlarge", 2, 0.318, com=(2, 0.205)),
   L(AUS, "AWS", "EC2", "billing", "m6g.2xlarge", 40, 0.308, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 2, 25), sel=lambda l: l["svc"] == "RDS" and l["acct"] == AEU and l["com"], nocom=True)],
  acct=AEU, hist=180)

# 15. Azure Sweden Central: Azure Cache for Redis prices +18% (one subscription per region)
S("region", [("Azure Cache for Redis", "Cloud_Service")], D(2026, 6, 2),
  "Azure Cache for Redis prices in Sweden Central +18% on Tuesday 2 June: the P2 cache of sessions and "
  "the E10 Enterprise cache of pricing in the swedencentral subscription; AKS and Cosmos DB there "
  "and the same caches in the westeurope subscription flat",
  "two families in two applications in a small subscription beside a larger westeurope subscription "
  "running the same caches flat; the Enterprise cache is billed per capacity unit with a licence "
  "share (blended price)",
  [static(ZS, "Azure", "Azure Cache for Redis", "sessions", "Premium-P2", 2, 0.555),
   static(ZS, "Azure", "Azure Cache for Redis", "pricing", "Enterprise-E10", 2, 0.891),
   L(ZS, "Azure", "AKS", "sessions", "D8s_v5", 6, 0.384, cv=0.015, integer=True),
   static(ZS, "Azure", "Azure Cosmos DB", "pricing", "Provisioned-RU-100", 60, 0.008),
   static(ZW, "Azure", "Azure Cache for Redis", "sessions", "Premium-P2", 6, 0.555),
   static(ZW, "Azure", "Azure Cache for Redis", "pricing", "Enterprise-E10", 4, 0.891),
   L(ZW, "Azure", "AKS", "sessions", "D8s_v5", 40, 0.384, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 6, 2), sel=svc("Azure Cache for Redis", ZS), price=1.18)],
  acct=ZS, hist=70)

# 16. GCP asia-south1: Filestore prices +20% (one project per region)
S("region", [("Filestore", "Cloud_Service")], D(2026, 9, 16),
  "Filestore prices in asia-south1 (Mumbai) +20% on Wednesday 16 September: Basic HDD and Zonal "
  "instances of media-cms and payroll in the asia-south1 project; Compute Engine and Cloud SQL there "
  "and Filestore in the us-central1 project flat",
  "capacity lines that grow slowly; two tiers in two applications; the same tiers flat in the other "
  "region's project in the same file",
  [L(GIN, "GCP", "Filestore", "media-cms", "Basic-HDD-GiB", 20480, 0.20 * TPH, kind="storage", grow=0.0008),
   L(GIN, "GCP", "Filestore", "payroll", "Zonal-GiB", 10240, 0.26 * TPH, kind="storage", grow=0.0005),
   L(GIN, "GCP", "Compute Engine", "media-cms", "n2-standard-4", 12, 0.2144, week="req", cv=0.03, integer=True),
   static(GIN, "GCP", "Cloud SQL", "payroll", "db-custom-4-16384", 1, 0.38),
   L(GUS, "GCP", "Filestore", "media-cms", "Basic-HDD-GiB", 61440, 0.16 * TPH, kind="storage", grow=0.0008),
   L(GUS, "GCP", "Filestore", "payroll", "Zonal-GiB", 20480, 0.20 * TPH, kind="storage", grow=0.0005),
   L(GUS, "GCP", "Compute Engine", "media-cms", "n2-standard-4", 30, 0.1942, week="req", cv=0.03, integer=True)],
  [dict(on=D(2026, 9, 16), sel=svc("Filestore", GIN), price=1.20)],
  acct=GIN, hist=110)

# ================================ application ================================================
# 17. render: spot capacity interrupted, the Auto Scaling group falls back to on-demand
S("application", [("render", "Application")], D(2026, 3, 24),
  "the g5.4xlarge spot pool of render is reclaimed on Tuesday 24 March and its Auto Scaling group "
  "falls back to on-demand: g5.4xlarge-Spot 24 -> 3 instances, g5.4xlarge (on-demand) 2 -> 23; "
  "render's EBS volumes flat; transcode's spot pool of the same family and everything else flat",
  "inside one service (EC2): one family falls, another rises (3x its price); the spot family runs "
  "flat in another application; spot prices drift every day",
  [L(A2, "AWS", "EC2", "render", "g5.4xlarge-Spot", 24, 0.58, cv=0.03, integer=True, drift=0.03),
   L(A2, "AWS", "EC2", "render", "g5.4xlarge", 2, 1.624, cv=0.0, integer=True),
   L(A2, "AWS", "EC2", "render", "EBS-gp3-GB", 48000, 0.08 * TPH, kind="storage", grow=0.0, keep=True),
   L(A2, "AWS", "EC2", "transcode", "g5.4xlarge-Spot", 10, 0.58, cv=0.03, integer=True, drift=0.03),
   L(A2, "AWS", "S3", "render", "Standard-Storage-GB", 250000, 0.023 * TPH, kind="storage", grow=0.001, keep=True),
   L(A2, "AWS", "CloudFront", "transcode", "DataTransfer-Out-GB", 800, 0.085, week="req", cv=0.05)],
  [dict(on=D(2026, 3, 24), sel=lambda l: l["app"] == "render" and l["fam"] == "g5.4xlarge-Spot", count=3 / 24),
   dict(on=D(2026, 3, 24), sel=lambda l: l["app"] == "render" and l["fam"] == "g5.4xlarge", count=23 / 2)],
  acct=A2, hist=84, dec=5)

# 18. ledger-api: tags missing for nine days in the history; on the day a batch reconciliation doubles it
S("application", [("ledger-api", "Application")], D(2026, 7, 29),
  "ledger-api switches on per-transaction reconciliation on Wednesday 29 July: its EKS nodes x1.8, "
  "Aurora I/O x3 and SQS requests x2.5; the Application tag of ledger-api's lines was missing from 6 "
  "to 14 July (cost under an empty Application); treasury and the rest flat",
  "tags missing for part of the period: ledger-api's history has a 9-day hole (its cost shows under an "
  "empty Application), so a per-application baseline is broken; three services, three families",
  [L(A1, "AWS", "EKS", "ledger-api", "m7i.2xlarge", 20, 0.4032, week="req", cv=0.03, integer=True,
     untag={D(2026, 7, d) for d in range(6, 15)}),
   L(A1, "AWS", "Aurora", "ledger-api", "Aurora-IO-Requests-Million", 3.0, 0.20, week="req", cv=0.05,
     untag={D(2026, 7, d) for d in range(6, 15)}),
   L(A1, "AWS", "SQS", "ledger-api", "Standard-Requests-Million", 1.2, 0.40, week="req", cv=0.05,
     untag={D(2026, 7, d) for d in range(6, 15)}),
   L(A1, "AWS", "EKS", "treasury", "m7i.2xlarge", 16, 0.4032, week="office", cv=0.03, integer=True),
   L(A1, "AWS", "Aurora", "treasury", "Aurora-IO-Requests-Million", 2.0, 0.20, week="office", cv=0.05),
   static(A1, "AWS", "Aurora", "treasury", "db.r7g.xlarge", 2, 0.553),
   L(A1, "AWS", "S3", "treasury", "Standard-Storage-GB", 120000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 7, 29), sel=app("ledger-api", f="m7i.2xlarge"), count=1.8),
   dict(on=D(2026, 7, 29), sel=app("ledger-api", f="Aurora-IO-Requests-Million"), count=3.0),
   dict(on=D(2026, 7, 29), sel=app("ledger-api", f="Standard-Requests-Million"), count=2.5)],
  acct=A1, hist=60)

# 19. siem onboards a new log source: Elastic hot tier, Firehose, S3 (across Elastic Cloud and AWS)
S("application", [("siem", "Application")], D(2026, 10, 20),
  "siem onboards firewall logs on Tuesday 20 October: its Elastic Cloud hot tier autoscales x2 (RAM "
  "GB), AWS Kinesis Data Firehose ingest x3 and S3 storage steps up 15%; apm's and search's lines "
  "(same providers and families) flat; siem's frozen tier and ML nodes flat",
  "one application under two providers (Elastic Cloud and AWS): no provider or service holds the "
  "change; the hot-tier family runs flat in apm; siem's frozen and ML lines do not move",
  [L(MEL, "Elastic Cloud", "Elasticsearch", "siem", "Data-Hot-Storage-Optimized-RAM-GB", 960, 0.0178, cv=0.01),
   L(MEL, "Elastic Cloud", "Elasticsearch", "apm", "Data-Hot-Storage-Optimized-RAM-GB", 240, 0.0178, cv=0.01),
   L(MEL, "Elastic Cloud", "Elasticsearch", "siem", "Data-Frozen-RAM-GB", 120, 0.035, kind="storage", grow=0.002, keep=True),
   static(MEL, "Elastic Cloud", "Machine Learning", "siem", "ML-Node-RAM-GB", 64, 0.026, keep=True),
   static(MEL, "Elastic Cloud", "Kibana", "search", "Kibana-RAM-GB", 8, 0.0132),
   L(MEL, "AWS", "Kinesis Data Firehose", "siem", "Ingested-GB", 400, 0.029, cv=0.05),
   L(MEL, "AWS", "Kinesis Data Firehose", "apm", "Ingested-GB", 150, 0.029, cv=0.05),
   L(MEL, "AWS", "S3", "siem", "Standard-Storage-GB", 300000, 0.023 * TPH, kind="storage", grow=0.001),
   L(MEL, "AWS", "EC2", "apm", "c7g.large", 10, 0.0725, cv=0.02, integer=True)],
  [dict(on=D(2026, 10, 20), sel=app("siem", MEL, "Data-Hot-Storage-Optimized-RAM-GB"), count=2.0),
   dict(on=D(2026, 10, 20), sel=app("siem", MEL, "Ingested-GB"), count=3.0),
   dict(on=D(2026, 10, 20), sel=app("siem", MEL, "Standard-Storage-GB"), count=1.15)],
  acct=MEL, hist=100)

# 20. kiosk: a firmware bug makes devices report every second; a refund line in the history
S("application", [("kiosk", "Application")], D(2026, 12, 8),
  "a kiosk firmware release on Tuesday 8 December makes 40,000 devices publish every second: kiosk's "
  "IoT Core messages x5, Lambda GB-seconds x4 and DynamoDB write units x5; signage's lines of the "
  "same families flat; a refund for an earlier IoT overcharge (negative line) on 19 November and a "
  "Black Friday peak (27-30 November) in the history",
  "a negative refund line and a retail peak in the same month's history; three services, three "
  "families of one application; the same families flat in signage",
  [L(A3, "AWS", "IoT Core", "kiosk", "Messages-Million", 1.0, 1.0, cv=0.04,
     hol={D(2026, 11, d): 1.6 for d in range(27, 31)}),
   L(A3, "AWS", "Lambda", "kiosk", "Lambda-GB-Second-Million", 0.3, 16.67, cv=0.05,
     hol={D(2026, 11, d): 1.6 for d in range(27, 31)}),
   L(A3, "AWS", "DynamoDB", "kiosk", "WriteRequestUnits-Million", 0.8, 1.25, cv=0.05,
     hol={D(2026, 11, d): 1.6 for d in range(27, 31)}),
   L(A3, "AWS", "IoT Core", "signage", "Messages-Million", 0.4, 1.0, cv=0.04),
   L(A3, "AWS", "Lambda", "signage", "Lambda-GB-Second-Million", 0.2, 16.67, cv=0.05),
   L(A3, "AWS", "DynamoDB", "signage", "WriteRequestUnits-Million", 0.3, 1.25, cv=0.05),
   L(A3, "AWS", "EC2", "signage", "m7g.large", 20, 0.0816, cv=0.02, integer=True),
   fee(A3, "AWS", "Refund", "kiosk", "IoT-Overcharge-Refund", -900.0, ondays={D(2026, 11, 19)})],
  [dict(on=D(2026, 12, 8), sel=app("kiosk", A3, "Messages-Million"), count=5.0),
   dict(on=D(2026, 12, 8), sel=app("kiosk", A3, "Lambda-GB-Second-Million"), count=4.0),
   dict(on=D(2026, 12, 8), sel=app("kiosk", A3, "WriteRequestUnits-Million"), count=5.0)],
  acct=A3, hist=75)

# ================================ resource ===================================================
# 21. one Azure Backup vault grows: a 40 TB file share added to its policy
S("resource", [("Backup-Storage-GRS-GB", "Instance_Family")], D(2026, 1, 13),
  "a 40 TB file share is added to the records vault's policy on Tuesday 13 January: the vault's "
  "Backup-Storage-GRS-GB line x2.4 (first full recovery point) and keeps growing; the vault's "
  "protected-instance fee line, the other vault (LRS) and everything else flat",
  "a backup vault growing every day steps up; the same vault's protected-instance line (same "
  "application and service) does not move; a second vault in another application uses an LRS family",
  [L(ZE, "Azure", "Backup", "records", "Backup-Storage-GRS-GB", 30000, 0.0448 * TPH, kind="storage", grow=0.003),
   static(ZE, "Azure", "Backup", "records", "Protected-Instance-Over-500GB", 12, 10.0 * TPH),
   L(ZE, "Azure", "Backup", "hr", "Backup-Storage-LRS-GB", 8000, 0.0224 * TPH, kind="storage", grow=0.003),
   static(ZE, "Azure", "Backup", "hr", "Protected-Instance-Over-500GB", 3, 10.0 * TPH),
   L(ZE, "Azure", "Azure Files", "records", "Premium-Provisioned-GiB", 40960, 0.16 * TPH, kind="storage", grow=0.0),
   L(ZE, "Azure", "Virtual Machines", "hr", "D4as_v5", 8, 0.172, week="office", cv=0.02, integer=True)],
  [dict(on=D(2026, 1, 13), sel=fam("Backup-Storage-GRS-GB"), count=2.4)],
  acct=ZE, hist=140)

# 22. one Elastic Cloud deployment's ML tier left autoscaled after an anomaly job backfill
S("resource", [("ML-Node-RAM-GB", "Instance_Family")], D(2026, 4, 28),
  "the siem deployment's machine-learning tier autoscales 64 -> 512 GB RAM for an anomaly-job "
  "backfill on Tuesday 28 April and the autoscaling maximum is not lowered: its ML-Node-RAM-GB line "
  "x8; its hot and frozen tiers, the apm deployment and the AWS lines flat",
  "a static line (exactly flat until the day) steps x8 in an Elastic Cloud + AWS account; the hot "
  "tier of the same deployment (larger line) does not move",
  [L(MEL, "Elastic Cloud", "Elasticsearch", "siem", "Data-Hot-Storage-Optimized-RAM-GB", 960, 0.0159, cv=0.01),
   L(MEL, "Elastic Cloud", "Elasticsearch", "siem", "Data-Frozen-RAM-GB", 120, 0.0312, kind="storage", grow=0.002),
   static(MEL, "Elastic Cloud", "Machine Learning", "siem", "ML-Node-RAM-GB", 64, 0.0233),
   L(MEL, "Elastic Cloud", "Elasticsearch", "apm", "Data-Warm-Dense-RAM-GB", 240, 0.0104, cv=0.01),
   L(MEL, "AWS", "Kinesis Data Firehose", "siem", "Ingested-GB", 400, 0.029, cv=0.05),
   L(MEL, "AWS", "S3", "siem", "Standard-Storage-GB", 300000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 4, 28), sel=fam("ML-Node-RAM-GB"), count=8.0)],
  acct=MEL, hist=65)

# 23. daylight-saving day (25 hours): one GPU node pool left running after a Saturday job
S("resource", [("NC24ads_A100_v4", "Instance_Family")], D(2026, 10, 25),
  "Sunday 25 October has 25 hours (the end of summer time in Europe; every metered line bills 25/24 "
  "of a day): on top of that the A100 node pool of vision (scaled to zero on weekends) is left at 8 "
  "nodes after a Saturday job: its NC24ads_A100_v4 line goes from nothing-on-Sundays to 8 x 25 hours; "
  "every other line only shows the extra hour",
  "a 25-hour day raises every line by 4%; the moved line is absent on earlier Sundays (office pool); "
  "the March 23-hour day is in the bill; the family runs flat on weekdays in speech",
  [L(ZE, "Azure", "AKS", "vision", "NC24ads_A100_v4", 6, 3.67, week="off", cv=0.05, integer=True),
   static(ZE, "Azure", "AKS", "vision", "NC24ads_A100_v4", 8, 3.67, cause=True, start=D(2026, 10, 25)),
   L(ZE, "Azure", "AKS", "speech", "NC24ads_A100_v4", 4, 3.67, week="off", cv=0.05, integer=True),
   L(ZE, "Azure", "AKS", "vision", "D16s_v5", 20, 0.768, week="req", cv=0.03, integer=True),
   L(ZE, "Azure", "Storage", "vision", "Premium-Blob-GB", 90000, 0.15 * TPH, kind="storage", grow=0.001),
   static(ZE, "Azure", "Azure SQL Database", "speech", "GP_Gen5_4", 1, 1.009),
   L(ZE, "Azure", "Bandwidth", "vision", "Internet-Egress-GB", 120, 0.087, week="req", cv=0.05)],
  [], acct=ZE, hist=240, after=0, dst=DST_EU_26, dec=6)

# 24. one Redshift Serverless workgroup's base capacity raised 32 -> 128 RPU and left there
S("resource", [("Redshift-Serverless-RPU-Hour", "Instance_Family")], D(2026, 7, 8),
  "the finance-mart Redshift Serverless workgroup's base capacity is raised 32 -> 128 RPU for a "
  "quarter-close load on Wednesday 8 July and left there: its RPU-hour line x4; the managed storage "
  "of the same workgroup, the provisioned ra3 cluster of marketing and the rest flat",
  "a quarter close on 30 June (a month-end habit x2 on the same line) sits a week before; the "
  "storage line of the same workgroup does not move; a provisioned cluster in the same service",
  [L(A2, "AWS", "Redshift", "finance-mart", "Redshift-Serverless-RPU-Hour", 12, 0.375, week="office", cv=0.08, mend=2.0),
   L(A2, "AWS", "Redshift", "finance-mart", "Redshift-Managed-Storage-GB", 60000, 0.024 * TPH, kind="storage", grow=0.001),
   static(A2, "AWS", "Redshift", "marketing", "ra3.4xlarge", 2, 3.26),
   L(A2, "AWS", "Glue", "finance-mart", "DPU-Hour", 20, 0.44, week="office", cv=0.06, mend=2.0),
   L(A2, "AWS", "EC2", "marketing", "m7i.xlarge", 14, 0.2016, cv=0.02, integer=True)],
  [dict(on=D(2026, 7, 8), sel=fam("Redshift-Serverless-RPU-Hour"), count=4.0)],
  acct=A2, hist=130)

# ================================ no anomaly ================================================
# 25. US daylight-saving end on a Sunday that is also the 1st: 25 hours, monthly fees, weekend low
S("none", [], D(2026, 11, 1),
  "no cause: Sunday 1 November 2026 has 25 hours in a US-time export (every metered line bills 25/24 "
  "of a day); the monthly Business Support fee and a Marketplace subscription are billed on every 1st; "
  "Sunday is the low day of the weekly habit; the 23-hour 8 March is in the 240-day bill; the day "
  "after is partial (30%)",
  "the day is far above the previous Sundays (two monthly fees plus the extra hour) and only matches "
  "earlier 1sts on other weekdays; a tool keyed to 24-hour days sees every line +4%",
  [L(A1, "AWS", "EC2", "web", "m7i.large", 150, 0.1008, week="req", cv=0.03, integer=True),
   L(A1, "AWS", "EC2", "jobs", "c7i.2xlarge", 20, 0.357, week="office", cv=0.04, integer=True),
   static(A1, "AWS", "RDS", "web", "db.r7g.xlarge", 2, 0.553),
   L(A1, "AWS", "S3", "web", "Standard-Storage-GB", 300000, 0.023 * TPH, kind="storage", grow=0.001),
   fee(A1, "AWS", "AWS Support (Business)", "shared", "Business-Support-Monthly", 700.0, only1=True),
   fee(A1, "AWS", "AWS Marketplace", "web", "WAF-Rules-Subscription-Monthly", 450.0, only1=True)],
  [], acct=A1, hist=240, dst=DST_US_26, plast=0.3)

# 26. planned migration: self-managed Kafka on EC2 -> Amazon MSK; total flat
S("none", [], D(2026, 3, 11),
  "no cause: a planned migration moves the events Kafka cluster from EC2 (6 x r7i.2xlarge brokers and "
  "their gp3 volumes) to Amazon MSK (6 x kafka.m7g.2xlarge broker hours and MSK storage) on Wednesday "
  "11 March: the EC2 lines stop and the MSK lines start at the same cost; the total is flat",
  "two services change on the day in opposite directions (new lines without history); a tool naming "
  "'the lines that changed' names MSK or EC2; the account's total is level with the previous Wednesdays",
  [static(A3, "AWS", "EC2", "events", "r7i.2xlarge", 6, 0.5292, key="old1"),
   static(A3, "AWS", "EC2", "events", "EBS-gp3-GB", 24000, 0.08 * TPH, key="old2"),
   static(A3, "AWS", "MSK", "events", "kafka.m7g.2xlarge", 6, (0.5292 * 6 + 0.08 * TPH * 24000) * 0.85 / 6, cause=True, start=D(2026, 3, 11)),
   static(A3, "AWS", "MSK", "events", "MSK-Storage-GB", 24000, (0.5292 * 6 + 0.08 * TPH * 24000) * 0.15 / 24000, cause=True, start=D(2026, 3, 11)),
   L(A3, "AWS", "EC2", "api", "m7g.xlarge", 40, 0.1632, week="req", cv=0.03, integer=True),
   L(A3, "AWS", "Lambda", "api", "Lambda-GB-Second-Million", 0.3, 16.67, week="req", cv=0.05),
   L(A3, "AWS", "S3", "events", "Standard-Storage-GB", 200000, 0.023 * TPH, kind="storage", grow=0.001)],
  [dict(on=D(2026, 3, 11), sel=lambda l: l.get("key") in ("old1", "old2"), stop=True)],
  acct=A3, hist=60, neutral=True)

# 27. Japanese fiscal year end (31 March) in a JPY subscription at a stable rate
S("none", [], D(2027, 3, 31),
  "no cause: Wednesday 31 March 2027, the fiscal year end of a Japanese subsidiary (JPY billing at a "
  "stable rate); the close batch runs x1.8 on every month end and x4 on 31 March (31 March 2026, a "
  "Tuesday, is in the 430-day bill); the first day of the bill is partial (50%)",
  "the day is far above the previous Wednesdays; the only matching day is a year back; month ends "
  "also rise (a smaller habit)",
  [L(ZJ, "Azure", "Virtual Machines", "kessan", "E16as_v5", 10, 180.0, mend=1.8, qend=1.8, cv=0.03,
     hol={D(2026, 3, 31): 4.0 / 1.8, D(2027, 3, 31): 4.0 / 1.8}),
   L(ZJ, "Azure", "Azure Synapse Analytics", "kessan", "DWU-100", 30, 220.0, mend=1.8, qend=1.8, cv=0.05,
     hol={D(2026, 3, 31): 4.0 / 1.8, D(2027, 3, 31): 4.0 / 1.8}),
   L(ZJ, "Azure", "Virtual Machines", "ec-site", "D8as_v5", 40, 62.0, week="req", cv=0.03, integer=True),
   static(ZJ, "Azure", "Azure SQL Database", "ec-site", "BC_Gen5_8", 2, 560.0),
   L(ZJ, "Azure", "Storage", "kessan", "Hot-LRS-GB", 150000, 3.0 * TPH, kind="storage", grow=0.001)],
  [], acct=ZJ, hist=430, pfirst=0.5, cur={ZJ: "JPY"}, dec=3)

# 28. first Monday after the Lunar New Year holiday, with a price cut on OSS that day (CNY)
S("none", [], D(2027, 2, 15),
  "no cause: Monday 15 February 2027, the first working Monday after the Lunar New Year holiday "
  "(office and request lines x0.35-0.7 from 5 to 12 February, the 2026 holiday of 15-22 February is "
  "in the 450-day bill); on the same day Alibaba Cloud cuts the OSS Standard storage price by 15% (a "
  "price drop, not an anomaly); the Monday batch",
  "the day is far above the previous Monday (holiday) and level with the Mondays before the holiday; "
  "a line changes on the day but downwards; the holiday moves every year",
  [L(ALI, "Alibaba Cloud", "ECS", "mall-web", "ecs.g7.2xlarge", 30, 2.1, week="req", cv=0.03, integer=True, hol=LNY),
   L(ALI, "Alibaba Cloud", "ECS", "erp", "ecs.c7.xlarge", 12, 0.85, week="office", cv=0.03, integer=True, hol=LNY),
   L(ALI, "Alibaba Cloud", "MaxCompute", "reports", "CU-Hour", 200, 0.35, week="mon", cv=0.05, hol=LNY),
   static(ALI, "Alibaba Cloud", "ApsaraDB RDS", "mall-web", "mysql.x4.large", 2, 4.1),
   L(ALI, "Alibaba Cloud", "OSS", "mall-web", "OSS-Standard-GB", 300000, 0.12 * TPH, kind="storage", grow=0.0008),
   L(ALI, "Alibaba Cloud", "CDN", "mall-web", "CDN-Traffic-GB", 900, 0.24, week="req", cv=0.05, hol=LNY)],
  [dict(on=D(2027, 2, 15), sel=fam("OSS-Standard-GB"), price=0.85)],
  acct=ALI, hist=500, cur={ALI: "CNY"}, cut=True)

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
