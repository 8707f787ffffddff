#!/usr/bin/env python3
"""Blind FinOps set 2: 30 ITBench-Lite cost-anomaly scenarios (Scenario-<N>/anomaly.json, data.csv,
ground_truth.yaml) with 10 provider-wide, 10 service-wide and 10 resource-level root causes, over
billing with tiers, commitments, credits, static resources, weekly/monthly habits and partial edge
days. Deterministic, stdlib only.  Usage: python3 gen.py OUTDIR"""
import csv, datetime as dt, json, math, os, random, sys

D = dt.date
CATALOG = {
    "AWS": {
        "EC2": ["m5.xlarge", "c6i.2xlarge", "r6g.large", "t3.medium", "m6i.4xlarge"],
        "EKS": ["m5.2xlarge", "c5.xlarge", "m6g.xlarge"],
        "RDS": ["db.r6g.xlarge", "db.m5.large"],
        "S3": ["Standard-Storage", "Glacier-IR"],
        "ElastiCache": ["cache.r6g.large"],
        "DataTransfer": ["Internet-Egress"],
    },
    "GCP": {
        "Compute Engine": ["n2-standard-4", "e2-standard-8", "c2-standard-16", "n2d-highmem-4"],
        "GKE": ["e2-standard-4", "n2-standard-8", "t2d-standard-4"],
        "Cloud SQL": ["db-custom-4-16384", "db-n1-standard-2"],
        "BigQuery": ["Analysis-OnDemand", "Active-Storage"],
        "Cloud Storage": ["Standard-Regional"],
    },
    "Azure": {
        "Virtual Machines": ["D4s_v5", "E8s_v5", "F8s_v2", "B2ms"],
        "AKS": ["D8s_v5", "D4as_v5"],
        "Azure SQL Database": ["GP_Gen5_4", "BC_Gen5_2"],
        "Blob Storage": ["Hot-LRS"],
    },
}
BASE_PRICE = {  # $/hr per instance (or per TB for storage-like families)
    "m5.xlarge": .192, "c6i.2xlarge": .34, "r6g.large": .1008, "t3.medium": .0416, "m6i.4xlarge": .768,
    "m5.2xlarge": .384, "c5.xlarge": .17, "m6g.xlarge": .154, "db.r6g.xlarge": .48, "db.m5.large": .171,
    "Standard-Storage": .0315, "Glacier-IR": .0055, "cache.r6g.large": .206, "Internet-Egress": .09,
    "n2-standard-4": .1942, "e2-standard-8": .268, "c2-standard-16": .835, "n2d-highmem-4": .2276,
    "e2-standard-4": .134, "n2-standard-8": .3885, "t2d-standard-4": .169, "db-custom-4-16384": .413,
    "db-n1-standard-2": .1315, "Analysis-OnDemand": .26, "Active-Storage": .0274, "Standard-Regional": .0274,
    "D4s_v5": .192, "E8s_v5": .504, "F8s_v2": .338, "B2ms": .0832, "D8s_v5": .384, "D4as_v5": .172,
    "GP_Gen5_4": .505, "BC_Gen5_2": .681, "Hot-LRS": .0255,
}
STATIC = {"RDS", "Cloud SQL", "Azure SQL Database", "ElastiCache"}   # flat-cost databases/caches
STORAGE = {"S3", "Cloud Storage", "Blob Storage"}                   # tiered, slowly growing
APPS = ["web-frontend", "checkout-api", "search", "analytics-etl", "ml-training", "auth-service",
        "reporting", "mobile-backend", "data-lake", "payments", "recommendation", "batch-render"]


class Leaf:
    def __init__(s, acct, csp, svc, app, fam, n, price, profile, start=None, end=None):
        s.acct, s.csp, s.svc, s.app, s.fam = acct, csp, svc, app, fam
        s.n, s.price, s.profile = n, price, profile
        s.start, s.end = start, end
        s.static = svc in STATIC
        s.storage = svc in STORAGE or fam in ("Active-Storage",)
        s.mult_n = {}      # date -> instance multiplier
        s.mult_p = {}      # date -> price multiplier
        s.discount = 0.0   # commitment discount on unit price (background)
        s.discount_end = None
        s.flat = None      # flat daily cost rows (commitment fee, credit, support)
        s.flat_days = None


def weekly(profile, day, rng):
    wd = day.weekday()
    if profile == "flat":
        return 1.0
    if profile == "business":
        return 0.45 if wd >= 5 else 1.0
    if profile == "monday_batch":
        return 1.8 if wd == 0 else 1.0
    if profile == "weekend_off":
        return 0.0 if wd >= 5 else 1.0
    return 1.0


def month_end(day):
    return (day + dt.timedelta(days=1)).month != day.month


def build(idx, spec):
    rng = random.Random(1000 + idx)
    ndays = spec.get("days", rng.choice([63, 70, 77]))
    anomaly = spec["anomaly_date"]
    start = anomaly - dt.timedelta(days=ndays - 1)
    after = spec.get("after", 0)
    days = [start + dt.timedelta(days=i) for i in range(ndays + after)]
    cv = spec.get("cv", rng.choice([0.03, 0.04, 0.05]))
    accounts = spec["accounts"]
    leaves = []
    app_pool = APPS[:]
    rng.shuffle(app_pool)
    for acct in accounts:
        for csp in spec["csps"]:
            svcs = spec["services"][csp]
            for svc in svcs:
                fams = CATALOG[csp][svc]
                napps = 1 if svc in STORAGE or svc == "DataTransfer" else rng.choice([2, 3])
                apps = rng.sample(app_pool[:7], napps)
                for app in apps:
                    for fam in rng.sample(fams, min(len(fams), 1 if svc in STATIC | STORAGE else rng.choice([1, 2]))):
                        if svc in STATIC:
                            n, prof = rng.choice([2, 3, 4, 6]), "flat"
                        elif svc in STORAGE or fam in ("Active-Storage",):
                            n, prof = round(rng.uniform(40, 400), 1), "flat"
                        elif fam == "Internet-Egress":
                            n, prof = round(rng.uniform(30, 90), 1), "business"
                        else:
                            n = rng.choice([2, 3, 4, 6, 8, 12, 16])
                            prof = rng.choice(["flat", "flat", "business", "monday_batch"])
                        leaves.append(Leaf(acct, csp, svc, app, fam, n, BASE_PRICE[fam], prof))
    # dedupe (acct,csp,svc,app,fam)
    seen, uniq = set(), []
    for l in leaves:
        k = (l.acct, l.csp, l.svc, l.app, l.fam)
        if k not in seen:
            seen.add(k); uniq.append(l)
    leaves = uniq
    ctx = {"rng": rng, "days": days, "anomaly": anomaly, "leaves": leaves, "start": start, "cv": cv}
    for f in spec.get("background", []):
        f(ctx)
    truth = spec["cause"](ctx)
    for f in spec.get("decoys", []):
        f(ctx)
    rows = emit(ctx, spec)
    return rows, truth, ctx


def tier_cost(tb, price):
    # tiered storage: first 50 TB list price, next 450 TB at 95.6%, beyond at 91.3% (S3-like)
    t1 = min(tb, 50); t2 = min(max(tb - 50, 0), 450); t3 = max(tb - 500, 0)
    return (t1 * price + t2 * price * .956 + t3 * price * .913) * 24


def emit(ctx, spec):
    rng, days = ctx["rng"], ctx["days"]
    rows = []
    partial_first = spec.get("partial_first")
    partial_after = spec.get("partial_after")
    for day in days:
        for l in ctx["leaves"]:
            if l.start and day < l.start: continue
            if l.end and day > l.end: continue
            if l.flat is not None:
                if l.flat_days and not l.flat_days(day): continue
                cost = l.flat * (1 + (rng.gauss(0, 0.002) if l.flat > 0 else 0))
                frac = 1.0
                if partial_first and day == days[0]: frac = partial_first
                if partial_after and day == days[-1] and day > ctx["anomaly"]: frac = partial_after
                rows.append((day, l, round(cost / 24, 6), 1, round(cost * frac, 4)))
                continue
            w = weekly(l.profile, day, rng)
            if w == 0: continue
            if getattr(l, "month_end_x", None) and month_end(day): w *= l.month_end_x
            grow = 1.0
            if l.storage:
                grow = 1 + 0.004 * (day - ctx["start"]).days   # slow storage growth
            noise = 1.0 if l.static else math.exp(rng.gauss(0, ctx["cv"] / (5 if l.storage else 1)))
            n = l.n * w * grow * noise * l.mult_n.get(day, 1.0)
            p = l.price * l.mult_p.get(day, 1.0)
            if l.discount and not (l.discount_end and day >= l.discount_end):
                p *= (1 - l.discount)
            if l.storage:
                cost = tier_cost(n, p)
                p_eff = cost / 24 / n if n else p
            else:
                cost = p * n * 24
                p_eff = p
            frac = 1.0
            if partial_first and day == days[0]: frac = partial_first
            if partial_after and day == days[-1] and day > ctx["anomaly"]: frac = partial_after
            if l.static:
                nout = l.n
            else:
                nout = round(n, 2)
            rows.append((day, l, round(p_eff, 6), nout, round(cost * frac, 4)))
    return rows


# ---------------------------------------------------------------- helpers for causes/decoys
def on_from(day0, until=None):
    return lambda d: d >= day0 and (until is None or d <= until)


def set_from(l, attr, day0, value, days):
    m = getattr(l, attr)
    for d in days:
        if d >= day0:
            m[d] = m.get(d, 1.0) * value


def leaves_where(ctx, **kw):
    out = []
    for l in ctx["leaves"]:
        if l.flat is not None and not kw.get("include_flat"): continue
        if all(getattr(l, k) == v for k, v in kw.items() if k != "include_flat"):
            out.append(l)
    return out


def add_flat(ctx, acct, csp, svc, app, fam, daily, days_pred=None, start=None, end=None):
    l = Leaf(acct, csp, svc, app, fam, 1, 0, "flat", start, end)
    l.flat = daily; l.flat_days = days_pred
    ctx["leaves"].append(l)
    return l


# background price structures
def bg_commitment(csp, svc, disc=0.28):
    def f(ctx):
        for l in leaves_where(ctx, csp=csp, svc=svc):
            l.discount = disc
        accts = sorted({l.acct for l in ctx["leaves"]})
        for a in accts:
            add_flat(ctx, a, csp, svc, "shared", "Commitment-Fee", round(ctx["rng"].uniform(30, 80), 2))
    return f


def bg_credits(csp, amount=(20, 60)):
    def f(ctx):
        for a in sorted({l.acct for l in ctx["leaves"]}):
            for svc in sorted({l.svc for l in ctx["leaves"] if l.csp == csp and l.acct == a}):
                add_flat(ctx, a, csp, svc, "shared", "Promotional-Credit", -round(ctx["rng"].uniform(*amount), 2))
    return f


def bg_support_fee(csp):  # billed on the 1st of each month
    def f(ctx):
        for a in sorted({l.acct for l in ctx["leaves"]}):
            add_flat(ctx, a, csp, "Support", "shared", "Business-Support", 450.0, lambda d: d.day == 1)
    return f


def bg_month_end(app=None):
    def f(ctx):
        cands = [l for l in ctx["leaves"] if l.flat is None and not l.static and not l.storage]
        l = cands[ctx["rng"].randrange(len(cands))] if app is None else [x for x in cands if x.app == app][0]
        l.month_end_x = 3.0
        ctx.setdefault("notes", []).append(f"month-end batch x3 on {l.app}/{l.fam}")
    return f


def bg_weekend_off(k=2):
    def f(ctx):
        cands = [l for l in ctx["leaves"] if l.flat is None and not l.static and not l.storage]
        for l in ctx["rng"].sample(cands, min(k, len(cands))):
            l.profile = "weekend_off"
    return f


def decoy_scale_step(days_before=3, factor=1.5):
    def f(ctx):
        cands = [l for l in ctx["leaves"] if l.flat is None and not l.static and not l.storage and not l.mult_n and not l.mult_p]
        l = cands[ctx["rng"].randrange(len(cands))]
        set_from(l, "mult_n", ctx["anomaly"] - dt.timedelta(days=days_before), factor, ctx["days"])
        ctx.setdefault("notes", []).append(f"planned scale step x{factor} {days_before}d before on {l.app}/{l.fam}")
    return f


def decoy_migration():
    """cost-neutral move of one app's instances to a new family on the anomaly day"""
    def f(ctx):
        cands = [l for l in ctx["leaves"] if l.flat is None and not l.static and not l.storage and not l.mult_n and not l.mult_p and l.csp == "AWS" and l.svc == "EC2"]
        if not cands:
            cands = [l for l in ctx["leaves"] if l.flat is None and not l.static and not l.storage and not l.mult_n and not l.mult_p]
        l = cands[ctx["rng"].randrange(len(cands))]
        newfam = {"AWS": "m7i.xlarge", "GCP": "n4-standard-4", "Azure": "D4s_v6"}[l.csp]
        l.end = ctx["anomaly"] - dt.timedelta(days=1)
        nl = Leaf(l.acct, l.csp, l.svc, l.app, newfam, l.n, 0, l.profile, start=ctx["anomaly"])
        nl.price = l.price * (1 - l.discount) if l.discount else l.price   # same cost
        nl.n = l.n
        ctx["leaves"].append(nl)
        ctx.setdefault("notes", []).append(f"cost-neutral migration {l.app}: {l.fam} -> {newfam}")
    return f


def decoy_other_account_spike(factor=3.0):
    def f(ctx):
        a0 = ctx["target_account"]
        cands = [l for l in ctx["leaves"] if l.acct != a0 and l.flat is None and not l.static and not l.storage]
        if not cands: return
        l = cands[ctx["rng"].randrange(len(cands))]
        l.mult_n[ctx["anomaly"]] = factor
        ctx.setdefault("notes", []).append(f"spike x{factor} in other account {l.acct} {l.app}/{l.fam}")
    return f


# ---------------------------------------------------------------- causes
def provider_price(csp, r, accounts_all=True, acct=None):
    def f(ctx):
        for l in ctx["leaves"]:
            if l.csp == csp and l.flat is None and (accounts_all or l.acct == acct):
                set_from(l, "mult_p", ctx["anomaly"], 1 + r, ctx["days"])
        return [{"name": csp, "type": "CSP"}]
    return f


def provider_discount_expiry(csp, disc):
    def f(ctx):
        for l in ctx["leaves"]:
            if l.csp == csp and l.flat is None:
                l.discount = disc; l.discount_end = ctx["anomaly"]
        return [{"name": csp, "type": "CSP"}]
    return f


def provider_credit_end(csp):
    def f(ctx):
        for l in ctx["leaves"]:
            if l.csp == csp and l.flat is not None and l.fam == "Promotional-Credit":
                l.end = ctx["anomaly"] - dt.timedelta(days=1)
        return [{"name": csp, "type": "CSP"}]
    return f


def service_price(csp, svc, r):
    def f(ctx):
        for l in leaves_where(ctx, csp=csp, svc=svc):
            set_from(l, "mult_p", ctx["anomaly"], 1 + r, ctx["days"])
        return [{"name": svc, "type": "Cloud_Service"}]
    return f


def service_surge(csp, svc, x):
    def f(ctx):
        for l in leaves_where(ctx, csp=csp, svc=svc):
            l.mult_n[ctx["anomaly"]] = x
            for d in ctx["days"]:
                if d > ctx["anomaly"]: l.mult_n[d] = x
        return [{"name": svc, "type": "Cloud_Service"}]
    return f


def service_control_plane_fee(csp, svc, before, after):
    """per-cluster control-plane fee (flat per app) jumps (e.g. extended support), plus node price bump"""
    def f(ctx):
        a = ctx["target_account"]
        apps = sorted({l.app for l in leaves_where(ctx, csp=csp, svc=svc, acct=a)})
        for app in apps:
            l = add_flat(ctx, a, csp, svc, app, "Cluster-Management", before * 24)
            l.mult_flat_after = after * 24
            l2 = add_flat(ctx, a, csp, svc, app, "Cluster-Management", after * 24, start=ctx["anomaly"])
            l.end = ctx["anomaly"] - dt.timedelta(days=1)
        for l in leaves_where(ctx, csp=csp, svc=svc):
            set_from(l, "mult_p", ctx["anomaly"], 1.12, ctx["days"])
        return [{"name": svc, "type": "Cloud_Service"}]
    return f


def family_spike(x, where):
    def f(ctx):
        cands = [l for l in ctx["leaves"] if l.flat is None and not l.static and not l.storage and l.acct == ctx["target_account"] and where(l)]
        cands.sort(key=lambda l: -l.n * l.price); cands = cands[:max(1, (len(cands) + 1) // 2)]
        l = cands[ctx["rng"].randrange(len(cands))]
        l.mult_n[ctx["anomaly"]] = x
        return [{"name": l.fam, "type": "Instance_Family"}]
    return f


def family_price(r, where):
    def f(ctx):
        cands = [l for l in ctx["leaves"] if l.flat is None and not l.static and not l.storage and l.acct == ctx["target_account"] and where(l)]
        cands.sort(key=lambda l: -l.n * l.price); cands = cands[:max(1, (len(cands) + 1) // 2)]
        l = cands[ctx["rng"].randrange(len(cands))]
        set_from(l, "mult_p", ctx["anomaly"], 1 + r, ctx["days"])
        return [{"name": l.fam, "type": "Instance_Family"}]
    return f


def new_family(csp, svc, fam, n, price):
    def f(ctx):
        a = ctx["target_account"]
        apps = sorted({l.app for l in leaves_where(ctx, csp=csp, svc=svc, acct=a)})
        l = Leaf(a, csp, svc, apps[0], fam, n, price, "flat", start=ctx["anomaly"])
        ctx["leaves"].append(l)
        return [{"name": fam, "type": "Instance_Family"}]
    return f


def two(*fs):
    def f(ctx):
        out = []
        for g in fs: out += g(ctx)
        return out
    return f


def any_leaf(l): return True


# ---------------------------------------------------------------- the 30 scenarios
A1, A2, A3 = "012345678901", "887766554433", "340021998812"
SV = {
    "AWS": ["EC2", "EKS", "RDS", "S3"],
    "GCP": ["Compute Engine", "GKE", "Cloud SQL", "BigQuery"],
    "Azure": ["Virtual Machines", "AKS", "Azure SQL Database", "Blob Storage"],
}
SV_SMALL = {"AWS": ["EC2", "RDS", "S3"], "GCP": ["Compute Engine", "Cloud SQL", "Cloud Storage"], "Azure": ["Virtual Machines", "Azure SQL Database"]}
SV_BIG = {"AWS": ["EC2", "EKS", "RDS", "S3", "ElastiCache", "DataTransfer"], "GCP": ["Compute Engine", "GKE", "Cloud SQL", "BigQuery", "Cloud Storage"], "Azure": ["Virtual Machines", "AKS", "Azure SQL Database", "Blob Storage"]}

SPECS = [
    # ---- provider-wide (1-10)
    dict(cat="provider", desc="GCP list-price rise +18% on every GCP service, both accounts", accounts=[A1, A2], csps=["AWS", "GCP"], services=SV,
         anomaly_date=D(2025, 3, 12), cause=provider_price("GCP", .18), background=[bg_commitment("AWS", "EC2")], decoys=[]),
    dict(cat="provider", desc="AWS enterprise discount (22%) expires on every AWS service", accounts=[A2], csps=["AWS", "Azure"], services=SV,
         anomaly_date=D(2025, 4, 1), cause=provider_discount_expiry("AWS", .22), background=[bg_support_fee("AWS"), bg_weekend_off(2)], decoys=[]),
    dict(cat="provider", desc="GCP promotional credits end (every GCP service loses its credit row)", accounts=[A1], csps=["GCP", "Azure"], services=SV,
         anomaly_date=D(2025, 5, 20), cause=provider_credit_end("GCP"), background=[bg_credits("GCP", (60, 140))], decoys=[decoy_scale_step(3, 1.4)]),
    dict(cat="provider", desc="Azure price rise +25% on a Monday; Monday batch peaks are normal", accounts=[A3], csps=["AWS", "Azure"], services=SV,
         anomaly_date=D(2025, 6, 16), cause=provider_price("Azure", .25), background=[bg_commitment("AWS", "RDS", .3)], decoys=[], partial_after=.35, after=1),
    dict(cat="provider", desc="AWS +15% price rise on the last day of a month with a month-end batch", accounts=[A1, A3], csps=["AWS", "GCP", "Azure"], services=SV_SMALL,
         anomaly_date=D(2025, 7, 31), cause=provider_price("AWS", .15), background=[bg_month_end()], decoys=[decoy_other_account_spike(2.5)]),
    dict(cat="provider", desc="GCP committed-use discount (30%) expires across every GCP service", accounts=[A2], csps=["AWS", "GCP"], services=SV_BIG,
         anomaly_date=D(2025, 8, 6), cause=provider_discount_expiry("GCP", .30), background=[bg_credits("AWS", (10, 30))], decoys=[decoy_migration()], partial_first=.4),
    dict(cat="provider", desc="Azure price +35% in a 3-account org; partial first day; tiered storage", accounts=[A1, A2, A3], csps=["Azure", "GCP"], services=SV,
         anomaly_date=D(2025, 9, 10), cause=provider_price("Azure", .35), background=[], decoys=[], partial_first=.25),
    dict(cat="provider", desc="AWS credits end; weekend-off workloads; day after partial", accounts=[A3], csps=["AWS", "GCP"], services=SV_BIG,
         anomaly_date=D(2025, 10, 14), cause=provider_credit_end("AWS"), background=[bg_credits("AWS", (50, 110)), bg_weekend_off(3)], decoys=[], after=1, partial_after=.5),
    dict(cat="provider", desc="GCP +22% price rise with a cost-neutral migration in AWS the same day", accounts=[A1], csps=["AWS", "GCP", "Azure"], services=SV,
         anomaly_date=D(2025, 11, 19), cause=provider_price("GCP", .22), background=[bg_commitment("Azure", "Virtual Machines")], decoys=[decoy_migration(), decoy_scale_step(2, 1.3)]),
    dict(cat="provider", desc="AWS discount (25%) expiry on the 1st of the month (support fee also billed that day)", accounts=[A2, A3], csps=["AWS", "Azure"], services=SV_SMALL,
         anomaly_date=D(2025, 12, 1), cause=provider_discount_expiry("AWS", .25), background=[bg_support_fee("AWS")], decoys=[]),
    # ---- service-wide (11-20)
    dict(cat="service", desc="EKS extended support: control-plane fee 0.10 -> 0.60 $/h per cluster, node price +12%", accounts=[A1], csps=["AWS", "GCP"], services=SV,
         anomaly_date=D(2025, 3, 25), cause=service_control_plane_fee("AWS", "EKS", .10, .60), background=[bg_commitment("AWS", "EC2")], decoys=[]),
    dict(cat="service", desc="Cloud SQL price +80% (static databases) on every application", accounts=[A2], csps=["GCP", "AWS"], services=SV,
         anomaly_date=D(2025, 4, 9), cause=service_price("GCP", "Cloud SQL", .80), background=[bg_weekend_off(2)], decoys=[decoy_scale_step(3, 1.5)]),
    dict(cat="service", desc="GKE node autoscaler misconfig: every app of GKE x1.7 instances", accounts=[A3], csps=["GCP", "Azure"], services=SV,
         anomaly_date=D(2025, 5, 14), cause=service_surge("GCP", "GKE", 1.7), background=[bg_credits("GCP", (20, 40))], decoys=[], after=2, partial_after=.3),
    dict(cat="service", desc="Azure VM price +30% on every application, other Azure services flat", accounts=[A1, A2], csps=["Azure", "AWS"], services=SV,
         anomaly_date=D(2025, 6, 3), cause=service_price("Azure", "Virtual Machines", .30), background=[bg_month_end()], decoys=[decoy_other_account_spike(3.0)]),
    dict(cat="service", desc="EC2 surge x2 on every app (AMI with bad autoscaling policy rolled org-wide)", accounts=[A2], csps=["AWS", "GCP"], services=SV_BIG,
         anomaly_date=D(2025, 7, 22), cause=service_surge("AWS", "EC2", 2.0), background=[bg_commitment("AWS", "EC2", .2), bg_support_fee("AWS")], decoys=[]),
    dict(cat="service", desc="RDS price x2 (extended-support surcharge) (flat-cost databases) on a Monday", accounts=[A3], csps=["AWS", "Azure"], services=SV,
         anomaly_date=D(2025, 8, 18), cause=service_price("AWS", "RDS", 1.0), background=[bg_weekend_off(2)], decoys=[], partial_first=.6),
    dict(cat="service", desc="BigQuery on-demand analysis price +50% across apps; end of month", accounts=[A1], csps=["GCP", "AWS"], services=SV,
         anomaly_date=D(2025, 9, 30), cause=service_price("GCP", "BigQuery", .50), background=[bg_month_end()], decoys=[]),
    dict(cat="service", desc="AKS price +60% on every app; a cost-neutral migration elsewhere", accounts=[A2, A3], csps=["Azure", "AWS"], services=SV,
         anomaly_date=D(2025, 10, 8), cause=service_price("Azure", "AKS", .60), background=[], decoys=[decoy_migration()]),
    dict(cat="service", desc="Compute Engine surge x1.8 every app (quota raised, batch fan-out) with GCP credits", accounts=[A1], csps=["GCP", "Azure"], services=SV_BIG,
         anomaly_date=D(2025, 11, 5), cause=service_surge("GCP", "Compute Engine", 1.8), background=[bg_credits("GCP", (30, 60))], decoys=[decoy_scale_step(4, 1.6)]),
    dict(cat="service", desc="Azure SQL price x2 (flat databases) day after a scale step", accounts=[A3], csps=["Azure", "GCP"], services=SV,
         anomaly_date=D(2025, 12, 10), cause=service_price("Azure", "Azure SQL Database", 1.0), background=[bg_commitment("Azure", "Virtual Machines")], decoys=[], after=1, partial_after=.45),
    # ---- resource-level (21-30)
    dict(cat="resource", desc="one EC2 family x3.5 instances in one app", accounts=[A1], csps=["AWS", "GCP"], services=SV,
         anomaly_date=D(2025, 3, 18), cause=family_spike(3.5, lambda l: l.svc == "EC2"), background=[bg_commitment("AWS", "EC2")], decoys=[]),
    dict(cat="resource", desc="GKE family x3 in one app on a Monday (Monday batch peaks normal)", accounts=[A2], csps=["GCP", "AWS"], services=SV,
         anomaly_date=D(2025, 4, 21), cause=family_spike(3.0, lambda l: l.svc == "GKE"), background=[bg_weekend_off(2)], decoys=[decoy_scale_step(3, 1.4)]),
    dict(cat="resource", desc="new GPU family p4d.24xlarge appears in EC2", accounts=[A3], csps=["AWS", "Azure"], services=SV,
         anomaly_date=D(2025, 5, 7), cause=new_family("AWS", "EC2", "p4d.24xlarge", 1, 32.77), background=[bg_credits("AWS", (20, 40))], decoys=[]),
    dict(cat="resource", desc="spot-to-on-demand fallback: one Azure VM family price x2.6", accounts=[A1, A2], csps=["Azure", "GCP"], services=SV,
         anomaly_date=D(2025, 6, 11), cause=family_price(1.6, lambda l: l.svc == "Virtual Machines"), background=[], decoys=[decoy_other_account_spike(3.0)]),
    dict(cat="resource", desc="one Compute Engine family x4 on the last day of month (month-end batch elsewhere)", accounts=[A2], csps=["GCP", "AWS"], services=SV_BIG,
         anomaly_date=D(2025, 7, 31), cause=family_spike(4.0, lambda l: l.svc == "Compute Engine"), background=[bg_month_end()], decoys=[]),
    dict(cat="resource", desc="two independent causes: EC2 family x3 and new GCP family a2-highgpu-1g", accounts=[A1], csps=["AWS", "GCP"], services=SV,
         anomaly_date=D(2025, 8, 27), cause=two(family_spike(3.0, lambda l: l.svc == "EC2"), new_family("GCP", "Compute Engine", "a2-highgpu-1g", 2, 3.67)), background=[bg_commitment("GCP", "Compute Engine")], decoys=[]),
    dict(cat="resource", desc="AKS family x3 with a cost-neutral migration the same day", accounts=[A3], csps=["Azure", "AWS"], services=SV,
         anomaly_date=D(2025, 9, 17), cause=family_spike(3.0, lambda l: l.svc == "AKS"), background=[], decoys=[decoy_migration()], partial_first=.3),
    dict(cat="resource", desc="EKS family x3.5, AWS credits in background, day after partial", accounts=[A2], csps=["AWS", "GCP"], services=SV_BIG,
         anomaly_date=D(2025, 10, 29), cause=family_spike(3.5, lambda l: l.svc == "EKS"), background=[bg_credits("AWS", (30, 70))], decoys=[], after=1, partial_after=.4),
    dict(cat="resource", desc="one GCP family price x2.5 (sustained-use discount lost on one machine type) on the 1st", accounts=[A1, A3], csps=["GCP", "Azure"], services=SV,
         anomaly_date=D(2025, 11, 1), cause=family_price(1.5, lambda l: l.svc in ("Compute Engine", "GKE")), background=[bg_support_fee("GCP")], decoys=[decoy_scale_step(2, 1.3)]),
    dict(cat="resource", desc="new Azure family ND96asr_v4 in Virtual Machines; weekend-off workloads; Monday", accounts=[A2], csps=["Azure", "AWS"], services=SV,
         anomaly_date=D(2025, 12, 15), cause=new_family("Azure", "Virtual Machines", "ND96asr_v4", 1, 27.2), background=[bg_weekend_off(3)], decoys=[]),
]


def main():
    if len(sys.argv) != 2: sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    table = []
    for i, spec in enumerate(SPECS, 1):
        target = spec["accounts"][0]
        spec_cause = spec["cause"]

        def cause_with_target(ctx, spec_cause=spec_cause, target=target):
            ctx["target_account"] = target
            return spec_cause(ctx)
        s2 = dict(spec); s2["cause"] = cause_with_target
        # decoys need target_account as well (set by cause, which runs first)
        rows, truth, ctx = build(i, s2)
        d = os.path.join(out, f"Scenario-{i}")
        os.makedirs(d, exist_ok=True)
        rng = random.Random(5000 + i)
        rows.sort(key=lambda r: (r[0], r[1].acct, r[1].csp, r[1].svc, r[1].app, r[1].fam))
        if i % 5 == 3:   # some exports come unordered
            rng.shuffle(rows)
        with open(os.path.join(d, "data.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
                        "Price ($/hr)", "Num_Instances", "unblended_cost"])
            for day, l, p, n, c in rows:
                w.writerow([day.isoformat(), l.acct, l.csp, l.svc, l.app, l.fam, p, n, c])
        acct = int(target) if i % 4 == 0 else target   # some anomaly.json carry the id as a JSON number
        with open(os.path.join(d, "anomaly.json"), "w") as f:
            json.dump({"date": spec["anomaly_date"].isoformat(), "account_id": acct}, f)
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            f.write("resource:\n")
            for t in truth:
                f.write(f"  - name: {json.dumps(t['name'])}\n    type: {t['type']}\n")
        table.append((i, spec["cat"], spec["desc"], truth, "; ".join(ctx.get("notes", []))))
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump([{"scenario": f"Scenario-{i}", "category": c, "description": d, "truth": t, "decoys": n}
                   for i, c, d, t, n in table], f, indent=1)
    print(f"{len(table)} scenarios written to {out}")


if __name__ == "__main__":
    main()
