#!/usr/bin/env python3
"""Blind FinOps set 3: 28 held-out ITBench-Lite cost-anomaly scenarios (Scenario-<N>/anomaly.json,
data.csv, ground_truth.yaml), weighted toward provider-wide (12) and service-wide (9) causes on
estates whose normal life differs (committed coverage, weekday/weekend and monthly habits, static
databases, tiered storage, fixed fees and credits, partial edge days, small fleets), with 7
resource-level controls. Deterministic, stdlib only.  Usage: python3 gen.py OUTDIR"""
import csv, datetime as dt, json, math, os, random, sys

D = dt.date
ONE = dt.timedelta(days=1)

# ------------------------------------------------------------------ catalogue ($/h per unit)
PRICE = {
    # AWS
    "m7i.large": .1008, "m7i.2xlarge": .4032, "c7g.2xlarge": .289, "r7g.xlarge": .2142, "t3.large": .0832,
    "g5.xlarge": 1.006, "m6a.xlarge": .1728, "c6a.4xlarge": .612,
    "db.r7g.large": .239, "db.m6g.xlarge": .336, "db.r6i.2xlarge": 1.0,
    "Lambda-GB-Second": .06, "Lambda-Requests": .0083,          # per 1k GB-s-hour, per M requests-hour
    "NAT-Data-Processed": .045, "NAT-Hours": .045,
    "S3-Standard": .0315, "S3-IA": .0171,
    "cache.m7g.large": .183, "DynamoDB-WCU": .00065,
    "CloudFront-Egress": .085,
    # GCP
    "n2-standard-8": .3885, "e2-standard-4": .134, "c3-standard-8": .4011, "n2d-standard-16": .6763,
    "t2a-standard-4": .154, "e2-highmem-8": .3617, "g2-standard-8": .854,
    "db-custom-8-32768": .826, "db-custom-2-7680": .206, "db-perf-optimized-N-4": .61,
    "CloudRun-vCPU-Second": .0864, "CloudRun-Requests": .0133,
    "GCS-Standard": .0274, "GCS-Nearline": .0137,
    "Memorystore-M2": .098, "PubSub-Throughput": .055,
    # Azure
    "D4s_v5": .192, "D16s_v5": .768, "E4s_v5": .252, "B2ms": .0832, "F4s_v2": .169, "D8as_v5": .344,
    "GP_Gen5_2": .2525, "GP_Gen5_8": 1.01, "BC_Gen5_4": 1.362,
    "CosmosDB-RU-100": .008, "Redis-C2-Standard": .125, "Redis-P1-Premium": .554,
    "Functions-Execution": .016, "Hot-LRS": .0255, "Cool-LRS": .0138,
}
APPS = ["ledger", "catalog-svc", "notifications", "pricing-engine", "identity", "geo-tiles",
        "invoicing", "feature-store", "chat-gateway", "media-transcode", "crm-sync", "fraud-scoring"]
# weekly habits: multiplier per weekday Mon..Sun (None = no row that day)
WEEK = {
    "flat": [1, 1, 1, 1, 1, 1, 1],
    "office": [1, 1, 1, 1, 1, .35, .35],        # dev/test scaled down at weekends
    "off": [1, 1, 1, 1, 1, None, None],          # stopped at weekends, no rows
    "mon": [1.7, 1, 1, 1, 1, 1, 1],             # Monday batch
    "satbatch": [1, 1, 1, 1, 1, 2.2, 1],         # weekly Saturday batch
    "bizusage": [1, 1.05, 1.05, 1, .9, .3, .25],  # request-driven usage
}


class Leaf:
    """One billing line: Account > CSP > Cloud_Service > Application > Instance_Family."""

    def __init__(s, acct, csp, svc, app, fam, n, kind="vm", week="flat", cv=None, price=None):
        s.acct, s.csp, s.svc, s.app, s.fam = acct, csp, svc, app, fam
        s.n, s.kind, s.week, s.cv = n, kind, week, cv
        s.price = PRICE.get(fam, 0.0) if price is None else price
        s.start = s.end = None
        s.ev = []            # (day_from, day_to|None, 'n'|'p', mult)
        s.cover = 0          # committed instances (kind vm/small) billed at s.commit_price
        s.cover_end = None
        s.commit_disc = 0.0
        s.fixed = False      # fees, credits, commitments: a fixed daily amount
        s.only = None        # predicate day -> bool (e.g. billed on the 1st only)
        s.dom1 = 1.0         # monthly batch multiplier on the 1st
        s.eom = 1.0          # month-end batch multiplier
        s.int_walk = None    # small fleets: integer counts, walk state

    def mult(s, day, what):
        m = 1.0
        for a, b, w, x in s.ev:
            if w == what and day >= a and (b is None or day <= b):
                m *= x
        return m


def tiered(units, p):  # storage: TB stored; first 50 TB at list, next 450 TB -4.4%, rest -8.7%
    t1 = min(units, 50); t2 = min(max(units - 50, 0), 450); t3 = max(units - 500, 0)
    return (t1 + t2 * .956 + t3 * .913) * p * 24


class Estate:
    def __init__(s, idx, anomaly, ndays, after=0, cv=.04, partial_first=None, partial_last=None):
        s.rng = random.Random(7300 + idx * 31)
        s.anomaly, s.cv = anomaly, cv
        s.start = anomaly - dt.timedelta(days=ndays - 1)
        s.days = [s.start + dt.timedelta(days=i) for i in range(ndays + after)]
        s.partial_first, s.partial_last = partial_first, partial_last
        s.leaves, s.truth, s.notes, s.decoys = [], [], "", []

    def add(s, *a, **k):
        l = Leaf(*a, **k)
        if l.cv is None:
            l.cv = s.cv
        s.leaves.append(l)
        return l

    def fee(s, acct, csp, svc, fam, daily, app="shared", only=None):
        l = s.add(acct, csp, svc, app, fam, 1, kind="fee")
        l.price, l.fixed, l.only = daily / 24.0, True, only
        return l

    def where(s, **kw):
        return [l for l in s.leaves if not l.fixed and all(getattr(l, k) == v for k, v in kw.items())]

    def event(s, leaves, what, mult, frm=None, to=None):
        for l in leaves:
            l.ev.append((frm or s.anomaly, to, what, mult))

    # ---------------------------------------------------------------- emit
    def rows(s):
        out = []
        for l in s.leaves:
            r = random.Random(hash_str(f"{l.acct}|{l.csp}|{l.svc}|{l.app}|{l.fam}") ^ s.rng.randrange(1 << 30))
            walk = l.n
            for day in s.days:
                if l.start and day < l.start: continue
                if l.end and day > l.end: continue
                if l.only and not l.only(day): continue
                frac = 1.0
                if s.partial_first and day == s.days[0]: frac = s.partial_first
                if s.partial_last and day == s.days[-1] and day > s.anomaly: frac = s.partial_last
                if l.kind == "fee":
                    cost = l.price * 24 * l.mult(day, "p")
                    out.append((day, l, round(l.price * l.mult(day, "p"), 6), 1, round(cost * frac, 4)))
                    continue
                w = WEEK[l.week][day.weekday()]
                if w is None: continue
                if day.day == 1: w *= l.dom1
                if (day + ONE).day == 1: w *= l.eom
                nm = l.mult(day, "n")
                p = l.price * l.mult(day, "p")
                if l.kind == "db":
                    n = l.n * w * nm
                    nout = round(n, 2)
                elif l.kind == "small":   # integer fleet, occasionally one more/less for part of the day
                    u = r.random()
                    if u < .05: walk = max(l.n - 1, 1)
                    elif u < .10: walk = l.n + 1
                    elif u < .45: walk = l.n      # back to its usual size
                    extra = r.choice([0, 0, 0, 0, 0, 1, -1]) * r.randint(1, 8) / 24.0
                    n = max(walk * w * nm + extra, 0.25)
                    nout = round(n, 2)
                else:
                    n = l.n * w * nm * math.exp(r.gauss(0, l.cv))
                    if l.kind == "store":
                        n = l.n * (1 + .003 * (day - s.start).days) * nm * math.exp(r.gauss(0, l.cv / 6))
                    nout = round(n, 2)
                if l.kind == "store":
                    cost = tiered(n, p)
                elif l.cover and not (l.cover_end and day >= l.cover_end):
                    cp = l.price * (1 - l.commit_disc)    # contract price: list-price changes do not touch it
                    c = min(n, l.cover)
                    cost = (c * cp + max(n - c, 0) * p) * 24
                else:
                    cost = p * n * 24
                pe = cost / 24 / n if n else p
                out.append((day, l, round(pe, 6), nout, round(cost * frac, 4)))
        return out


def hash_str(t):
    h = 2166136261
    for ch in t.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h


# ------------------------------------------------------------------ estate helpers
def fleet(e, acct, csp, svc, apps, fams, sizes=(3, 4, 6, 8, 12), weeks=("flat",), kind="vm", per_app=(1, 2)):
    r = e.rng
    out = []
    for app in apps:
        k = r.choice(per_app)
        for fam in r.sample(fams, min(k, len(fams))):
            out.append(e.add(acct, csp, svc, app, fam, r.choice(sizes), kind=kind, week=r.choice(weeks)))
    return out


def dbs(e, acct, csp, svc, apps, fams, sizes=(1, 2, 3)):
    return [e.add(acct, csp, svc, app, e.rng.choice(fams), e.rng.choice(sizes), kind="db") for app in apps]


def store(e, acct, csp, svc, apps, fam, tb=(30, 600)):
    return [e.add(acct, csp, svc, app, fam, round(e.rng.uniform(*tb), 1), kind="store") for app in apps]


def usage(e, acct, csp, svc, apps, fams, scale=(20, 200), week="bizusage", cv=.08):
    return [e.add(acct, csp, svc, app, f, round(e.rng.uniform(*scale), 1), kind="vm", week=week, cv=cv)
            for app in apps for f in fams]


def pick(e, k, exclude=()):
    pool = [a for a in APPS if a not in exclude]
    return e.rng.sample(pool, k)


def provider_rise(e, csp, f, accts=None):
    for l in e.leaves:
        if l.csp == csp and not l.fixed and (accts is None or l.acct in accts):
            l.ev.append((e.anomaly, None, "p", f))


def truth(e, name, typ):
    e.truth.append({"name": name, "type": typ})


def first_of_month(d):
    return d.day == 1


# ------------------------------------------------------------------ scenarios
S = []


def scenario(cat, account, cause):
    def deco(fn):
        S.append((cat, account, cause, fn))
        return fn
    return deco


A1, A2, A3, A4 = "418277305512", "093114872260", "550912774301", "771203948815"


@scenario("provider", A1, "AWS list prices +14% on a Saturday; most compute scaled to 35% at weekends")
def s1(i):
    e = Estate(i, D(2026, 3, 14), 70, after=1, cv=.035)
    a = pick(e, 6)
    for acct in (A1, A2):
        fleet(e, acct, "AWS", "EC2", a[:3], ["m7i.large", "c7g.2xlarge", "t3.large"], weeks=("office", "office", "flat"))
        fleet(e, acct, "AWS", "EKS", a[3:5], ["m7i.2xlarge", "r7g.xlarge"], weeks=("office", "flat"))
        dbs(e, acct, "AWS", "RDS", a[:2], ["db.r7g.large", "db.m6g.xlarge"])
        store(e, acct, "AWS", "S3", a[5:6], "S3-Standard")
        fleet(e, acct, "GCP", "Compute Engine", a[2:4], ["n2-standard-8", "e2-standard-4"], weeks=("office", "flat"))
    provider_rise(e, "AWS", 1.14)
    truth(e, "AWS", "CSP")
    return e


@scenario("provider", A2, "GCP list prices +20%; 60% of the GCP compute fleets is under a committed-use contract whose price does not move")
def s2(i):
    e = Estate(i, D(2026, 4, 7), 77, cv=.04)
    a = pick(e, 6)
    for acct in (A2,):
        for l in fleet(e, acct, "GCP", "Compute Engine", a[:3], ["n2-standard-8", "c3-standard-8", "n2d-standard-16"], sizes=(8, 10, 12, 16)):
            l.cover, l.commit_disc = round(l.n * .6), .37
        for l in fleet(e, acct, "GCP", "GKE", a[3:5], ["e2-standard-4", "t2a-standard-4"], sizes=(6, 8, 10)):
            l.cover, l.commit_disc = round(l.n * .6), .28
        dbs(e, acct, "GCP", "Cloud SQL", a[1:3], ["db-custom-8-32768", "db-custom-2-7680"])
        store(e, acct, "GCP", "Cloud Storage", a[5:6], "GCS-Standard", tb=(120, 800))
        usage(e, acct, "GCP", "Pub/Sub", a[4:5], ["PubSub-Throughput"], scale=(40, 90))
    provider_rise(e, "GCP", 1.20)
    truth(e, "GCP", "CSP")
    e.notes = "on-demand excess and non-compute rise 20%; committed parts flat, so compute rises ~6-9%"
    return e


@scenario("provider", "prod-eu-1", "Azure prices +18% on a three-resource account (one VM, one database, one storage account)")
def s3(i):
    e = Estate(i, D(2026, 2, 11), 63, cv=.03)
    acct = "prod-eu-1"
    e.add(acct, "Azure", "Virtual Machines", "identity", "B2ms", 1, kind="small")
    e.add(acct, "Azure", "Azure SQL Database", "identity", "GP_Gen5_2", 1, kind="db")
    e.add(acct, "Azure", "Blob Storage", "identity", "Hot-LRS", 14.0, kind="store")
    provider_rise(e, "Azure", 1.18)
    truth(e, "Azure", "CSP")
    return e


@scenario("provider", A3, "AWS prices +16% on Monday 1 June; a monthly batch runs on every 1st (x4) and a support fee is billed on the 1st; weekend-off dev fleets")
def s4(i):
    e = Estate(i, D(2026, 6, 1), 84, after=1, cv=.04)
    a = pick(e, 6)
    acct = A3
    f = fleet(e, acct, "AWS", "EC2", a[:3], ["m7i.large", "m6a.xlarge", "c6a.4xlarge"], weeks=("off", "flat", "flat"))
    f[0].dom1 = 4.0
    fleet(e, acct, "AWS", "EKS", a[3:5], ["m7i.2xlarge", "r7g.xlarge"], weeks=("off", "flat"))
    dbs(e, acct, "AWS", "RDS", a[:2], ["db.r7g.large"])
    usage(e, acct, "AWS", "Lambda", a[4:6], ["Lambda-GB-Second"], scale=(30, 80))
    e.fee(acct, "AWS", "Support", "Business-Support", 2400.0, only=first_of_month)
    provider_rise(e, "AWS", 1.16)
    truth(e, "AWS", "CSP")
    return e


@scenario("provider", A1, "GCP prices +12% in a 3-account org; first day of data partial (30%), a partial day (55%) after the anomaly")
def s5(i):
    e = Estate(i, D(2026, 5, 20), 60, after=1, cv=.025, partial_first=.3, partial_last=.55)
    a = pick(e, 7)
    for acct in (A1, A2, A4):
        fleet(e, acct, "GCP", "Compute Engine", a[:3], ["n2-standard-8", "e2-standard-4", "c3-standard-8"])
        fleet(e, acct, "GCP", "GKE", a[3:5], ["e2-highmem-8", "t2a-standard-4"], weeks=("flat", "mon"))
        dbs(e, acct, "GCP", "Cloud SQL", a[5:6], ["db-custom-2-7680"])
        usage(e, acct, "GCP", "Cloud Run", a[5:7], ["CloudRun-vCPU-Second"], scale=(50, 120))
    provider_rise(e, "GCP", 1.12)
    truth(e, "GCP", "CSP")
    return e


@scenario("provider", A4, "AWS enterprise discount (9%) expires on a Sunday; office estate at 35% on weekends")
def s6(i):
    e = Estate(i, D(2026, 8, 2), 70, cv=.025)
    a = pick(e, 6)
    acct = A4
    fleet(e, acct, "AWS", "EC2", a[:4], ["m7i.large", "c7g.2xlarge", "r7g.xlarge"], weeks=("office",))
    fleet(e, acct, "AWS", "EKS", a[2:4], ["m7i.2xlarge"], weeks=("office", "flat"))
    dbs(e, acct, "AWS", "RDS", a[3:5], ["db.m6g.xlarge", "db.r6i.2xlarge"])
    store(e, acct, "AWS", "S3", a[4:5], "S3-Standard", tb=(200, 900))
    usage(e, acct, "AWS", "CloudFront", a[5:6], ["CloudFront-Egress"], scale=(60, 140))
    for l in e.leaves:
        if l.csp == "AWS": l.price *= .91
    provider_rise(e, "AWS", 1 / .91)
    truth(e, "AWS", "CSP")
    return e


@scenario("provider", A2, "Azure price adjustment +11%; the account's cost is mostly flat databases, a few noisy VMs")
def s7(i):
    e = Estate(i, D(2026, 1, 15), 70, cv=.06)
    a = pick(e, 5)
    acct = A2
    dbs(e, acct, "Azure", "Azure SQL Database", a[:3], ["GP_Gen5_8", "BC_Gen5_4"], sizes=(1, 2))
    usage(e, acct, "Azure", "Cosmos DB", a[1:3], ["CosmosDB-RU-100"], scale=(300, 500), week="flat", cv=.0)
    for l in e.where(svc="Cosmos DB"): l.kind = "db"
    e.add(acct, "Azure", "Azure Cache for Redis", a[3], "Redis-P1-Premium", 2, kind="db")
    fleet(e, acct, "Azure", "Virtual Machines", a[3:5], ["D4s_v5", "F4s_v2"], sizes=(2, 3, 4), weeks=("office",))
    provider_rise(e, "Azure", 1.11)
    truth(e, "Azure", "CSP")
    return e


@scenario("provider", A3, "GCP prices +25% on a Monday in a 4-account org; the anomaly's account is a small one (Cloud Run, a bucket, one GKE app)")
def s8(i):
    e = Estate(i, D(2026, 9, 14), 70, cv=.05)
    a = pick(e, 8)
    for acct in (A1, A2, A4):
        fleet(e, acct, "GCP", "Compute Engine", a[:4], ["n2-standard-8", "n2d-standard-16", "e2-standard-4"], weeks=("flat", "mon"))
        fleet(e, acct, "GCP", "GKE", a[4:6], ["e2-highmem-8"], weeks=("mon",))
        dbs(e, acct, "GCP", "Cloud SQL", a[:2], ["db-custom-8-32768"])
    usage(e, A3, "GCP", "Cloud Run", a[6:8], ["CloudRun-vCPU-Second", "CloudRun-Requests"], scale=(10, 40))
    store(e, A3, "GCP", "Cloud Storage", a[6:7], "GCS-Nearline", tb=(20, 60))
    e.add(A3, "GCP", "GKE", a[7], "t2a-standard-4", 3, kind="small", week="mon")
    provider_rise(e, "GCP", 1.25)
    truth(e, "GCP", "CSP")
    return e


@scenario("provider", A4, "AWS prices +15% beside fixed lines: a Savings Plan commitment fee, a marketplace subscription and a credit (none of them rise)")
def s9(i):
    e = Estate(i, D(2026, 10, 9), 70, cv=.04)
    a = pick(e, 6)
    acct = A4
    fleet(e, acct, "AWS", "EC2", a[:3], ["m7i.large", "c7g.2xlarge", "m6a.xlarge"], sizes=(4, 6, 8))
    fleet(e, acct, "AWS", "EKS", a[3:5], ["m7i.2xlarge"], sizes=(3, 4))
    dbs(e, acct, "AWS", "RDS", a[5:6], ["db.r7g.large"], sizes=(2,))
    e.fee(acct, "AWS", "Savings Plans", "ComputeSP-1yr-NoUpfront", 310.0)
    e.fee(acct, "AWS", "AWS Marketplace", "Datadog-Pro-Subscription", 95.0)
    e.fee(acct, "AWS", "Credits", "Migration-Acceleration-Credit", -180.0)
    provider_rise(e, "AWS", 1.15)
    truth(e, "AWS", "CSP")
    return e


@scenario("provider", A1, "GCP prices +8% on a quiet, mostly static estate (noise ~0.5%)")
def s10(i):
    e = Estate(i, D(2026, 7, 21), 63, cv=.005)
    a = pick(e, 5)
    acct = A1
    dbs(e, acct, "GCP", "Cloud SQL", a[:3], ["db-custom-8-32768", "db-perf-optimized-N-4"], sizes=(1, 2))
    e.add(acct, "GCP", "Memorystore", a[1], "Memorystore-M2", 4, kind="db")
    fleet(e, acct, "GCP", "Compute Engine", a[2:5], ["n2-standard-8", "c3-standard-8"], sizes=(4, 6))
    store(e, acct, "GCP", "Cloud Storage", a[4:5], "GCS-Standard", tb=(80, 120))
    provider_rise(e, "GCP", 1.08)
    truth(e, "GCP", "CSP")
    return e


@scenario("provider", A2, "Azure prices +20%; a large tiered Blob estate whose blended price drifts every day; Functions on business hours")
def s11(i):
    e = Estate(i, D(2026, 11, 4), 70, cv=.04)
    a = pick(e, 6)
    acct = A2
    store(e, acct, "Azure", "Blob Storage", a[:2], "Hot-LRS", tb=(300, 1400))
    store(e, acct, "Azure", "Blob Storage", a[2:3], "Cool-LRS", tb=(500, 2000))
    usage(e, acct, "Azure", "Azure Functions", a[3:5], ["Functions-Execution"], scale=(100, 300))
    fleet(e, acct, "Azure", "AKS", a[3:6], ["D8as_v5", "E4s_v5"], sizes=(3, 4, 6))
    provider_rise(e, "Azure", 1.20)
    truth(e, "Azure", "CSP")
    return e


@scenario("provider", A3, "AWS prices +13% on a Monday; weekend-off estate and Monday batches; a family spike in another account the same day")
def s12(i):
    e = Estate(i, D(2026, 2, 2), 70, cv=.04)
    a = pick(e, 6)
    for acct in (A3, A1):
        fleet(e, acct, "AWS", "EC2", a[:3], ["m7i.large", "c6a.4xlarge", "t3.large"], weeks=("off", "mon", "flat"))
        fleet(e, acct, "AWS", "EKS", a[3:5], ["r7g.xlarge", "m7i.2xlarge"], weeks=("off", "mon"))
        dbs(e, acct, "AWS", "RDS", a[5:6], ["db.m6g.xlarge"])
    provider_rise(e, "AWS", 1.13)
    spike = e.where(acct=A1, svc="EC2")[0]
    e.event([spike], "n", 3.0)
    e.decoys.append(f"x3 instances of {spike.fam} in {spike.app}, other account {A1}")
    truth(e, "AWS", "CSP")
    return e


@scenario("service", A1, "EC2 prices +22% on every application; each application runs two small fleets (2-3 instances), weekday/weekend estate")
def s13(i):
    e = Estate(i, D(2026, 3, 10), 70, cv=.04)
    a = pick(e, 7)
    acct = A1
    for app in a[:4]:
        for fam in e.rng.sample(["m7i.large", "c7g.2xlarge", "t3.large", "m6a.xlarge"], 2):
            e.add(acct, "AWS", "EC2", app, fam, e.rng.choice([2, 3]), kind="small", week=e.rng.choice(["office", "flat"]))
    fleet(e, acct, "AWS", "EKS", a[4:6], ["m7i.large", "r7g.xlarge"], sizes=(2, 3), per_app=(1,))
    dbs(e, acct, "AWS", "RDS", a[:2], ["db.r7g.large"], sizes=(1,))
    e.event(e.where(svc="EC2"), "p", 1.22)
    truth(e, "EC2", "Cloud_Service")
    return e


@scenario("service", A2, "RDS extended-support surcharge (+30%) on every database; noisy EC2/EKS beside them")
def s14(i):
    e = Estate(i, D(2026, 5, 14), 70, cv=.06)
    a = pick(e, 6)
    acct = A2
    fleet(e, acct, "AWS", "EC2", a[:3], ["m7i.large", "c7g.2xlarge"], sizes=(4, 6, 8))
    fleet(e, acct, "AWS", "EKS", a[3:5], ["m7i.2xlarge"], sizes=(3, 4))
    dbs(e, acct, "AWS", "RDS", a[1:4], ["db.r7g.large", "db.m6g.xlarge", "db.r6i.2xlarge"], sizes=(2, 3))
    e.event(e.where(svc="RDS"), "p", 1.30)
    truth(e, "RDS", "Cloud_Service")
    return e


@scenario("service", A3, "Lambda duration price +25% on every application; request-driven usage with strong weekday habit")
def s15(i):
    e = Estate(i, D(2026, 4, 15), 70, cv=.04)
    a = pick(e, 6)
    acct = A3
    usage(e, acct, "AWS", "Lambda", a[:3], ["Lambda-GB-Second", "Lambda-Requests"], scale=(150, 400))
    fleet(e, acct, "AWS", "EC2", a[3:5], ["m7i.large", "c6a.4xlarge"], sizes=(3, 4))
    usage(e, acct, "AWS", "DynamoDB", a[:2], ["DynamoDB-WCU"], scale=(20000, 40000), week="flat", cv=.03)
    store(e, acct, "AWS", "S3", a[5:6], "S3-IA", tb=(100, 300))
    e.event(e.where(svc="Lambda"), "p", 1.25)
    truth(e, "Lambda", "Cloud_Service")
    return e


@scenario("service", A4, "Cloud Storage price +35% on every bucket (tiered, slowly growing), other GCP services flat")
def s16(i):
    e = Estate(i, D(2026, 6, 12), 70, cv=.04)
    a = pick(e, 6)
    acct = A4
    store(e, acct, "GCP", "Cloud Storage", a[:3], "GCS-Standard", tb=(150, 700))
    store(e, acct, "GCP", "Cloud Storage", a[3:4], "GCS-Nearline", tb=(400, 900))
    fleet(e, acct, "GCP", "Compute Engine", a[:4], ["n2-standard-8", "e2-standard-4"], sizes=(4, 6, 8))
    fleet(e, acct, "GCP", "GKE", a[4:6], ["e2-highmem-8"], sizes=(4, 6))
    e.event(e.where(svc="Cloud Storage"), "p", 1.35)
    truth(e, "Cloud Storage", "Cloud_Service")
    return e


@scenario("service", A1, "Virtual Machines: an autoscale rule pushed to every application (x1.6 instances) on a Saturday of an office estate")
def s17(i):
    e = Estate(i, D(2026, 9, 19), 70, cv=.035)
    a = pick(e, 6)
    acct = A1
    fleet(e, acct, "Azure", "Virtual Machines", a[:4], ["D4s_v5", "E4s_v5", "F4s_v2"], sizes=(4, 6, 8), weeks=("office",))
    fleet(e, acct, "Azure", "AKS", a[4:6], ["D8as_v5"], sizes=(4, 6))
    dbs(e, acct, "Azure", "Azure SQL Database", a[:2], ["GP_Gen5_2"])
    e.event(e.where(svc="Virtual Machines"), "n", 1.6)
    truth(e, "Virtual Machines", "Cloud_Service")
    return e


@scenario("service", A2, "Cloud Run price +40% on the 1st; a monthly GKE batch (x3) and a support fee on every 1st")
def s18(i):
    e = Estate(i, D(2026, 7, 1), 84, cv=.04)
    a = pick(e, 6)
    acct = A2
    usage(e, acct, "GCP", "Cloud Run", a[:3], ["CloudRun-vCPU-Second"], scale=(150, 300))
    g = fleet(e, acct, "GCP", "GKE", a[3:5], ["e2-highmem-8", "n2-standard-8"], sizes=(6, 8))
    g[0].dom1 = 3.0
    dbs(e, acct, "GCP", "Cloud SQL", a[5:6], ["db-custom-8-32768"])
    e.fee(acct, "GCP", "Support", "Enhanced-Support", 900.0, only=first_of_month)
    e.event(e.where(svc="Cloud Run"), "p", 1.40)
    truth(e, "Cloud Run", "Cloud_Service")
    return e


@scenario("service", A3, "Azure Cache for Redis price +45% on three applications, one node each")
def s19(i):
    e = Estate(i, D(2026, 8, 10), 70, cv=.04)
    a = pick(e, 6)
    acct = A3
    for app in a[:3]:
        e.add(acct, "Azure", "Azure Cache for Redis", app, "Redis-P1-Premium", 1, kind="db")
    fleet(e, acct, "Azure", "Virtual Machines", a[2:5], ["D4s_v5", "F4s_v2"], sizes=(2, 3), weeks=("flat", "mon"))
    dbs(e, acct, "Azure", "Azure SQL Database", a[4:6], ["GP_Gen5_2"])
    e.event(e.where(svc="Azure Cache for Redis"), "p", 1.45)
    truth(e, "Azure Cache for Redis", "Cloud_Service")
    return e


@scenario("service", A4, "NAT Gateway data-processing price +50% in four applications; EC2 under a committed plan")
def s20(i):
    e = Estate(i, D(2026, 10, 20), 70, cv=.04)
    a = pick(e, 6)
    acct = A4
    usage(e, acct, "AWS", "NAT Gateway", a[:4], ["NAT-Data-Processed"], scale=(200, 600))
    for l in fleet(e, acct, "AWS", "EC2", a[:4], ["m7i.large", "c7g.2xlarge", "r7g.xlarge"], sizes=(8, 12)):
        l.cover, l.commit_disc = round(l.n * .7), .3
    fleet(e, acct, "AWS", "EKS", a[4:6], ["m7i.2xlarge"], sizes=(4, 6))
    e.event(e.where(svc="NAT Gateway"), "p", 1.50)
    truth(e, "NAT Gateway", "Cloud_Service")
    return e


@scenario("service", A1, "GKE price +18% in both accounts; three GKE apps with two fleets each; a cost-neutral Compute Engine migration the same day")
def s21(i):
    e = Estate(i, D(2026, 11, 5), 70, cv=.035)
    a = pick(e, 7)
    for acct in (A1, A3):
        for app in a[:3]:
            for fam in e.rng.sample(["e2-standard-4", "e2-highmem-8", "t2a-standard-4"], 2):
                e.add(acct, "GCP", "GKE", app, fam, e.rng.choice([3, 4, 6]), week=e.rng.choice(["flat", "office"]))
        fleet(e, acct, "GCP", "Compute Engine", a[3:5], ["e2-standard-4"], sizes=(6, 8), per_app=(1,))
        dbs(e, acct, "GCP", "Cloud SQL", a[5:7], ["db-custom-2-7680"])
    old = e.where(acct=A1, svc="Compute Engine")[0]
    old.end = e.anomaly - ONE
    new = e.add(A1, "GCP", "Compute Engine", old.app, "t2a-standard-4", 1, week=old.week)
    new.n = round(old.n * PRICE[old.fam] / PRICE["t2a-standard-4"], 2)
    new.start = e.anomaly
    e.decoys.append(f"cost-neutral migration {old.app}: {old.fam} -> t2a-standard-4")
    e.event(e.where(svc="GKE"), "p", 1.18)
    truth(e, "GKE", "Cloud_Service")
    return e


@scenario("resource", A2, "c7g.2xlarge x3 in one application; EC2 fleets under a commitment (excess billed on demand)")
def s22(i):
    e = Estate(i, D(2026, 3, 25), 70, cv=.04)
    a = pick(e, 6)
    acct = A2
    ec2 = []
    for app in a[:3]:
        ec2.append(e.add(acct, "AWS", "EC2", app, "c7g.2xlarge" if app == a[0] else e.rng.choice(["m7i.large", "r7g.xlarge"]), e.rng.choice([6, 8])))
    for l in ec2:
        l.cover, l.commit_disc = l.n, .32
    fleet(e, acct, "AWS", "EKS", a[3:5], ["m7i.2xlarge"], sizes=(4, 6))
    dbs(e, acct, "AWS", "RDS", a[4:6], ["db.r7g.large"])
    e.event([ec2[0]], "n", 3.0)
    truth(e, "c7g.2xlarge", "Instance_Family")
    return e


@scenario("resource", A3, "Cloud SQL db-custom-8-32768: 2 -> 5 instances (read replicas) in one application of a static estate")
def s23(i):
    e = Estate(i, D(2026, 5, 5), 70, cv=.02)
    a = pick(e, 5)
    acct = A3
    e.add(acct, "GCP", "Cloud SQL", a[0], "db-custom-8-32768", 2, kind="db")
    dbs(e, acct, "GCP", "Cloud SQL", a[1:3], ["db-custom-2-7680", "db-perf-optimized-N-4"])
    fleet(e, acct, "GCP", "Compute Engine", a[2:5], ["n2-standard-8", "c3-standard-8"], sizes=(3, 4))
    e.event(e.where(fam="db-custom-8-32768"), "n", 2.5)
    truth(e, "db-custom-8-32768", "Instance_Family")
    return e


@scenario("resource", A4, "Azure D16s_v5 spot capacity lost: billed at on-demand (unit price x3.2) on a Saturday")
def s24(i):
    e = Estate(i, D(2026, 6, 20), 70, cv=.04)
    a = pick(e, 6)
    acct = A4
    sp = e.add(acct, "Azure", "Virtual Machines", a[0], "D16s_v5", 6, week="satbatch")
    sp.price = PRICE["D16s_v5"] * .3
    fleet(e, acct, "Azure", "Virtual Machines", a[1:4], ["D4s_v5", "E4s_v5"], sizes=(4, 6), weeks=("office",))
    fleet(e, acct, "Azure", "AKS", a[4:6], ["D8as_v5"], sizes=(4, 6))
    dbs(e, acct, "Azure", "Azure SQL Database", a[:2], ["GP_Gen5_8"], sizes=(1,))
    e.event([sp], "p", 3.2)
    truth(e, "D16s_v5", "Instance_Family")
    return e


@scenario("resource", A1, "new g5.xlarge fleet (4 GPUs) on a four-line account of small fleets")
def s25(i):
    e = Estate(i, D(2026, 1, 22), 63, cv=.03)
    a = pick(e, 3)
    acct = A1
    e.add(acct, "AWS", "EC2", a[0], "t3.large", 2, kind="small")
    e.add(acct, "AWS", "EC2", a[1], "m7i.large", 3, kind="small")
    e.add(acct, "AWS", "RDS", a[0], "db.r7g.large", 1, kind="db")
    e.add(acct, "AWS", "S3", a[1], "S3-Standard", 6.0, kind="store")
    g = e.add(acct, "AWS", "EC2", a[2], "g5.xlarge", 4, kind="small")
    g.start = e.anomaly
    truth(e, "g5.xlarge", "Instance_Family")
    return e


@scenario("resource", A2, "a new application (llm-eval, two GKE node families) appears on the day")
def s26(i):
    e = Estate(i, D(2026, 2, 27), 70, cv=.04)
    a = pick(e, 5, exclude=("llm-eval",))
    acct = A2
    fleet(e, acct, "GCP", "GKE", a[:3], ["e2-standard-4", "n2-standard-8"], sizes=(4, 6, 8))
    fleet(e, acct, "GCP", "Compute Engine", a[3:5], ["c3-standard-8"], sizes=(4, 6))
    dbs(e, acct, "GCP", "Cloud SQL", a[:2], ["db-custom-2-7680"])
    for fam, n in (("g2-standard-8", 4), ("n2-standard-8", 3)):
        l = e.add(acct, "GCP", "GKE", "llm-eval", fam, n)
        l.start = e.anomaly
    truth(e, "llm-eval", "Application")
    return e


@scenario("resource", A3, "m7i.large x2.8 in one EKS application; the same day GCP prices rise +20% in another account (the anomaly's account has no GCP)")
def s27(i):
    e = Estate(i, D(2026, 9, 9), 70, cv=.04)
    a = pick(e, 6)
    fleet(e, A3, "AWS", "EC2", a[:3], ["c7g.2xlarge", "r7g.xlarge"], sizes=(4, 6))
    sp = e.add(A3, "AWS", "EKS", a[3], "m7i.large", 10)
    fleet(e, A3, "AWS", "EKS", a[4:5], ["m7i.2xlarge"], sizes=(4,))
    fleet(e, A3, "Azure", "Virtual Machines", a[4:6], ["D4s_v5"], sizes=(4, 6))
    fleet(e, A4, "GCP", "Compute Engine", a[:3], ["n2-standard-8", "e2-standard-4"], sizes=(6, 8))
    fleet(e, A4, "GCP", "GKE", a[3:5], ["e2-highmem-8"], sizes=(4, 6))
    provider_rise(e, "GCP", 1.20, accts=(A4,))
    e.decoys.append(f"GCP +20% in other account {A4}")
    e.event([sp], "n", 2.8)
    truth(e, "m7i.large", "Instance_Family")
    return e


@scenario("resource", A4, "n2d-standard-16 x2.5 on the last day of April; a month-end reporting batch (x3) in another application is the usual habit")
def s28(i):
    e = Estate(i, D(2026, 4, 30), 91, cv=.035)
    a = pick(e, 6)
    acct = A4
    b = e.add(acct, "GCP", "Compute Engine", a[0], "c3-standard-8", 8)
    b.eom = 3.0
    sp = e.add(acct, "GCP", "Compute Engine", a[1], "n2d-standard-16", 5)
    fleet(e, acct, "GCP", "GKE", a[2:5], ["e2-standard-4", "e2-highmem-8"], sizes=(4, 6))
    dbs(e, acct, "GCP", "Cloud SQL", a[4:6], ["db-custom-8-32768"], sizes=(1,))
    e.event([sp], "n", 2.5)
    e.decoys.append(f"month-end batch x3 on {a[0]}/c3-standard-8")
    truth(e, "n2d-standard-16", "Instance_Family")
    return e


# ------------------------------------------------------------------ output
COLS = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family", "Price ($/hr)",
        "Num_Instances", "unblended_cost"]


def difficulty(rows, acct, anomaly):
    tot = {}
    for d, l, _, _, c in rows:
        if l.acct == acct:
            tot[d] = tot.get(d, 0.0) + c
    same = [tot.get(anomaly - dt.timedelta(days=7 * k)) for k in range(1, 5)]
    same = sorted(x for x in same if x)
    if not same or anomaly not in tot:
        return None, None
    med = (same[len(same) // 2] + same[(len(same) - 1) // 2]) / 2
    wow = []
    for d in sorted(tot):
        p = d - dt.timedelta(days=7)
        if p in tot and d < anomaly and d.day != 1 and p.day != 1 and (d + ONE).day != 1 and (p + ONE).day != 1 and tot[p] > 0:
            wow.append(abs(tot[d] / tot[p] - 1))
    wow.sort()
    noise = 1.4826 * wow[len(wow) // 2] if wow else 0
    rel = tot[anomaly] / med - 1
    return rel, (rel / noise if noise else float("inf"))


def main(out):
    os.makedirs(out, exist_ok=True)
    table = []
    for i, (cat, acct, cause, fn) in enumerate(S, 1):
        e = fn(i)
        rows = e.rows()
        rows.sort(key=lambda r: (r[0], r[1].acct, r[1].csp, r[1].svc, r[1].app, r[1].fam))
        if i in (5, 11, 17, 23):      # some exports come unsorted
            random.Random(i).shuffle(rows)
        d = os.path.join(out, f"Scenario-{i}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "data.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(COLS)
            for day, l, p, n, c in rows:
                w.writerow([day.isoformat(), l.acct, l.csp, l.svc, l.app, l.fam, p, n, c])
        with open(os.path.join(d, "anomaly.json"), "w") as f:
            json.dump({"date": e.anomaly.isoformat(), "account_id": acct}, f)
            f.write("\n")
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            f.write("resource:\n")
            for t in e.truth:
                f.write(f"  - name: \"{t['name']}\"\n    type: {t['type']}\n")
        rel, z = difficulty(rows, acct, e.anomaly)
        table.append({"scenario": f"Scenario-{i}", "category": cat, "account": acct,
                      "date": e.anomaly.isoformat(), "weekday": e.anomaly.strftime("%a"),
                      "truth": e.truth, "cause": cause, "decoys": e.decoys, "notes": e.notes,
                      "rows": len(rows), "rel": None if rel is None else round(rel, 4),
                      "z": None if z is None else round(z, 1)})
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    for t in table:
        tr = "; ".join(f"{x['name']} ({x['type']})" for x in t["truth"])
        print(f"| {t['scenario']} | {t['category']} | {tr} | {t['date']} {t['weekday']} | {t['cause']} | "
              f"{'; '.join(t['decoys']) or '—'} | {t['rel']:+.1%} | {t['z']} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
