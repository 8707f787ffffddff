#!/usr/bin/env python3
"""finops-set14: held-out FinOps billing scenarios. Usage: python gen.py OUT (stdlib only, deterministic)."""
import csv, datetime as dt, json, os, random, sys

D = dt.date
def days(start, n): return [start + dt.timedelta(i) for i in range(n)]
def wk(d, f): return f if d.weekday() >= 5 else 1.0

LITE_COLS = ["date", "Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family",
             "Price ($/hr)", "Num_Instances", "unblended_cost"]
FOCUS_COLS = ["BillingAccountId", "BillingCurrency", "ChargePeriodStart", "ChargePeriodEnd", "ChargeCategory",
              "ChargeDescription", "ProviderName", "ServiceCategory", "ServiceName", "RegionId", "ResourceId",
              "SkuId", "SubAccountId", "ListCost", "EffectiveCost", "BilledCost", "Tags"]

def write_gt(path, items):
    with open(os.path.join(path, "ground_truth.yaml"), "w") as f:
        if not items: f.write("resource: []\n"); return
        f.write("resource:\n")
        for n, t in items: f.write("- name: %s\n  type: %s\n" % (json.dumps(n), t))

def lite(out, sid, acct, start, n, lines, anomaly, truth, adate, seed, weekend=0.8, kind="", drop_zero=True):
    """lines: (csp, svc, app, fam, price, base_count). anomaly(d, line) -> (price, count) override or None."""
    rng = random.Random(seed); rows = []
    for d in days(start, n):
        for ln in lines:
            csp, svc, app, fam, price, cnt = ln
            c = max(0, round(cnt * wk(d, weekend) * rng.uniform(0.93, 1.07)))
            p = price
            r = anomaly(d, ln, p, c) if anomaly else None
            if r: p, c = r
            if c == 0 and drop_zero: continue
            rows.append([d.isoformat(), acct, csp, svc, app, fam, "%.4f" % p, c, "%.4f" % (p * c * 24)])
    path = os.path.join(out, sid); os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "data.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n"); w.writerow(LITE_COLS); w.writerows(rows)
    json.dump({"date": adate.isoformat(), "account_id": acct}, open(os.path.join(path, "anomaly.json"), "w"))
    json.dump({"generator": "finops-set14", "kind": kind}, open(os.path.join(path, "scenario.json"), "w"), indent=2)
    write_gt(path, truth)

def focus(out, sid, acct, cur, start, n, lines, anomaly, truth, adate, seed, hourly=False, extra=None, kind="",
          partial_hours=None):
    """lines: dict(prov, cat, svc, region, res, sku, sub, cost, desc, weekend, tags). cost per day."""
    rng = random.Random(seed); rows = []
    for d in days(start, n):
        hrs = range(24) if hourly else [None]
        if hourly and partial_hours and d == start + dt.timedelta(n - 1): hrs = range(partial_hours)
        for h in hrs:
            for ln in lines:
                c = ln["cost"] * wk(d, ln.get("weekend", 1.0)) * rng.uniform(0.95, 1.05)
                if ln.get("grow"): c *= ln["grow"](d)
                if hourly: c /= 24.0
                if anomaly:
                    m = anomaly(d, ln)
                    if m is not None: c *= m
                if c <= 0.00005: continue
                if hourly:
                    s = dt.datetime(d.year, d.month, d.day, h); e = s + dt.timedelta(hours=1)
                else:
                    s = dt.datetime(d.year, d.month, d.day); e = s + dt.timedelta(1)
                lc = c * ln.get("listx", 1.0)
                rows.append([acct, cur, s.strftime("%Y-%m-%d %H:%M:%S"), e.strftime("%Y-%m-%d %H:%M:%S"),
                             ln.get("cat_charge", "Usage"), ln["desc"], ln["prov"], ln["cat"], ln["svc"], ln["region"],
                             ln["res"], ln["sku"], ln["sub"], "%.6f" % lc, "%.6f" % c, "%.6f" % c, ln.get("tags", "")])
        if extra:
            for r in extra(d, rng): rows.append([acct, cur] + r)
    path = os.path.join(out, sid); os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "focus.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n"); w.writerow(FOCUS_COLS); w.writerows(rows)
    json.dump({"date": adate.isoformat(), "account_id": acct}, open(os.path.join(path, "anomaly.json"), "w"))
    json.dump({"generator": "finops-set14", "kind": kind,
               "levels": ["BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "RegionId", "ResourceId"],
               "cost_column": "BilledCost"}, open(os.path.join(path, "scenario.json"), "w"), indent=2)
    write_gt(path, truth)

def fl(prov, cat, svc, region, res, sku, sub, cost, desc, weekend=1.0, tags="", **kw):
    d = dict(prov=prov, cat=cat, svc=svc, region=region, res=res, sku=sku, sub=sub, cost=cost, desc=desc,
             weekend=weekend, tags=tags); d.update(kw); return d

def tg(app, env="prod"): return json.dumps({"application": app, "environment": env})

def main(out):
    os.makedirs(out, exist_ok=True)
    S = []
    # ---------- ITBench-Lite layout scenarios ----------
    # 1 Application: SageMaker endpoint left running (two families in the app: endpoint + notebook)
    L1 = [("AWS", "SageMaker", "churn-eval", "ml.g5.2xlarge", 1.5150, 0), ("AWS", "SageMaker", "churn-eval", "ml.m5.xlarge", 0.2300, 0),
          ("AWS", "SageMaker", "recs-serving", "ml.c5.2xlarge", 0.4080, 6), ("AWS", "EC2", "recs-serving", "c6i.2xlarge", 0.3400, 14),
          ("AWS", "EC2", "checkout", "m6i.xlarge", 0.1920, 22), ("AWS", "RDS", "checkout", "db.r6g.xlarge", 0.4800, 3),
          ("AWS", "EC2", "data-lake", "r6i.2xlarge", 0.5040, 9), ("GCP", "ComputeEngine", "analytics", "n2-standard-8", 0.3885, 12)]
    a1 = D(2025, 5, 19)
    def an1(d, ln, p, c):
        if ln[2] == "churn-eval":
            if d >= a1: return p, (4 if ln[3].startswith("ml.g5") else 2)
            if d.weekday() == 1 and d.isocalendar()[1] % 2 == 0: return p, (4 if ln[3].startswith("ml.g5") else 2)
        return None
    lite(out, "Scenario-1", "418220937714", D(2025, 3, 1), 92, L1, an1, [("churn-eval", "Application")], a1 + dt.timedelta(3), 101,
         kind="sagemaker endpoint left running after a fortnightly evaluation")
    # 2 Instance_Family: cluster autoscaler stuck at max (one node family of one cluster, used by several apps)
    L2 = [("AWS", "EKS", app, fam, p, c) for app, fam, p, c in [
        ("search", "c6g.2xlarge", 0.2720, 18), ("ingest", "c6g.2xlarge", 0.2720, 11), ("api-gw", "c6g.2xlarge", 0.2720, 7),
        ("search", "r6g.xlarge", 0.2016, 6), ("ingest", "m6g.large", 0.0770, 25), ("api-gw", "m6g.large", 0.0770, 14)]] + \
         [("AWS", "RDS", "search", "db.m6g.large", 0.1680, 2), ("AWS", "ElastiCache", "api-gw", "cache.r6g.large", 0.2060, 3)]
    a2 = D(2024, 11, 6)
    def an2(d, ln, p, c):
        if ln[3] == "c6g.2xlarge" and d >= a2: return p, {"search": 40, "ingest": 30, "api-gw": 20}[ln[2]]
    lite(out, "Scenario-2", "770312009845", D(2024, 8, 15), 110, L2, an2, [("c6g.2xlarge", "Instance_Family")], a2 + dt.timedelta(1), 102,
         weekend=0.6, kind="cluster autoscaler stuck at max on one node group")
    # 3 Instance_Family: price-list change of one memory-optimised family across apps and services
    L3 = [("Azure", svc, app, fam, p, c) for svc, app, fam, p, c in [
        ("VirtualMachines", "erp", "E8s_v5", 0.5040, 6), ("AKS", "portal", "E8s_v5", 0.5040, 9), ("AKS", "portal", "D4s_v5", 0.1920, 20),
        ("VirtualMachines", "erp", "D8s_v5", 0.3840, 8), ("AKS", "billing", "E8s_v5", 0.5040, 4), ("AKS", "billing", "F8s_v2", 0.3380, 10),
        ("SQLDatabase", "erp", "GP_Gen5_8", 1.6500, 2)]]
    a3 = D(2025, 2, 1)
    def an3(d, ln, p, c):
        if ln[3] == "E8s_v5" and d >= a3: return 0.6552, c
    lite(out, "Scenario-3", "b31f0c2e-7d1a-4a55-9c0e-2f1e6a0d9c11", D(2024, 10, 1), 150, L3, an3, [("E8s_v5", "Instance_Family")],
         a3 + dt.timedelta(5), 103, weekend=0.9, kind="list price of one memory-optimised size raised on a month start")
    # 4 Cloud_Service: DynamoDB switched from provisioned to on-demand (all apps' tables)
    L4 = [("AWS", "DynamoDB", app, "provisioned-wcu", 0.0650, c) for app, c in [("orders", 40), ("sessions", 25), ("catalog", 12)]] + \
         [("AWS", "EC2", "orders", "m7g.xlarge", 0.1632, 16), ("AWS", "EC2", "catalog", "c7g.large", 0.0723, 20),
          ("AWS", "Lambda", "sessions", "arm64-1024mb", 0.0480, 30), ("AWS", "S3", "catalog", "standard", 0.0310, 45)]
    a4 = D(2025, 7, 14)
    def an4(d, ln, p, c):
        if ln[1] == "DynamoDB" and d >= a4: return round(p * 3.4, 4), c
    lite(out, "Scenario-4", "220981554300", D(2025, 5, 1), 80, L4, an4, [("DynamoDB", "Cloud_Service")], a4 + dt.timedelta(2), 104,
         weekend=0.7, kind="DynamoDB capacity mode switch")
    # 5 CSP: OCI universal credits exhausted -> pay-as-you-go rate on every OCI service
    L5 = [("OCI", "Compute", "ledger", "VM.Standard.E4.Flex", 0.2500, 12), ("OCI", "AutonomousDB", "ledger", "ATP-OCPU", 1.3441, 4),
          ("OCI", "ObjectStorage", "archive", "standard-tier", 0.0255, 60), ("OCI", "OKE", "portal", "VM.Standard.A1.Flex", 0.1000, 18),
          ("AWS", "EC2", "portal", "m6i.large", 0.0960, 10), ("AWS", "CloudFront", "portal", "edge-tb", 0.0850, 9),
          ("AWS", "RDS", "archive", "db.t4g.large", 0.1280, 2)]
    a5 = D(2025, 9, 22)
    def an5(d, ln, p, c):
        if ln[0] == "OCI" and d >= a5: return p, c * 2 + 1
    lite(out, "Scenario-5", "ocid1.tenancy.oc1..aaaa7qf", D(2025, 6, 1), 125, L5, an5, [("OCI", "CSP")], a5 + dt.timedelta(4), 105,
         kind="tenancy-wide Terraform apply duplicated every OCI workload into a second compartment")
    # 6 Application: one app's whole footprint doubled by a forgotten blue/green copy
    L6 = [("GCP", svc, app, fam, p, c) for svc, app, fam, p, c in [
        ("GKE", "pricing-engine", "n2d-standard-8", 0.3400, 10), ("CloudSQL", "pricing-engine", "db-custom-8-32768", 0.6200, 2),
        ("GKE", "storefront", "n2d-standard-8", 0.3400, 16), ("GKE", "storefront", "e2-standard-4", 0.1340, 24),
        ("Memorystore", "storefront", "standard-m4", 0.3560, 3), ("CloudSQL", "inventory", "db-custom-4-16384", 0.3100, 2),
        ("GKE", "inventory", "e2-standard-4", 0.1340, 12)]]
    a6 = D(2025, 1, 28)
    def an6(d, ln, p, c):
        if ln[2] == "pricing-engine" and d >= a6: return p, c * 2 + 1
    lite(out, "Scenario-6", "gcp-billing-01A2B3-C4D5E6", D(2024, 12, 2), 70, L6, an6, [("pricing-engine", "Application")],
         a6 + dt.timedelta(2), 106, weekend=0.75, kind="blue/green copy of one application never torn down")
    # 7 none: end-of-month batch (normal, every month)
    L7 = [("AWS", "EC2", "reporting", "r6i.4xlarge", 1.0080, 0), ("AWS", "EC2", "web", "m6i.large", 0.0960, 30),
          ("AWS", "RDS", "web", "db.r6g.2xlarge", 0.9600, 2), ("AWS", "EMR", "reporting", "m6g.4xlarge", 0.6160, 0)]
    def an7(d, ln, p, c):
        if ln[2] == "reporting":
            last = (d.replace(day=28) + dt.timedelta(4)); last = last - dt.timedelta(last.day)
            if last - d <= dt.timedelta(1): return p, (24 if ln[1] == "EC2" else 40)
        return None
    lite(out, "Scenario-7", "550193372841", D(2025, 1, 1), 181, L7, an7, [], D(2025, 6, 30), 107, kind="normal month-end batch")
    # 8 none: new region / app launch ramping gradually
    L8 = [("Azure", "AKS", "bookings", "D4s_v5", 0.1920, 30), ("Azure", "SQLDatabase", "bookings", "GP_Gen5_4", 0.8250, 2),
          ("Azure", "AKS", "bookings-apac", "D4s_v5", 0.1920, 0), ("Azure", "VirtualMachines", "ops", "B2ms", 0.0832, 6)]
    st8 = D(2025, 3, 3)
    def an8(d, ln, p, c):
        if ln[2] == "bookings-apac":
            k = (d - D(2025, 4, 14)).days
            return (p, 0) if k < 0 else (p, min(26, 1 + k // 3))
    lite(out, "Scenario-8", "9f4e21aa-03c7-4b8e-a1d2-6c0e55f7b210", st8, 120, L8, an8, [], D(2025, 5, 20), 108,
         kind="gradual ramp of a new deployment")
    # ---------- FOCUS layout scenarios ----------
    base_aws = lambda sub: [
        fl("AWS", "Compute", "Amazon Elastic Compute Cloud", "us-east-1", "i-0a41c9e2b7d310f55", "EC2-m6i.2xl", sub, 310, "m6i.2xlarge On Demand Linux", 0.7, tg("checkout")),
        fl("AWS", "Databases", "Amazon Relational Database Service", "us-east-1", "arn:aws:rds:us-east-1:%s:db:orders-prod" % sub, "RDS-r6g", sub, 190, "db.r6g.2xlarge Multi-AZ", 1.0, tg("orders")),
        fl("AWS", "Storage", "Amazon Simple Storage Service", "us-east-1", "media-assets-prod", "S3-TimedStorage", sub, 85, "Standard storage GB-Mo", 1.0, tg("media")),
        fl("AWS", "Networking", "Amazon CloudFront", "global", "E2QW7X3K9ZP1AB", "CF-DataTransfer", sub, 60, "Data transfer out to internet", 0.8, tg("media")),
        fl("AWS", "Compute", "Amazon Elastic Compute Cloud", "eu-west-1", "i-07d2f0b3c6a9e1844", "EC2-c6i.xl", sub, 120, "c6i.xlarge On Demand Linux", 0.6, tg("search")),
    ]
    # 9 ResourceId: S3 bucket made public and scraped (egress of one bucket)
    sub9 = "618233904417"
    L9 = base_aws(sub9) + [fl("AWS", "Storage", "Amazon Simple Storage Service", "us-east-1", "partner-exports-2023", "S3-DataTransfer-Out", sub9, 4, "Data transfer out (bucket)", 1.0, tg("partner-portal")),
                           fl("AWS", "Storage", "Amazon Simple Storage Service", "us-east-1", "partner-exports-2023", "S3-TimedStorage", sub9, 22, "Standard storage GB-Mo", 1.0, tg("partner-portal"))]
    a9 = D(2025, 8, 11)
    def an9(d, ln):
        if ln["res"] == "partner-exports-2023" and ln["sku"] == "S3-DataTransfer-Out" and d >= a9: return 95.0
    focus(out, "Scenario-9", "338812667020", "USD", D(2025, 5, 1), 105, L9, an9, [("partner-exports-2023", "ResourceId")], a9 + dt.timedelta(2), 109,
          kind="S3 bucket made public and scraped")
    # 10 ResourceId: Redis cluster resized (one ElastiCache cluster), hourly rows, partial last day
    sub10 = "902117455310"
    L10 = base_aws(sub10)[:3] + [
        fl("AWS", "Databases", "Amazon ElastiCache", "us-east-1", "arn:aws:elasticache:us-east-1:%s:cluster:sessions-redis" % sub10, "EC-r6g.large", sub10, 30, "cache.r6g.large node-hour", 1.0, tg("sessions")),
        fl("AWS", "Databases", "Amazon ElastiCache", "us-east-1", "arn:aws:elasticache:us-east-1:%s:cluster:ratelimit-redis" % sub10, "EC-r6g.large", sub10, 30, "cache.r6g.large node-hour", 1.0, tg("api"))]
    a10 = D(2025, 10, 7)
    def an10(d, ln):
        if "sessions-redis" in ln["res"] and d >= a10: return 8.0
    focus(out, "Scenario-10", "338812667020", "USD", D(2025, 9, 1), 45, L10, an10,
          [("arn:aws:elasticache:us-east-1:%s:cluster:sessions-redis" % sub10, "ResourceId")], a10 + dt.timedelta(1), 110, hourly=True,
          partial_hours=13, kind="Redis cluster resized r6g.large -> r6g.4xlarge, hourly export, partial last day")
    # 11 RegionId: backup policy copying everything to a second region
    sub11 = "445512093380"
    L11 = base_aws(sub11) + [
        fl("AWS", "Storage", "AWS Backup", "eu-central-1", "arn:aws:backup:eu-central-1:%s:backup-vault:dr" % sub11, "Backup-WarmStorage", sub11, 6, "Backup warm storage GB-Mo", 1.0, tg("platform")),
        fl("AWS", "Storage", "Amazon Simple Storage Service", "eu-central-1", "dr-replica-logs", "S3-TimedStorage", sub11, 5, "Standard storage GB-Mo", 1.0, tg("platform")),
        fl("AWS", "Compute", "Amazon Elastic Compute Cloud", "eu-central-1", "snap-0f3a1b2c4d5e6f708", "EBS-SnapshotUsage", sub11, 3, "EBS snapshot GB-Mo", 1.0, tg("platform"))]
    a11 = D(2025, 4, 3)
    def an11(d, ln):
        if ln["region"] == "eu-central-1" and d >= a11: return 1.0 + min(1.0, (d - a11).days / 3.0) * 11.0
    focus(out, "Scenario-11", "445500000001", "USD", D(2025, 1, 6), 100, L11, an11, [("eu-central-1", "RegionId")], a11 + dt.timedelta(4), 111,
          kind="backup plan copy rule sends every recovery point to eu-central-1")
    # 12 ServiceName: Azure Defender for Cloud enabled subscription-wide (several subscriptions), EUR
    L12 = []
    for sub, k in [("sub-prod-weu", 1.0), ("sub-data-neu", 0.6), ("sub-dev-weu", 0.3)]:
        L12 += [fl("Microsoft", "Compute", "Virtual Machines", "westeurope", "/subscriptions/%s/vm/app-%d" % (sub, i), "D4s_v5", sub, 70 * k, "D4s v5 compute hour", 0.8, tg("app%d" % i)) for i in range(2)]
        L12 += [fl("Microsoft", "Storage", "Storage", "westeurope", "/subscriptions/%s/storage/st%sdata" % (sub, sub[4:8]), "LRS-Hot", sub, 25 * k, "Hot LRS data stored", 1.0),
                fl("Microsoft", "Security", "Microsoft Defender for Cloud", "westeurope", "/subscriptions/%s" % sub, "Defender-Foundational", sub, 1.5 * k, "Defender CSPM foundational", 1.0)]
    a12 = D(2025, 11, 12)
    def an12(d, ln):
        if ln["svc"] == "Microsoft Defender for Cloud" and d >= a12: return 24.0
    focus(out, "Scenario-12", "EA-81726354", "EUR", D(2025, 8, 1), 110, L12, an12, [("Microsoft Defender for Cloud", "ServiceName")],
          a12 + dt.timedelta(3), 112, kind="Defender plans switched on for every subscription")
    # 13 ProviderName: provider-wide currency conversion change (EUR billing of a USD-priced marketplace/3rd party)
    sub13 = "acct-7781"
    L13 = [fl("AWS", "Compute", "Amazon Elastic Compute Cloud", "eu-west-1", "i-0c11d2e3f4a5b6c7d", "EC2-m7i", sub13, 260, "m7i.2xlarge On Demand", 0.8),
           fl("AWS", "Databases", "Amazon Aurora", "eu-west-1", "arn:aws:rds:eu-west-1:778100:cluster:core", "Aurora-IO", sub13, 140, "Aurora I/O-Optimized ACU", 1.0),
           fl("Google Cloud", "Compute", "Compute Engine", "europe-west4", "projects/ml-train/instances/trainer-1", "N2-core", "ml-train", 180, "N2 core running in Netherlands", 0.9),
           fl("Google Cloud", "Storage", "Cloud Storage", "europe-west4", "projects/ml-train/buckets/datasets", "GCS-standard", "ml-train", 55, "Standard storage Netherlands", 1.0),
           fl("Google Cloud", "Networking", "Cloud Load Balancing", "europe-west4", "projects/web/lb/front", "LB-rule", "web", 35, "Forwarding rule minimum", 1.0),
           fl("Google Cloud", "Databases", "Cloud SQL", "europe-west4", "projects/web/instances/pg-main", "SQL-pg-vcpu", "web", 90, "Cloud SQL for PostgreSQL vCPU", 1.0)]
    a13 = D(2025, 3, 1)
    def an13(d, ln):
        if ln["prov"] == "Google Cloud" and d >= a13: return 1.19
    focus(out, "Scenario-13", "EU-CONSOLIDATED-02", "EUR", D(2024, 12, 1), 120, L13, an13, [("Google Cloud", "ProviderName")], a13 + dt.timedelta(6), 113,
          kind="billing-account currency conversion rate changed for one provider")
    # 14 ServiceName: Datadog custom metrics explosion (third-party provider with several products)
    sub14 = "dd-org-44120"
    L14 = base_aws("512300998811")[:4] + [
        fl("Datadog", "Management and Governance", "Infrastructure Monitoring", "global", "dd-org-44120/infra", "DD-INFRA-PRO", sub14, 120, "Infrastructure Pro hosts", 1.0),
        fl("Datadog", "Management and Governance", "APM", "global", "dd-org-44120/apm", "DD-APM", sub14, 75, "APM hosts", 1.0),
        fl("Datadog", "Management and Governance", "Custom Metrics", "global", "dd-org-44120/custom-metrics", "DD-CUSTOM-METRICS", sub14, 18, "Custom metrics (per 100)", 1.0)]
    a14 = D(2025, 6, 17)
    def an14(d, ln):
        if ln["svc"] == "Custom Metrics" and d >= a14: return 14.0
    focus(out, "Scenario-14", "512300998811", "USD", D(2025, 3, 20), 100, L14, an14, [("Custom Metrics", "ServiceName")], a14 + dt.timedelta(2), 114,
          kind="high-cardinality tag added to a metric (Datadog custom metrics)")
    # 15 RegionId: Alibaba Cloud, CNY, DR failover left active in one region (all services there)
    sub15 = "1688203344"
    L15 = []
    for reg, k in [("cn-hangzhou", 1.0), ("cn-shanghai", 0.8), ("ap-southeast-1", 0.15)]:
        L15 += [fl("Alibaba Cloud", "Compute", "Elastic Compute Service", reg, "i-%s-web" % reg, "ecs.g7.xlarge", sub15, 900 * k, "ECS g7 pay-as-you-go", 0.85),
                fl("Alibaba Cloud", "Databases", "ApsaraDB RDS", reg, "rm-%s-main" % reg, "rds.mysql.x4", sub15, 500 * k, "RDS MySQL instance", 1.0),
                fl("Alibaba Cloud", "Storage", "Object Storage Service", reg, "oss-%s-assets" % reg, "oss-standard", sub15, 140 * k, "OSS standard storage", 1.0)]
    a15 = D(2025, 9, 3)
    def an15(d, ln):
        if ln["region"] == "ap-southeast-1" and d >= a15: return 6.5
    focus(out, "Scenario-15", "1688203344", "CNY", D(2025, 7, 1), 75, L15, an15, [("ap-southeast-1", "RegionId")], a15 + dt.timedelta(2), 115,
          kind="DR drill failover to Singapore left active")
    # 16 ResourceId: OCI Autonomous DB OCPU count left at 16 after a month-end job
    L16 = [fl("Oracle", "Compute", "Compute", "eu-frankfurt-1", "ocid1.instance.oc1.eu-frankfurt-1.app%d" % i, "B93113", "tenancy-fin", 48, "E4 Flex OCPU hour", 1.0) for i in range(3)] + \
          [fl("Oracle", "Databases", "Autonomous Database", "eu-frankfurt-1", "ocid1.autonomousdatabase.oc1.eu-frankfurt-1.ledgerdw", "B95701", "tenancy-fin", 70, "ADW ECPU hour", 1.0),
           fl("Oracle", "Databases", "Autonomous Database", "eu-frankfurt-1", "ocid1.autonomousdatabase.oc1.eu-frankfurt-1.hrapp", "B95701", "tenancy-fin", 40, "ATP ECPU hour", 1.0),
           fl("Oracle", "Storage", "Object Storage", "eu-frankfurt-1", "ocid1.bucket.oc1.eu-frankfurt-1.exports", "B91628", "tenancy-fin", 12, "Object storage GB-month", 1.0)]
    a16 = D(2025, 5, 2)
    def an16(d, ln):
        if ln["res"].endswith("ledgerdw"):
            last = (d.replace(day=28) + dt.timedelta(4)); last = last - dt.timedelta(last.day)
            if d >= a16: return 8.0
            if d == last: return 4.0   # normal month-end scale-up, scaled back next day
    focus(out, "Scenario-16", "ocid1.tenancy.oc1..aaaafin77", "EUR", D(2025, 1, 1), 140, L16, an16,
          [("ocid1.autonomousdatabase.oc1.eu-frankfurt-1.ledgerdw", "ResourceId")], a16 + dt.timedelta(3), 116,
          kind="one Autonomous DB: normal month-end x4 scale-ups, then set to x8 on 2 May and left")
    # 17-20 no anomaly, FOCUS
    def fees(d, rng, sub="318822004511", quarterly=False, tax=True, credit=True):
        r = []
        s = d.strftime("%Y-%m-%d 00:00:00"); e = (d + dt.timedelta(1)).strftime("%Y-%m-%d 00:00:00")
        if d.day == 1:
            r.append([s, e, "Purchase", "Business support monthly fee", "AWS", "Other", "AWS Support (Business)", "global", "", "Support-Business", sub, "1450.000000", "1450.000000", "1450.000000", ""])
            r.append([s, e, "Usage", "Marketplace: Snyk Team subscription", "AWS", "Other", "Snyk (AWS Marketplace)", "global", "", "MP-snyk", sub, "620.000000", "620.000000", "620.000000", ""])
            if tax: r.append([s, e, "Tax", "VAT", "AWS", "Other", "Tax", "global", "", "TAX", sub, "0", "402.500000", "402.500000", ""])
            if credit: r.append([s, e, "Credit", "Promotional credit", "AWS", "Other", "Amazon Elastic Compute Cloud", "global", "", "CREDIT", sub, "0", "-250.000000", "-250.000000", ""])
            if quarterly and d.month in (1, 4, 7, 10):
                r.append([s, e, "Purchase", "Enterprise observability prepaid quarter (Grafana Cloud via Marketplace)", "AWS", "Management and Governance", "Grafana Cloud (AWS Marketplace)", "global", "", "MP-grafana-q", sub, "18000.000000", "18000.000000", "18000.000000", ""])
        return r
    sub17 = "318822004511"
    focus(out, "Scenario-17", "318822004511", "USD", D(2024, 12, 1), 200, base_aws(sub17), None, [], D(2025, 4, 1), 117,
          extra=lambda d, rng: fees(d, rng, sub17, quarterly=True), kind="normal: quarterly prepaid marketplace fee")
    sub18 = "204417790012"
    L18 = base_aws(sub18)
    L18.append(fl("AWS", "Compute", "Amazon Elastic Compute Cloud", "ap-south-1", "i-0ab1ap-south-web", "EC2-m6i.2xl", sub18, 300, "m6i.2xlarge On Demand Linux", 0.8, tg("checkout"),
                  grow=lambda d: 0.0 if d < D(2025, 6, 2) else min(1.0, (d - D(2025, 6, 2)).days / 45.0)))
    focus(out, "Scenario-18", "204417790012", "USD", D(2025, 4, 1), 130, L18, None, [], D(2025, 7, 10), 118,
          extra=lambda d, rng: fees(d, rng, sub18, credit=False), kind="normal: new region ramps over six weeks")
    sub19 = "771045002288"
    L19 = [dict(x, cat_charge="Usage") for x in base_aws(sub19)]
    L19.append(fl("AWS", "Compute", "Amazon Elastic Compute Cloud", "us-east-1", "ri-2025-m6i-fleet", "RI-amortised", sub19, 210, "Reserved Instance amortised fee m6i", 1.0, listx=1.6))
    focus(out, "Scenario-19", "771045002288", "USD", D(2025, 10, 1), 40, L19, None, [], D(2025, 11, 1), 119, hourly=True, partial_hours=7,
          extra=lambda d, rng: fees(d, rng, sub19), kind="normal: hourly export with month-start fees, tax, credit, amortised RI, partial last day")
    L20 = [fl("Microsoft", "Compute", "Virtual Machines", "swedencentral", "/subscriptions/s1/vm/batch-%d" % i, "E16s_v5", "s1", 120, "E16s v5", 0.1) for i in range(3)] + \
          [fl("Microsoft", "Storage", "Storage", "swedencentral", "/subscriptions/s1/storage/stbatch", "LRS-Hot", "s1", 40, "Hot LRS", 1.0),
           fl("Microsoft", "Analytics", "Azure Databricks", "swedencentral", "/subscriptions/s1/databricks/etl", "DBU-jobs", "s1", 300, "Jobs compute DBU", 0.05)]
    focus(out, "Scenario-20", "EA-55021900", "SEK", D(2025, 2, 3), 112, L20, None, [], D(2025, 5, 12), 120,
          kind="normal: batch platform that runs only on weekdays (Monday jump after quiet weekend)")
    # 21 Cloud_Service (Lite): Azure Defender enabled subscription-wide, new service rows
    L21 = [("Azure", "VirtualMachines", app, "D8s_v5", 0.3840, c) for app, c in [("hr", 5), ("crm", 9), ("intranet", 3)]] + \
          [("Azure", "DefenderForServers", app, "P2-per-server", 0.0200, 0) for app in ("hr", "crm", "intranet")] + \
          [("Azure", "AppService", "crm", "P1v3", 0.1700, 4), ("Azure", "SQLDatabase", "hr", "GP_Gen5_2", 0.4130, 1)]
    a21 = D(2025, 10, 20)
    def an21(d, ln, p, c):
        if ln[1] == "DefenderForServers":
            base = {"hr": 5, "crm": 9, "intranet": 3}[ln[2]]
            return (p, 1) if d < a21 else (p, base * 30)
    lite(out, "Scenario-21", "c0ffee12-aa90-4d3b-8e77-1a2b3c4d5e6f", D(2025, 8, 1), 95, L21, an21, [("DefenderForServers", "Cloud_Service")],
         a21 + dt.timedelta(2), 121, kind="Defender for Servers Plan 2 enabled subscription-wide")
    # 22 CSP (Lite): Datadog as third-party provider, every product jumps after a plan change
    L22 = [("Datadog", svc, app, fam, p, c) for svc, app, fam, p, c in [("Infrastructure", "platform", "pro-host", 0.0205, 300), ("APM", "platform", "apm-host", 0.0431, 120),
                                                                         ("Logs", "platform", "indexed-15d", 0.0700, 40)]] + \
          [("AWS", "EC2", "platform", "m6i.xlarge", 0.1920, 60), ("AWS", "EKS", "platform", "cluster-hour", 0.1000, 4), ("GCP", "GKE", "ml", "n2-standard-16", 0.7770, 6)]
    a22 = D(2025, 4, 1)
    def an22(d, ln, p, c):
        if ln[0] == "Datadog" and d >= a22: return p, int(c * 1.9)
    lite(out, "Scenario-22", "301122558844", D(2025, 1, 1), 100, L22, an22, [("Datadog", "CSP")], a22 + dt.timedelta(3), 122,
         kind="acquired company's Datadog org merged into this one: every Datadog product count jumps")

if __name__ == "__main__":
    main(sys.argv[1])
