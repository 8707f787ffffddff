#!/usr/bin/env python3
"""finops-set6: held-out ITBench-Lite FinOps cost-anomaly scenarios (blind-fin6; library part adapted from finops-set5).

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
             start=None, amt=None, month1=1.0, mend=1.0, fixedprice=False, drift=0.0, disc=0.0)
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
            pm, cm, disc = 1.0, 1.0, ln["disc"]
            for ev in sc["events"]:
                if day >= ev["on"] and ev["sel"](ln):
                    pm *= ev.get("price", 1.0)
                    cm *= ev.get("count", 1.0)
                    if "disc" in ev:
                        disc = ev["disc"]
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
                if ln["drift"]:  # spot / market price: moves a little every day, never with the list
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
            dval = cost * disc
            cost = cost - dval
            cnt = round(cnt, 3) if cnt < 1000 else round(cnt, 1)
            price = cost / 24.0 / cnt if cnt else 0.0
            row = [day.isoformat(), ln["acct"], ln["csp"], ln["svc"], ln["app"], ln["fam"],
                   fmt(price, dec), repr(cnt), "%.4f" % cost]
            if sc.get("extra"):  # an exporter that appends currency and discount columns
                row += [sc["cur"].get(ln["acct"], "USD"), "%.4f" % (-dval if dval else 0.0), "%g" % (100 * disc)]
            rows.append(row)
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


def S(cat, truth, date, cause, lines, events, **kw):
    sc = dict(cat=cat, truth=truth, date=date, cause=cause, lines=lines, events=events,
              seed=6000 + len(SC) * 41, cur={})
    sc.update(kw)
    SC.append(sc)


# accounts (new in this set)
B1, B2, B3, B4 = "204816385519", "204816385526", "204816385533", "204816385540"
BJ = "557012846390"                       # a Tokyo payer account billing in JPY
P1, P2, P3 = "fin-core-prod", "fin-core-analytics", "fin-core-sandbox"
E1, E2 = "euw3-prod-7731", "usc1-prod-7731"  # one GCP project per region
Y1, Y2 = "a41d07e2-ea-prod", "a41d07e2-ea-dev"
W1, W2 = "sub-wus3-19c4", "sub-eus2-19c4"    # one Azure subscription per region
IB = "ibm-6f2a9e41"
SA, UE = "918273645501", "918273645518"      # sa-east-1 and us-east-1 accounts of one org
TPH = 1 / 730.0                              # $/GB-month -> $/GB-hour

# ============================ provider (CSP) ============================================
# 1. Azure EA discount falls from 15% to 5% on every usage line of both subscriptions (the list
#    price does not move); the exporter appends Currency (EUR) and Discount columns; a reservation
#    fee and a sponsorship credit keep their amount.
S("provider", [("Azure", "CSP")], D(2026, 1, 8),
  "the enterprise agreement's discount on Azure falls from 15% to 5% (renewal) on every usage line of "
  "both subscriptions: net price +11.8% while list prices stay; the reservation fee and a credit keep "
  "their amount; the export is in EUR with Discount columns",
  [L(Y1, "Azure", "Virtual Machines", "billing", "D8as_v5", 12, 0.352, week="office", integer=True, cv=0.03, disc=0.15),
   L(Y1, "Azure", "Virtual Machines", "billing", "F4s_v2", 6, 0.169, cv=0.04, disc=0.15),
   L(Y1, "Azure", "AKS", "portal", "E8as_v5", 18, 0.452, week="req", cv=0.05, disc=0.15),
   static(Y1, "Azure", "Azure SQL Database", "billing", "GP_Gen5_8", 1, 1.86, disc=0.15),
   static(Y1, "Azure", "Azure SQL Database", "portal", "GP_Gen5_2", 2, 0.465, disc=0.15),
   L(Y1, "Azure", "Storage", "portal", "Hot-LRS-GB", 80000, 0.0184 * TPH, kind="storage", grow=0.002, disc=0.15),
   fee(Y1, "Azure", "Virtual Machines", "shared", "Reservation-D8as_v5-1yr", 96.0),
   fee(Y1, "Azure", "Credits", "shared", "Sponsorship-Credit", -40.0),
   L(Y2, "Azure", "Virtual Machines", "billing-dev", "D4as_v5", 6, 0.176, week="off", cv=0.04, disc=0.15),
   L(Y2, "Azure", "AKS", "portal-dev", "E4as_v5", 5, 0.226, week="office", cv=0.05, disc=0.15)],
  [dict(on=D(2026, 1, 8), sel=csp("Azure"), disc=0.05)],
  acct=Y1, extra=True, cur={Y1: "EUR", Y2: "EUR"})

# 2. GCP +9% on a Sunday, three projects (all rise), committed-use fee flat, an AWS account flat;
#    the first day of data is partial (40%)
S("provider", [("GCP", "CSP")], D(2026, 5, 17),
  "GCP list prices +9% on Sunday 17 May on every usage line of the three projects; request-driven "
  "estate (x0.3 at weekends); the n2 committed-use fee is a fixed line (flat); an AWS account in the "
  "same bill flat; first day of data partial (40%)",
  [L(P1, "GCP", "GKE", "checkout", "n2-standard-8", 24, 0.3885, week="req", cv=0.04),
   L(P1, "GCP", "GKE", "search", "n2-standard-8", 10, 0.3885, cv=0.04, com=(6, 0.2447)),
   L(P1, "GCP", "Compute Engine", "erp", "c3-standard-4", 6, 0.2014, kind="static", cv=0.0, com=(4, 0.1269)),
   L(P1, "GCP", "BigQuery", "search", "Analysis-TiB", 0.9, 6.25, week="req", cv=0.12),
   L(P1, "GCP", "Cloud Storage", "checkout", "Standard-Storage-GB", 140000, 0.020 * TPH, kind="storage", grow=0.002),
   L(P1, "GCP", "Pub/Sub", "checkout", "Throughput-TiB", 0.08, 40.0, week="req", cv=0.06),
   fee(P1, "GCP", "Compute Engine", "shared", "Commitment-n2-1yr", 70.0),
   L(P2, "GCP", "BigQuery", "reporting", "Analysis-TiB", 0.5, 6.25, week="req", cv=0.10),
   L(P2, "GCP", "Dataflow", "reporting", "vCPU-hour", 40, 0.056, week="req", cv=0.06),
   L(P3, "GCP", "Cloud Run", "sandbox", "vCPU-second", 9000, 0.000024, week="office", cv=0.10),
   L(B1, "AWS", "EC2", "legacy", "m5.2xlarge", 6, 0.384, cv=0.03)],
  [dict(on=D(2026, 5, 17), sel=csp("GCP"), price=1.09)],
  acct=P1, pfirst=0.4, dec=5)

# 3. AWS +6% on 31 March (month-end batch habit x3), reserved Redshift nodes and an EDP credit flat
S("provider", [("AWS", "CSP")], D(2026, 3, 31),
  "AWS prices +6% on 31 March on every on-demand line; a month-end close batch triples on every last "
  "day (seen 31 Jan, 28 Feb); Redshift nodes on reservations (flat), an Aurora cluster static; an EDP "
  "credit (negative, fixed) flat",
  [L(B2, "AWS", "EC2", "close", "r6i.4xlarge", 5, 1.008, mend=3.0, cv=0.03),
   L(B2, "AWS", "EC2", "portal", "m7i.xlarge", 16, 0.2016, week="req", cv=0.04, integer=True),
   static(B2, "AWS", "Redshift", "warehouse", "ra3.4xlarge", 4, 3.26, fixedprice=True),
   static(B2, "AWS", "Redshift", "warehouse", "RMS-Storage-GB", 60000, 0.024 * TPH),
   static(B2, "AWS", "RDS", "portal", "db.r7g.2xlarge", 2, 1.104),
   L(B2, "AWS", "S3", "warehouse", "Standard-Storage", 120, 0.0315, kind="storage", grow=0.0015,
     tiers=[(50, 0.0315), (450, 0.0301), (None, 0.0288)]),
   L(B2, "AWS", "Glue", "close", "DPU-hour", 12, 0.44, mend=3.0, cv=0.10),
   fee(B2, "AWS", "Credits", "shared", "EDP-Credit", -120.0)],
  [dict(on=D(2026, 3, 31), sel=csp("AWS"), price=1.06)],
  acct=B2, hist=70)

# 4. IBM Cloud +12% on every line of an IBM-only account; partial last day
S("provider", [("IBM Cloud", "CSP")], D(2026, 7, 15),
  "IBM Cloud price list +12% on every line (IKS workers, VPC virtual servers, Object Storage, "
  "Databases for PostgreSQL, Log Analysis); an AWS account in the bill flat; the last day partial (30%)",
  [L(IB, "IBM Cloud", "Kubernetes Service", "claims", "bx2.8x32", 12, 0.384, week="req", cv=0.04, integer=True),
   L(IB, "IBM Cloud", "Kubernetes Service", "policy", "bx2.4x16", 8, 0.192, cv=0.04, integer=True),
   L(IB, "IBM Cloud", "Virtual Server for VPC", "claims", "cx2-4x8", 6, 0.169, week="office", cv=0.03),
   L(IB, "IBM Cloud", "Cloud Object Storage", "policy", "Smart-Tier-GB", 90000, 0.0200 * TPH, kind="storage", grow=0.002),
   static(IB, "IBM Cloud", "Databases for PostgreSQL", "policy", "pg-8x32", 2, 0.98),
   L(IB, "IBM Cloud", "Log Analysis", "claims", "Ingested-GB", 22, 0.58, week="req", cv=0.08),
   L(B3, "AWS", "EC2", "bridge", "c6i.large", 4, 0.085, cv=0.03)],
  [dict(on=D(2026, 7, 15), sel=csp("IBM Cloud"), price=1.12)],
  acct=IB, after=2, plast=0.3)

# 5. AWS +10% in a JPY export (prices with 2 decimals in yen), every account of the bill rises;
#    the anomaly account is middle-sized; a Savings Plan fee in yen flat; a weekend-off dev fleet
S("provider", [("AWS", "CSP")], D(2026, 10, 16),
  "AWS prices +10% on every usage line of every account of a JPY bill (Currency column JPY); the "
  "Savings Plan commitment (yen, fixed) flat; dev fleets off at weekends",
  [L(BJ, "AWS", "EC2", "kiosk", "m7i.xlarge", 14, 30.24, cv=0.04, integer=True, com=(8, 21.2)),
   L(BJ, "AWS", "EC2", "kiosk-dev", "t3.large", 8, 12.48, week="off", cv=0.04),
   L(BJ, "AWS", "ECS", "kiosk", "Fargate-vCPU-hour", 30, 6.07, week="req", cv=0.05),
   static(BJ, "AWS", "RDS", "kiosk", "db.m7g.large", 2, 25.2),
   L(BJ, "AWS", "CloudFront", "kiosk", "Egress-GB", 60, 17.1, week="req", cv=0.06),
   fee(BJ, "AWS", "Savings Plans", "shared", "Compute-SP-1yr", 3000.0),
   L(B4, "AWS", "EC2", "loyalty", "c7i.2xlarge", 10, 0.357, cv=0.04),
   L(B4, "AWS", "S3", "loyalty", "Standard-Storage", 40, 0.0315, kind="storage", grow=0.001)],
  [dict(on=D(2026, 10, 16), sel=csp("AWS"), price=1.10)],
  acct=BJ, dec=2, extra=True, cur={BJ: "JPY", B4: "USD"})

# ============================ service-wide beside spot / reserved / contract lines ==========
# 6. OpenSearch Service +25% on every domain and its storage; one domain reserved; EC2 spot beside
S("service", [("OpenSearch Service", "Cloud_Service")], D(2026, 2, 18),
  "Amazon OpenSearch Service instance and storage prices +25% in every application; catalog's "
  "domain is on reserved instances (price unchanged); EC2 spot fleets (price drifts daily) and EKS flat",
  [static(B1, "AWS", "OpenSearch Service", "search", "r6g.xlarge.search", 6, 0.335),
   static(B1, "AWS", "OpenSearch Service", "logs", "or1.2xlarge.search", 9, 0.838),
   static(B1, "AWS", "OpenSearch Service", "catalog", "m6g.large.search", 3, 0.128, fixedprice=True),
   L(B1, "AWS", "OpenSearch Service", "logs", "UltraWarm-Storage-GB", 30000, 0.024 * TPH, kind="storage", grow=0.003),
   L(B1, "AWS", "OpenSearch Service", "search", "gp3-Storage-GB", 6000, 0.122 * TPH, kind="storage", grow=0.001),
   L(B1, "AWS", "EC2", "search", "c6i.2xlarge", 14, 0.118, drift=0.06, cv=0.05),
   L(B1, "AWS", "EC2", "logs", "m6i.xlarge", 10, 0.071, drift=0.06, cv=0.05),
   L(B1, "AWS", "EKS", "catalog", "m7g.xlarge", 12, 0.1632, week="req", cv=0.05)],
  [dict(on=D(2026, 2, 18), sel=svc("OpenSearch Service"), price=1.25)],
  acct=B1)

# 7. MSK +30% (brokers and storage) in every application; EC2 spot beside; a constant 8% EDP
#    discount in an appended Discount column
S("service", [("MSK", "Cloud_Service")], D(2026, 4, 28),
  "Amazon MSK broker and storage prices +30% in every application; spot EC2 (daily drift), a reserved "
  "RDS and S3 flat; the export appends Currency and Discount columns (an 8% EDP discount on every "
  "line, unchanged)",
  [static(B3, "AWS", "MSK", "orders", "kafka.m7g.large", 3, 0.204, disc=0.08),
   static(B3, "AWS", "MSK", "clickstream", "kafka.m7g.xlarge", 6, 0.408, disc=0.08),
   static(B3, "AWS", "MSK", "audit", "kafka.t3.small", 3, 0.0456, disc=0.08),
   L(B3, "AWS", "MSK", "clickstream", "Broker-Storage-GB", 18000, 0.10 * TPH, kind="storage", grow=0.002, disc=0.08),
   L(B3, "AWS", "MSK", "orders", "Broker-Storage-GB", 3000, 0.10 * TPH, kind="storage", grow=0.001, disc=0.08),
   L(B3, "AWS", "EC2", "clickstream", "c7i.4xlarge", 12, 0.25, drift=0.07, cv=0.05, disc=0.08),
   L(B3, "AWS", "EC2", "orders", "m7i.2xlarge", 8, 0.4032, week="req", cv=0.04, integer=True, disc=0.08),
   static(B3, "AWS", "RDS", "orders", "db.r7g.xlarge", 2, 0.31, fixedprice=True, disc=0.08),
   L(B3, "AWS", "S3", "audit", "Standard-Storage", 25, 0.0315, kind="storage", grow=0.002, disc=0.08)],
  [dict(on=D(2026, 4, 28), sel=svc("MSK"), price=1.30)],
  acct=B3, extra=True)

# 8. Spanner +20% in every application; a Spanner committed-use line inside the service flat;
#    GKE spot VMs beside
S("service", [("Cloud Spanner", "Cloud_Service")], D(2026, 6, 11),
  "Cloud Spanner compute and storage prices +20% in every application; the Spanner committed-use "
  "discount (a fixed line inside the service) flat; GKE spot nodes (price drifts daily) and Cloud SQL flat",
  [static(P1, "GCP", "Cloud Spanner", "ledger", "Regional-Processing-Unit-100", 30, 0.09),
   static(P1, "GCP", "Cloud Spanner", "payments", "Regional-Processing-Unit-100", 20, 0.09),
   static(P1, "GCP", "Cloud Spanner", "identity", "Regional-Processing-Unit-100", 5, 0.09),
   L(P1, "GCP", "Cloud Spanner", "ledger", "Storage-GB", 4000, 0.30 * TPH, kind="storage", grow=0.002),
   L(P1, "GCP", "Cloud Spanner", "payments", "Storage-GB", 1500, 0.30 * TPH, kind="storage", grow=0.002),
   fee(P1, "GCP", "Cloud Spanner", "ledger", "Spanner-CUD-1yr", 41.0),
   L(P1, "GCP", "GKE", "payments", "t2d-standard-8", 20, 0.0862, drift=0.05, cv=0.05, week="req"),
   static(P1, "GCP", "Cloud SQL", "identity", "db-custom-4-16384", 1, 0.395)],
  [dict(on=D(2026, 6, 11), sel=svc("Cloud Spanner"), price=1.20)],
  acct=P1, shuffle=True)

# 9. Azure Database for PostgreSQL +18%; one server reserved; spot VMs beside; Monday batch habit
S("service", [("Azure Database for PostgreSQL", "Cloud_Service")], D(2026, 8, 10),
  "Azure Database for PostgreSQL flexible-server compute and storage +18% in every application, on a "
  "Monday; hr's server is reserved (price unchanged); spot VMs (daily drift), AKS with a Monday batch flat",
  [static(W2, "Azure", "Azure Database for PostgreSQL", "catalog", "GP_Standard_D8ds_v5", 1, 0.712),
   static(W2, "Azure", "Azure Database for PostgreSQL", "orders", "MO_Standard_E8ds_v5", 2, 0.886),
   static(W2, "Azure", "Azure Database for PostgreSQL", "hr", "GP_Standard_D4ds_v5", 1, 0.356, fixedprice=True),
   static(W2, "Azure", "Azure Database for PostgreSQL", "orders", "PG-Storage-GB", 4096, 0.115 * TPH),
   static(W2, "Azure", "Azure Database for PostgreSQL", "catalog", "PG-Storage-GB", 1024, 0.115 * TPH),
   L(W2, "Azure", "Virtual Machines", "render", "D16as_v5 Spot", 16, 0.0911, drift=0.06, cv=0.06),
   L(W2, "Azure", "AKS", "catalog", "D4as_v5", 14, 0.172, week="mon", cv=0.04)],
  [dict(on=D(2026, 8, 10), sel=svc("Azure Database for PostgreSQL"), price=1.18)],
  acct=W2)

# 10. Log Analytics ingestion/retention +25% in every application; one app on a commitment tier (fixed)
S("service", [("Log Analytics", "Cloud_Service")], D(2026, 11, 17),
  "Azure Log Analytics ingestion and retention prices +25% in every application; payments' workspace "
  "is on a 100 GB/day commitment tier billed as a fixed daily line (flat); VMs under a reservation fee flat",
  [L(Y1, "Azure", "Log Analytics", "web", "Analytics-Logs-GB", 9, 2.30, week="req", cv=0.07),
   L(Y1, "Azure", "Log Analytics", "batch", "Analytics-Logs-GB", 4, 2.30, cv=0.10),
   L(Y1, "Azure", "Log Analytics", "web", "Basic-Logs-GB", 20, 0.50, week="req", cv=0.07),
   L(Y1, "Azure", "Log Analytics", "web", "Data-Retention-GB", 40000, 0.10 * TPH, kind="storage", grow=0.001),
   fee(Y1, "Azure", "Log Analytics", "payments", "Commitment-Tier-100GB", 196.0),
   L(Y1, "Azure", "Virtual Machines", "batch", "E8as_v5", 6, 0.452, cv=0.03),
   fee(Y1, "Azure", "Virtual Machines", "shared", "Reservation-E8as_v5-3yr", 38.0),
   L(Y1, "Azure", "AKS", "web", "D8as_v5", 12, 0.344, week="req", cv=0.04)],
  [dict(on=D(2026, 11, 17), sel=svc("Log Analytics"), price=1.25)],
  acct=Y1)

# ============================ family / SKU repriced in every application ====================
# 11. i4i.2xlarge +20% in EC2 and EKS of three applications; partly under a Savings Plan in one
S("family-repriced", [("i4i.2xlarge", "Instance_Family")], D(2026, 1, 22),
  "i4i.2xlarge on-demand price +20% in every application (EC2 in search and events, EKS nodes in "
  "stream); events' fleet is partly under a Savings Plan rate (blended rise ~+9%); i4i.xlarge and "
  "i4i.4xlarge flat",
  [L(B4, "AWS", "EC2", "search", "i4i.2xlarge", 8, 0.686, cv=0.03, integer=True),
   L(B4, "AWS", "EC2", "search", "i4i.4xlarge", 4, 1.373, kind="static", cv=0.0),
   L(B4, "AWS", "EC2", "events", "i4i.2xlarge", 10, 0.686, cv=0.03, com=(5, 0.48)),
   L(B4, "AWS", "EC2", "events", "c7i.xlarge", 12, 0.1785, week="req", cv=0.05),
   L(B4, "AWS", "EKS", "stream", "i4i.2xlarge", 6, 0.686, week="req", cv=0.04),
   L(B4, "AWS", "EKS", "stream", "i4i.xlarge", 10, 0.343, week="req", cv=0.04),
   static(B4, "AWS", "RDS", "events", "db.r7g.large", 2, 0.276),
   L(B4, "AWS", "S3", "search", "Standard-Storage", 70, 0.0315, kind="storage", grow=0.002)],
  [dict(on=D(2026, 1, 22), sel=fam("i4i.2xlarge"), price=1.20)],
  acct=B4)

# 12. n2-highmem-16 +15% in GKE, Compute Engine and Dataproc; one CUD-covered; EUR export, 3% reseller discount
S("family-repriced", [("n2-highmem-16", "Instance_Family")], D(2026, 4, 8),
  "n2-highmem-16 price +20% everywhere it runs (GKE feature-store, Compute Engine sap, Dataproc etl); "
  "sap's VMs are fully under a committed-use discount (flat); n2-highmem-8 and n2-standard-16 flat; "
  "the reseller's export is in EUR with a constant 3% discount column",
  [L(P2, "GCP", "GKE", "feature-store", "n2-highmem-16", 8, 0.8721, cv=0.04, integer=True, disc=0.03),
   L(P2, "GCP", "GKE", "feature-store", "n2-highmem-8", 12, 0.436, week="req", cv=0.05, disc=0.03),
   L(P2, "GCP", "Compute Engine", "sap", "n2-highmem-16", 4, 0.8721, kind="static", cv=0.0, com=(4, 0.5494), disc=0.03),
   L(P2, "GCP", "Compute Engine", "sap", "n2-standard-16", 3, 0.7769, kind="static", cv=0.0, disc=0.03),
   L(P2, "GCP", "Dataproc", "etl", "n2-highmem-16", 6, 0.8721, week="office", cv=0.03, disc=0.03),
   L(P2, "GCP", "Dataproc", "etl", "Dataproc-vCPU", 96, 0.010, week="office", cv=0.06, disc=0.03),
   L(P2, "GCP", "Cloud Storage", "etl", "Nearline-Storage-GB", 300000, 0.010 * TPH, kind="storage", grow=0.001, disc=0.03)],
  [dict(on=D(2026, 4, 8), sel=fam("n2-highmem-16"), price=1.20)],
  acct=P2, extra=True, cur={P2: "EUR"})

# 13. D16as_v5 +20% in VMs and AKS of three applications; the Spot lines of the same size flat
S("family-repriced", [("D16as_v5", "Instance_Family")], D(2026, 6, 23),
  "D16as_v5 pay-as-you-go price +20% in every application (VMs in erp, AKS in web and api); the "
  "'D16as_v5 Spot' lines (other family name, market price drifting daily) and D8as_v5 flat",
  [L(Y2, "Azure", "Virtual Machines", "erp", "D16as_v5", 4, 0.688, kind="static", cv=0.0),
   L(Y2, "Azure", "Virtual Machines", "erp", "D8as_v5", 6, 0.344, week="office", cv=0.03),
   L(Y2, "Azure", "AKS", "web", "D16as_v5", 9, 0.688, week="req", cv=0.04, integer=True),
   L(Y2, "Azure", "AKS", "web", "D16as_v5 Spot", 12, 0.0945, drift=0.06, cv=0.06),
   L(Y2, "Azure", "AKS", "api", "D16as_v5", 5, 0.688, cv=0.03, integer=True),
   L(Y2, "Azure", "AKS", "api", "D8as_v5", 8, 0.344, week="req", cv=0.04),
   static(Y2, "Azure", "Azure SQL Database", "erp", "BC_Gen5_4", 1, 2.00)],
  [dict(on=D(2026, 6, 23), sel=fam("D16as_v5"), price=1.20)],
  acct=Y2)

# 14. S3 Glacier Instant Retrieval storage +30% in every bucket; tiered Standard, IA, retrievals flat
S("family-repriced", [("GlacierIR-Storage", "Instance_Family")], D(2026, 9, 10),
  "S3 Glacier Instant Retrieval storage price +30% in every application; tiered S3 Standard (blended "
  "price drifts), Standard-IA and the GIR retrieval line flat",
  [L(B2, "AWS", "S3", "media", "GlacierIR-Storage", 900, 0.004 * 1000 * TPH, kind="storage", grow=0.002),
   L(B2, "AWS", "S3", "media", "Standard-Storage", 80, 0.0315, kind="storage", grow=0.003,
     tiers=[(50, 0.0315), (450, 0.0301), (None, 0.0288)]),
   L(B2, "AWS", "S3", "backup", "GlacierIR-Storage", 2400, 0.004 * 1000 * TPH, kind="storage", grow=0.001),
   L(B2, "AWS", "S3", "backup", "StandardIA-Storage", 300, 0.0171, kind="storage", grow=0.001),
   L(B2, "AWS", "S3", "records", "GlacierIR-Storage", 600, 0.004 * 1000 * TPH, kind="storage", grow=0.002),
   L(B2, "AWS", "S3", "records", "GlacierIR-Retrieval-GB", 30, 0.03, week="req", cv=0.15),
   L(B2, "AWS", "EC2", "media", "c7g.2xlarge", 10, 0.289, week="req", cv=0.04)],
  [dict(on=D(2026, 9, 10), sel=fam("GlacierIR-Storage"), price=1.30)],
  acct=B2)

# 15. Kinesis ShardHour +25% in four applications (static shards); PUT payload units flat
S("family-repriced", [("ShardHour", "Instance_Family")], D(2026, 12, 15),
  "Kinesis Data Streams shard-hour price +25% in every application (shard counts static); PUT "
  "payload units (request-driven) and extended retention flat",
  [static(B1, "AWS", "Kinesis", "clicks", "ShardHour", 40, 0.015),
   L(B1, "AWS", "Kinesis", "clicks", "PutPayloadUnits-M", 60, 0.014, week="req", cv=0.05),
   static(B1, "AWS", "Kinesis", "iot", "ShardHour", 64, 0.015),
   L(B1, "AWS", "Kinesis", "iot", "PutPayloadUnits-M", 110, 0.014, cv=0.04),
   static(B1, "AWS", "Kinesis", "iot", "ExtendedRetention-ShardHour", 64, 0.020),
   static(B1, "AWS", "Kinesis", "audit", "ShardHour", 8, 0.015),
   static(B1, "AWS", "Kinesis", "fraud", "ShardHour", 24, 0.015),
   L(B1, "AWS", "Lambda", "fraud", "GB-second", 90000, 0.0000166667, week="req", cv=0.06),
   L(B1, "AWS", "EC2", "iot", "m7g.large", 10, 0.0816, cv=0.04)],
  [dict(on=D(2026, 12, 15), sel=fam("ShardHour"), price=1.25)],
  acct=B1, dec=5)

# ============================ one region (one account / project / subscription per region) ==
# 16. sa-east-1: every RDS line of the Sao Paulo account +20%; EC2/S3 there and RDS in us-east-1 flat
S("region", [("RDS", "Cloud_Service")], D(2026, 2, 25),
  "sa-east-1 RDS prices +20% (the Sao Paulo account of a one-account-per-region org): every RDS "
  "database there rises; EC2 and S3 there, and RDS in the us-east-1 account, flat",
  [static(SA, "AWS", "RDS", "pix", "db.r7g.2xlarge", 4, 1.59),
   static(SA, "AWS", "RDS", "boleto", "db.m7g.xlarge", 1, 0.62),
   static(SA, "AWS", "RDS", "pix", "Aurora-Storage-GB", 2500, 0.19 * TPH),
   L(SA, "AWS", "EC2", "pix", "c7i.2xlarge", 6, 0.5508, week="req", cv=0.04, integer=True),
   L(SA, "AWS", "EC2", "boleto", "m7i.large", 6, 0.1512, cv=0.03),
   L(SA, "AWS", "S3", "boleto", "Standard-Storage", 30, 0.0405, kind="storage", grow=0.002),
   static(UE, "AWS", "RDS", "pix", "db.r7g.2xlarge", 1, 0.9664),
   L(UE, "AWS", "EC2", "web", "c7i.2xlarge", 20, 0.357, week="req", cv=0.04)],
  [dict(on=D(2026, 2, 25), sel=svc("RDS", acct=SA), price=1.20)],
  acct=SA)

# 17. europe-west3 project: every GCP line +8%; the us-central1 project flat; partial last day
S("region", [("GCP", "CSP")], D(2026, 5, 7),
  "europe-west3 prices +12% (the project holds only that region): every line of it rises (GKE, "
  "Cloud SQL, Cloud Storage, Pub/Sub); the us-central1 project flat; last day partial (50%)",
  [L(E1, "GCP", "GKE", "shop-eu", "e2-standard-8", 18, 0.3113, week="req", cv=0.03),
   static(E1, "GCP", "Cloud SQL", "shop-eu", "db-custom-8-32768", 1, 0.78),
   L(E1, "GCP", "Cloud Storage", "media-eu", "Standard-Storage-GB", 60000, 0.023 * TPH, kind="storage", grow=0.002),
   L(E1, "GCP", "Pub/Sub", "shop-eu", "Throughput-TiB", 0.05, 40.0, week="req", cv=0.04),
   L(E1, "GCP", "Compute Engine", "media-eu", "c3-standard-8", 4, 0.4027, cv=0.03),
   L(E2, "GCP", "GKE", "shop-us", "e2-standard-8", 30, 0.268, week="req", cv=0.04),
   static(E2, "GCP", "Cloud SQL", "shop-us", "db-custom-8-32768", 1, 0.67)],
  [dict(on=D(2026, 5, 7), sel=csp("GCP", acct=E1), price=1.12)],
  acct=E1, after=1, plast=0.5)

# 18. westus3 subscription: every Storage line +25% (tiered Blob, Files); VMs there and Storage elsewhere flat
S("region", [("Storage", "Cloud_Service")], D(2026, 8, 19),
  "West US 3 storage prices +25% (one subscription per region): every Storage line of the westus3 "
  "subscription rises (tiered Hot blob, Cool blob, Premium Files); VMs and SQL there, Storage in the "
  "eastus2 subscription, flat",
  [L(W1, "Azure", "Storage", "archive", "Cool-LRS-GB", 400000, 0.0100 * TPH, kind="storage", grow=0.001),
   L(W1, "Azure", "Storage", "web", "Hot-LRS-GB", 120000, 0.0184 * TPH, kind="storage", grow=0.002,
     tiers=[(51200, 0.0184 * TPH), (460800, 0.0177 * TPH), (None, 0.0170 * TPH)]),
   static(W1, "Azure", "Storage", "web", "Premium-Files-GB", 5120, 0.16 * TPH),
   L(W1, "Azure", "Virtual Machines", "web", "D8as_v5", 10, 0.344, week="req", cv=0.04, integer=True),
   static(W1, "Azure", "Azure SQL Database", "web", "GP_Gen5_4", 1, 0.93),
   L(W2, "Azure", "Storage", "web", "Hot-LRS-GB", 90000, 0.0184 * TPH, kind="storage", grow=0.002),
   L(W2, "Azure", "Virtual Machines", "web", "D8as_v5", 12, 0.344, week="req", cv=0.04)],
  [dict(on=D(2026, 8, 19), sel=svc("Storage", acct=W1), price=1.25)],
  acct=W1)

# ============================ one application, every line ===================================
# 19. ad-bidder traffic surge on a Monday: every line of the application rises by its own factor
S("application", [("ad-bidder", "Application")], D(2026, 3, 9),
  "ad-bidder onboards a new exchange on Monday: every line of it rises by its own factor (EKS "
  "c7g.4xlarge x1.5, ElastiCache nodes 3 -> 5, Kinesis PUT units x1.6, Data Transfer x1.4); the same "
  "families in other applications flat; request-driven weekly cycle",
  [L(B3, "AWS", "EKS", "ad-bidder", "c7g.4xlarge", 20, 0.58, week="req", cv=0.04, integer=True),
   static(B3, "AWS", "ElastiCache", "ad-bidder", "cache.r7g.xlarge", 3, 0.437),
   L(B3, "AWS", "Kinesis", "ad-bidder", "PutPayloadUnits-M", 80, 0.014, week="req", cv=0.05),
   L(B3, "AWS", "Data Transfer", "ad-bidder", "Internet-Egress-GB", 400, 0.09, week="req", cv=0.05),
   L(B3, "AWS", "EKS", "reporting", "c7g.4xlarge", 8, 0.58, cv=0.03, integer=True),
   static(B3, "AWS", "ElastiCache", "reporting", "cache.r7g.xlarge", 2, 0.437),
   L(B3, "AWS", "Data Transfer", "reporting", "Internet-Egress-GB", 90, 0.09, week="req", cv=0.05),
   static(B3, "AWS", "RDS", "reporting", "db.r7g.2xlarge", 1, 0.966)],
  [dict(on=D(2026, 3, 9), sel=app("ad-bidder", f="c7g.4xlarge"), count=1.5),
   dict(on=D(2026, 3, 9), sel=app("ad-bidder", f="cache.r7g.xlarge"), count=5 / 3.0),
   dict(on=D(2026, 3, 9), sel=app("ad-bidder", f="PutPayloadUnits-M"), count=1.6),
   dict(on=D(2026, 3, 9), sel=app("ad-bidder", f="Internet-Egress-GB"), count=1.4)],
  acct=B3)

# 20. geo-tiles (GCP) on a Saturday: CDN egress x1.8, Cloud Run x1.5, Memorystore 1 -> 2; the
#     staging project's geo-tiles flat
S("application", [("geo-tiles", "Application")], D(2026, 6, 27),
  "geo-tiles' cache was purged on Saturday: every line of it rises (Cloud CDN egress x1.8, Cloud "
  "Run vCPU-seconds x1.5, Cloud Storage class-A operations x3, Memorystore 1 -> 2 instances); other "
  "applications and the staging project's geo-tiles flat",
  [L(P1, "GCP", "Cloud CDN", "geo-tiles", "Cache-Egress-GB", 700, 0.08, week="req", cv=0.05),
   L(P1, "GCP", "Cloud Run", "geo-tiles", "vCPU-second", 25000, 0.000024, week="req", cv=0.05),
   L(P1, "GCP", "Cloud Storage", "geo-tiles", "ClassA-Operations-10k", 30, 0.05, week="req", cv=0.08),
   static(P1, "GCP", "Memorystore", "geo-tiles", "Redis-Standard-M3", 1, 0.70),
   L(P1, "GCP", "Cloud CDN", "storefront", "Cache-Egress-GB", 900, 0.08, week="req", cv=0.05),
   L(P1, "GCP", "GKE", "storefront", "n2-standard-4", 16, 0.1942, week="req", cv=0.04),
   static(P1, "GCP", "Memorystore", "storefront", "Redis-Standard-M3", 2, 0.70),
   L(P3, "GCP", "Cloud Run", "geo-tiles", "vCPU-second", 3000, 0.000024, week="office", cv=0.08)],
  [dict(on=D(2026, 6, 27), sel=app("geo-tiles", acct=P1, f="Cache-Egress-GB"), count=1.8),
   dict(on=D(2026, 6, 27), sel=app("geo-tiles", acct=P1, f="vCPU-second"), count=1.5),
   dict(on=D(2026, 6, 27), sel=app("geo-tiles", acct=P1, f="ClassA-Operations-10k"), count=3.0),
   dict(on=D(2026, 6, 27), sel=app("geo-tiles", acct=P1, f="Redis-Standard-M3"), count=2.0)],
  acct=P1, dec=5, shuffle=True)

# 21. kyc (Azure): a DR copy of the application is started, every line x2
S("application", [("kyc", "Application")], D(2026, 10, 6),
  "a disaster-recovery copy of kyc is started: every line of kyc doubles (VMs E4as_v5 4 -> 8, Azure "
  "SQL 1 -> 2 databases, Hot blob storage copied, Key Vault operations x2); the same VM size and SQL "
  "tier in onboarding flat",
  [L(Y1, "Azure", "Virtual Machines", "kyc", "E4as_v5", 4, 0.226, kind="static", cv=0.0),
   static(Y1, "Azure", "Azure SQL Database", "kyc", "BC_Gen5_4", 1, 2.00),
   L(Y1, "Azure", "Storage", "kyc", "Hot-LRS-GB", 40000, 0.0184 * TPH, kind="storage", grow=0.001),
   L(Y1, "Azure", "Key Vault", "kyc", "Operations-10k", 12, 0.03, week="req", cv=0.06),
   L(Y1, "Azure", "Virtual Machines", "onboarding", "E4as_v5", 6, 0.226, week="office", cv=0.03),
   static(Y1, "Azure", "Azure SQL Database", "onboarding", "BC_Gen5_4", 1, 2.00),
   L(Y1, "Azure", "AKS", "onboarding", "D4as_v5", 10, 0.172, week="req", cv=0.04)],
  [dict(on=D(2026, 10, 6), sel=app("kyc", acct=Y1), count=2.0)],
  acct=Y1)

# ============================ one resource ================================================
# 22. SageMaker endpoint ml.g5.12xlarge 2 -> 6 in recsys (autoscaling stuck); same family in
#     search-rank flat
S("resource", [("ml.g5.12xlarge", "Instance_Family")], D(2026, 4, 16),
  "recsys' SageMaker endpoint on ml.g5.12xlarge scales 2 -> 6 instances (an autoscaling policy stuck "
  "at its maximum); search-rank's ml.g5.12xlarge endpoint and the other SageMaker lines flat",
  [static(B4, "AWS", "SageMaker", "recsys", "ml.g5.12xlarge", 2, 7.09),
   static(B4, "AWS", "SageMaker", "search-rank", "ml.g5.12xlarge", 1, 7.09),
   L(B4, "AWS", "SageMaker", "recsys", "ml.m5.xlarge", 6, 0.23, week="office", cv=0.06),
   L(B4, "AWS", "SageMaker", "search-rank", "Training-ml.p4d.24xlarge", 0.4, 37.69, week="office", cv=0.15),
   L(B4, "AWS", "EC2", "recsys", "c7i.2xlarge", 14, 0.357, week="req", cv=0.04, integer=True),
   L(B4, "AWS", "S3", "recsys", "Standard-Storage", 60, 0.0315, kind="storage", grow=0.002)],
  [dict(on=D(2026, 4, 16), sel=app("recsys", f="ml.g5.12xlarge"), count=3.0)],
  acct=B4)

# 23. Bigtable SSD nodes 3 -> 9 in telemetry on 31 July; Bigtable in profiles flat; month-end habit elsewhere
S("resource", [("SSD-Node", "Instance_Family")], D(2026, 7, 31),
  "telemetry's Bigtable cluster is scaled 3 -> 9 SSD nodes (a backfill) on 31 July; profiles' "
  "Bigtable (same node type) flat; a month-end reporting batch (x3 on every last day, seen 31 May and "
  "30 June) in finance is the usual habit",
  [static(P2, "GCP", "Bigtable", "telemetry", "SSD-Node", 3, 0.65),
   static(P2, "GCP", "Bigtable", "profiles", "SSD-Node", 2, 0.65),
   L(P2, "GCP", "Bigtable", "telemetry", "SSD-Storage-GB", 6000, 0.17 * TPH, kind="storage", grow=0.002),
   L(P2, "GCP", "BigQuery", "finance", "Analysis-TiB", 0.6, 6.25, mend=3.0, cv=0.08),
   L(P2, "GCP", "Compute Engine", "finance", "n2-standard-8", 6, 0.3885, mend=3.0, cv=0.03),
   L(P2, "GCP", "GKE", "profiles", "e2-standard-4", 12, 0.134, week="req", cv=0.04)],
  [dict(on=D(2026, 7, 31), sel=app("telemetry", f="SSD-Node"), count=3.0)],
  acct=P2, hist=70)

# 24. io2 provisioned IOPS x5 in one application on Sunday 1 November; support fee on the 1st,
#     Sunday reindex habit
S("resource", [("io2-IOPS", "Instance_Family")], D(2026, 11, 1),
  "ledger's io2 volume provisioned IOPS raised 16,000 -> 80,000 (x5) on Sunday 1 November; io2 IOPS "
  "in risk flat; a Sunday reindex (x1.9) in search and a support fee on every 1st are habits",
  [static(B2, "AWS", "EBS", "ledger", "io2-IOPS", 16000, 0.065 * TPH),
   static(B2, "AWS", "EBS", "ledger", "io2-Storage-GB", 2000, 0.125 * TPH),
   static(B2, "AWS", "EBS", "risk", "io2-IOPS", 10000, 0.065 * TPH),
   L(B2, "AWS", "EC2", "search", "r7i.2xlarge", 8, 0.5292, week="sun", cv=0.03),
   L(B2, "AWS", "EC2", "ledger", "m7i.2xlarge", 6, 0.4032, cv=0.03, integer=True),
   fee(B2, "AWS", "Support", "shared", "Business-Support", 1100.0, only1=True)],
  [dict(on=D(2026, 11, 1), sel=app("ledger", f="io2-IOPS"), count=5.0)],
  acct=B2, hist=70)

# ============================ rounded away ================================================
# 25. Firestore +25% on every line; the export writes 3 decimals: every Firestore unit price 0.0
S("rounded-away", [("Firestore", "Cloud_Service")], D(2026, 3, 18),
  "Firestore prices +25% (document reads, writes, deletes, stored GB) in every application; Price "
  "($/hr) has 3 decimals, so every Firestore unit price reads 0.0 before and after",
  [L(P3, "GCP", "Firestore", "mobile", "Document-Reads", 1.6e6, 0.06 / 1e5, week="req", cv=0.05),
   L(P3, "GCP", "Firestore", "mobile", "Document-Writes", 2.5e5, 0.18 / 1e5, week="req", cv=0.05),
   L(P3, "GCP", "Firestore", "chat", "Document-Reads", 9e5, 0.06 / 1e5, week="req", cv=0.05),
   L(P3, "GCP", "Firestore", "chat", "Document-Deletes", 4e4, 0.02 / 1e5, cv=0.08),
   L(P3, "GCP", "Firestore", "chat", "Stored-GB", 3000, 0.18 * TPH, kind="storage", grow=0.003),
   L(P3, "GCP", "Cloud Run", "chat", "vCPU-second", 20000, 0.000024, week="req", cv=0.05),
   L(P3, "GCP", "GKE", "mobile", "e2-standard-4", 6, 0.134, week="req", cv=0.04)],
  [dict(on=D(2026, 3, 18), sel=svc("Firestore"), price=1.25)],
  acct=P3, dec=3)

# 26. SQS standard-queue requests +50% in every application; FIFO requests flat; 4 decimals (0.0)
S("rounded-away", [("Standard-Requests", "Instance_Family")], D(2026, 12, 9),
  "SQS standard-queue request price +50% in every application; FIFO requests and everything else "
  "flat; Price ($/hr) has 4 decimals, so both request prices read 0.0 before and after",
  [L(B3, "AWS", "SQS", "orders", "Standard-Requests", 5e6, 0.40 / 1e6, week="req", cv=0.05),
   L(B3, "AWS", "SQS", "orders", "FIFO-Requests", 2e6, 0.50 / 1e6, week="req", cv=0.05),
   L(B3, "AWS", "SQS", "notify", "Standard-Requests", 7e6, 0.40 / 1e6, week="req", cv=0.05),
   L(B3, "AWS", "SQS", "billing", "Standard-Requests", 2e6, 0.40 / 1e6, cv=0.04),
   L(B3, "AWS", "SQS", "billing", "FIFO-Requests", 1.5e6, 0.50 / 1e6, cv=0.04),
   L(B3, "AWS", "Lambda", "notify", "GB-second", 120000, 0.0000166667, week="req", cv=0.06),
   L(B3, "AWS", "EC2", "orders", "m7g.xlarge", 6, 0.1632, cv=0.03)],
  [dict(on=D(2026, 12, 9), sel=fam("Standard-Requests"), price=1.50)],
  acct=B3)

# ============================ controls: no anomaly ========================================
# 27. 1 September: the monthly batch (x3) and the support fee of every 1st; nothing else changes
S("no-anomaly", [], D(2026, 9, 1),
  "no cause: Tuesday 1 September; a billing batch triples on every 1st (seen 1 July, 1 August) and a "
  "support fee is billed on every 1st; tiered S3, static RDS, request-driven fleets; the export "
  "appends Currency and Discount (a constant 5%) columns",
  [L(B1, "AWS", "EC2", "invoicing", "c7i.4xlarge", 6, 0.714, month1=3.0, cv=0.03, disc=0.05),
   L(B1, "AWS", "EC2", "web", "m7i.xlarge", 20, 0.2016, week="req", cv=0.04, integer=True, disc=0.05),
   static(B1, "AWS", "RDS", "invoicing", "db.r7g.xlarge", 2, 0.552, disc=0.05),
   L(B1, "AWS", "S3", "web", "Standard-Storage", 150, 0.0315, kind="storage", grow=0.002,
     tiers=[(50, 0.0315), (450, 0.0301), (None, 0.0288)], disc=0.05),
   L(B1, "AWS", "Lambda", "web", "GB-second", 200000, 0.0000166667, week="req", cv=0.06, disc=0.05),
   fee(B1, "AWS", "Support", "shared", "Business-Support", 650.0, only1=True)],
  [], acct=B1, hist=70, extra=True)

# 28. Saturday 14 February: office estate at 40%, spot drift, tiered storage; nothing changes
S("no-anomaly", [], D(2026, 2, 14),
  "no cause: Saturday 14 February in an office-hours estate (x0.4 at weekends, dev VMs off), "
  "spot VMs whose market price drifts daily, tiered Hot blob storage; the day after is partial (35%)",
  [L(Y2, "Azure", "Virtual Machines", "intranet", "D4as_v5", 10, 0.172, week="office", cv=0.04, integer=True),
   L(Y2, "Azure", "Virtual Machines", "intranet-dev", "B4ms", 6, 0.166, week="off", cv=0.03),
   L(Y2, "Azure", "Virtual Machines", "render", "F16s_v2 Spot", 12, 0.1354, drift=0.07, cv=0.06),
   L(Y2, "Azure", "Storage", "intranet", "Hot-LRS-GB", 200000, 0.0184 * TPH, kind="storage", grow=0.002,
     tiers=[(51200, 0.0184 * TPH), (460800, 0.0177 * TPH), (None, 0.0170 * TPH)]),
   static(Y2, "Azure", "Azure SQL Database", "intranet", "GP_Gen5_2", 1, 0.465),
   L(Y2, "Azure", "App Service", "intranet", "P1v3", 3, 0.223, week="office", cv=0.02)],
  [], acct=Y2, after=1, plast=0.35)


def main(out):
    os.makedirs(out, exist_ok=True)
    cases = []
    for i, sc in enumerate(SC, 1):
        d = os.path.join(out, "Scenario-%d" % i)
        os.makedirs(d, exist_ok=True)
        rows = build(sc)
        with open(os.path.join(d, "data.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(HDR + (["Currency", "Discount", "Discount (%)"] if sc.get("extra") else []))
            w.writerows(rows)
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
        cases.append(dict(scenario="Scenario-%d" % i, category=sc["cat"], account=sc["acct"],
                          date=sc["date"].isoformat(),
                          truth=[{"name": n, "type": t} for n, t in sc["truth"]],
                          cause=sc["cause"]))
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
