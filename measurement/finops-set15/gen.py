#!/usr/bin/env python3
"""finops-set15: held-out FinOps billing scenarios (ITBench-Lite data.csv layout). stdlib only.
Usage: python gen.py OUT"""
import datetime as dt, json, os, random, sys

HDR = "date,Account ID,CSP,Cloud_Service,Application,Instance_Family,Price ($/hr),Num_Instances,unblended_cost"

def d(s): return dt.date.fromisoformat(s)

class Bill:
    def __init__(self, seed, start, days, accounts):
        self.r = random.Random(seed); self.start = d(start); self.days = days
        self.accounts = accounts; self.lines = []  # (acct,csp,svc,app,fam,price,fn)
    def add(self, acct, csp, svc, app, fam, price, fn):
        self.lines.append((acct, csp, svc, app, fam, price, fn))
    def rows(self):
        out = []
        for i in range(self.days):
            day = self.start + dt.timedelta(days=i)
            for (acct, csp, svc, app, fam, price, fn) in self.lines:
                n = fn(day, i, self.r)
                if n is None or n == 0: continue
                if isinstance(n, tuple):  # (count, explicit cost) for fees / credits
                    cnt, cost = n
                else:
                    cnt = n; cost = price * cnt * 24
                out.append(f"{day.isoformat()},{acct},{csp},{svc},{app},{fam},{price:.4f},{cnt},{cost:.4f}")
        return out

def steady(base, jitter=0.06, weekend=1.0, growth=0.0):
    def f(day, i, r):
        v = base * (1 + growth * i) * (weekend if day.weekday() >= 5 else 1.0)
        return max(1, round(v * (1 + r.uniform(-jitter, jitter))))
    return f

def after(fn_before, fn_after, when):
    w = d(when)
    def f(day, i, r):
        return fn_after(day, i, r) if day >= w else fn_before(day, i, r)
    return f

def window(fn_in, fn_out, a, b):
    a, b = d(a), d(b)
    def f(day, i, r):
        return fn_in(day, i, r) if a <= day <= b else fn_out(day, i, r)
    return f

def monthly_fee(amount, dom=1):
    def f(day, i, r):
        return (1, amount) if day.day == dom else None
    return f

def credit(amount_per_day, until=None, jitter=0.0):
    u = d(until) if until else None
    def f(day, i, r):
        if u and day >= u: return None
        return (1, -amount_per_day * (1 + r.uniform(-jitter, jitter)))
    return f

def partial_last(fn, last, frac):
    L = d(last)
    def f(day, i, r):
        v = fn(day, i, r)
        if day == L and isinstance(v, int): return max(1, round(v * frac))
        return v
    return f

def zero(day, i, r): return None

SC = []  # (name, bill, anomaly(date, acct), truth list, note)

def scen(name, note):
    def deco(fn):
        SC.append((name, fn, note)); return fn
    return deco

# ---------------------------------------------------------------- anomalies
@scen("databricks-no-autoterminate", "Azure Databricks job cluster loses auto-termination; runs 24x7")
def s1():
    A = "482910337105"; b = Bill(101, "2025-03-03", 120, [A])
    b.add(A, "Azure", "VirtualMachines", "web-portal", "D4s_v5", 0.192, steady(14, weekend=0.7))
    b.add(A, "Azure", "SQLDatabase", "web-portal", "GP_Gen5_4", 1.01, steady(2, 0.0))
    b.add(A, "Azure", "Databricks", "lakehouse-etl", "DS4_v2", 0.526, after(steady(3, 0.25, weekend=0.0), steady(19, 0.03), "2025-06-14"))
    b.add(A, "Azure", "Databricks", "lakehouse-etl", "DBU-JobsCompute", 0.30, steady(9, 0.2, weekend=0.3))
    b.add(A, "Azure", "Storage", "lakehouse-etl", "Hot_LRS", 0.021, steady(300, 0.02, growth=0.002))
    b.add(A, "Azure", "Support", "shared", "Standard", 0.0, monthly_fee(100.0))
    return b, ("2025-06-14", A), [("DS4_v2", "Instance_Family")]

@scen("cloudrun-min-instances", "Cloud Run min-instances raised from 0 to 20 for one service; CPU and memory always-allocated")
def s2():
    A = "proj-ledger-prod-7731"; b = Bill(102, "2025-01-06", 90, [A])
    for app, base in (("checkout-api", 6), ("catalog-api", 9), ("auth-api", 4)):
        bump = app == "checkout-api"
        cpu = steady(base, 0.1, weekend=0.6); mem = steady(base * 2, 0.1, weekend=0.6)
        if bump:
            cpu = after(cpu, steady(base * 5.5, 0.04), "2025-03-11"); mem = after(mem, steady(base * 11, 0.04), "2025-03-11")
        b.add(A, "GCP", "CloudRun", app, "vCPU-second", 0.0864, cpu)
        b.add(A, "GCP", "CloudRun", app, "GiB-second", 0.009, mem)
    b.add(A, "GCP", "CloudSQL", "checkout-db", "db-custom-4-16384", 0.41, steady(2, 0.0))
    b.add(A, "GCP", "CloudStorage", "assets", "Standard-Storage", 0.026, steady(120, 0.03))
    return b, ("2025-03-11", A), [("checkout-api", "Application")]

@scen("eks-extended-support", "Every EKS cluster drops out of standard support; control-plane hourly rate goes 0.10 -> 0.60")
def s3():
    A = "918273645501"; b = Bill(103, "2024-12-01", 150, [A])
    for app, n in (("orders", 1), ("search", 1), ("analytics", 2), ("platform-tools", 1)):
        b.add(A, "AWS", "EKS", app, "EKS-Hours-perCluster", 0.10, steady(n, 0.0))
        b.add(A, "AWS", "EKS", app, "EKS-ExtendedSupport-Hours", 0.50, after(zero, steady(n, 0.0), "2025-03-24"))
        b.add(A, "AWS", "EC2", app, "m6i.xlarge", 0.192, steady(8 * n + 3, 0.08, weekend=0.85))
    b.add(A, "AWS", "RDS", "orders", "db.r6g.large", 0.24, steady(2, 0.0))
    b.add(A, "AWS", "Tax", "shared", "SalesTax", 0.0, monthly_fee(412.37, 1))
    return b, ("2025-03-24", A), [("EKS-ExtendedSupport-Hours", "Instance_Family")]

@scen("public-ipv4-charge", "New per-hour charge for in-use public IPv4 addresses appears across all apps")
def s4():
    A = "330187465920"; b = Bill(104, "2023-12-01", 100, [A])
    for app, n in (("storefront", 24), ("mobile-bff", 16), ("batch-workers", 40)):
        b.add(A, "AWS", "EC2", app, "c6i.large", 0.085, steady(n, 0.07, weekend=0.8))
        b.add(A, "AWS", "VPC", app, "PublicIPv4-InUse", 0.005, after(zero, steady(n * 6, 0.02), "2024-02-01"))
        b.add(A, "AWS", "VPC", app, "TransitGateway-Attachment", 0.05, steady(1, 0.0))
    b.add(A, "AWS", "S3", "storefront", "StandardStorage", 0.023, steady(210, 0.02))
    b.add(A, "AWS", "Marketplace", "storefront", "WAF-Rules-Sub", 0.0, monthly_fee(250.0))
    return b, ("2024-02-01", A), [("PublicIPv4-InUse", "Instance_Family")]

@scen("kms-request-storm", "A deploy drops KMS data-key caching in one app; decrypt requests explode")
def s5():
    A = "560019283746"; b = Bill(105, "2025-05-01", 75, [A])
    b.add(A, "AWS", "KMS", "payments", "KMS-Requests", 0.03, after(steady(4, 0.1), steady(95, 0.08), "2025-06-19"))
    b.add(A, "AWS", "KMS", "payments", "KMS-Keys", 0.0014, steady(12, 0.0))
    b.add(A, "AWS", "KMS", "ledger", "KMS-Requests-L", 0.03, steady(3, 0.1))
    b.add(A, "AWS", "ECS", "payments", "Fargate-vCPU", 0.04, steady(60, 0.05))
    b.add(A, "AWS", "ECS", "ledger", "Fargate-vCPU-L", 0.04, steady(40, 0.05))
    b.add(A, "AWS", "DynamoDBProvisioned", "ledger", "WCU", 0.00065, steady(2000, 0.02))
    return b, ("2025-06-19", A), [("KMS-Requests", "Instance_Family")]

@scen("route53-query-flood", "Public hosted zone of one app hit by a random-subdomain query flood")
def s6():
    A = "774411002938"; b = Bill(106, "2024-07-01", 200, [A])
    b.add(A, "AWS", "Route53", "public-dns", "DNS-Queries", 0.016, after(steady(6, 0.12), steady(140, 0.15), "2024-12-02"))
    b.add(A, "AWS", "Route53", "public-dns", "HostedZones", 0.0007, steady(30, 0.0))
    b.add(A, "AWS", "Route53", "internal-dns", "Resolver-Endpoints", 0.125, steady(2, 0.0))
    b.add(A, "AWS", "EC2", "web", "t3.large", 0.0832, steady(30, 0.06, weekend=0.75))
    b.add(A, "AWS", "CloudFront", "web", "DataTransfer-Out", 0.085, steady(18, 0.1))
    return b, ("2024-12-02", A), [("DNS-Queries", "Instance_Family")]

@scen("gke-autopilot-requests", "One app's pod requests raised 4x in GKE Autopilot (all its resource SKUs)")
def s7():
    A = "acme-ml-prod-2291"; b = Bill(107, "2025-02-01", 110, [A])
    for app, c in (("recommender", 10), ("feature-store", 14), ("gateway", 6)):
        f1 = steady(c, 0.05); f2 = steady(c * 4, 0.05); f3 = steady(c * 2, 0.05)
        if app == "recommender":
            f1 = after(f1, steady(c * 4, 0.04), "2025-04-08"); f2 = after(f2, steady(c * 16, 0.04), "2025-04-08"); f3 = after(f3, steady(c * 8, 0.04), "2025-04-08")
        b.add(A, "GCP", "GKE", app, "Autopilot-vCPU", 0.0445, f1)
        b.add(A, "GCP", "GKE", app, "Autopilot-Memory", 0.0049, f2)
        b.add(A, "GCP", "GKE", app, "Autopilot-EphemeralStorage", 0.0001, f3)
    b.add(A, "GCP", "CloudSQL", "feature-store", "db-custom-8-32768", 0.82, steady(1, 0.0))
    b.add(A, "GCP", "Credits", "shared", "CommittedUseDiscount", 0.0, credit(40.0))
    return b, ("2025-04-08", A), [("recommender", "Application")]

@scen("cloudfront-price-class", "All distributions switched from PriceClass_100 to PriceClass_All; South America/India edges bill more")
def s8():
    A = "203948571620"; b = Bill(108, "2024-09-01", 120, [A])
    for app, n in (("video", 40), ("docs-site", 6), ("web", 22)):
        b.add(A, "AWS", "CloudFront", app, "DataTransfer-Out", 0.085, after(steady(n, 0.08), steady(n * 2.6, 0.08), "2024-11-20"))
        b.add(A, "AWS", "CloudFront", app, "HTTPS-Requests", 0.01, after(steady(n * 3, 0.08), steady(n * 5, 0.08), "2024-11-20"))
        b.add(A, "AWS", "S3", app, "StandardStorage-" + app, 0.023, steady(n * 5, 0.02))
    b.add(A, "AWS", "EC2", "web", "m7g.large", 0.0816, steady(20, 0.05, weekend=0.8))
    b.add(A, "AWS", "Tax", "shared", "VAT", 0.0, monthly_fee(890.0, 1))
    return b, ("2024-11-20", A), [("CloudFront", "Cloud_Service")]

@scen("efs-throughput-provisioned", "EFS file system switched from bursting to provisioned throughput")
def s9():
    A = "645500918237"; b = Bill(109, "2025-06-01", 80, [A])
    b.add(A, "AWS", "EFS", "media-share", "ProvisionedThroughput", 6.0, after(zero, steady(1, 0.0), "2025-07-17"))
    b.add(A, "AWS", "EFS", "media-share", "Standard-Storage", 0.0004, steady(2400, 0.01, growth=0.001))
    b.add(A, "AWS", "EFS", "ci-cache", "Standard-Storage-CI", 0.0004, steady(800, 0.05))
    b.add(A, "AWS", "EC2", "media-share", "r6i.large", 0.126, steady(6, 0.0))
    b.add(A, "AWS", "EC2", "ci-cache", "c7i.2xlarge", 0.357, steady(10, 0.3, weekend=0.2))
    return b, ("2025-07-17", A), [("ProvisionedThroughput", "Instance_Family")]

@scen("synapse-pool-never-paused", "Synapse dedicated SQL pool's nightly/weekend pause automation breaks")
def s10():
    A = "a1f3c9e2-55b0-4c1d-9e77-0c2b8d41a6f0"; b = Bill(110, "2025-01-01", 150, [A])
    def paused(day, i, r):
        return 0 if day.weekday() >= 5 else 1
    b.add(A, "Azure", "SynapseAnalytics", "finance-dw", "DW1000c", 4.0 / 2.4, after(paused, steady(2.4, 0.0), "2025-04-12"))
    b.add(A, "Azure", "SynapseAnalytics", "finance-dw", "Serverless-TB", 0.21, steady(6, 0.3, weekend=0.1))
    b.add(A, "Azure", "VirtualMachines", "erp", "E8s_v5", 0.504, steady(6, 0.0))
    b.add(A, "Azure", "Storage", "erp", "Premium_SSD_P30", 0.183, steady(12, 0.0))
    b.add(A, "Azure", "Marketplace", "erp", "SAP-License", 0.0, monthly_fee(3100.0, 1))
    return b, ("2025-04-12", A), [("DW1000c", "Instance_Family")]

@scen("trial-credit-exhausted", "Second provider's free-trial credit runs out; its usage was netted to ~0 before")
def s11():
    A = "771020394857"; b = Bill(111, "2025-02-10", 95, [A])
    b.add(A, "AWS", "EC2", "core", "m6i.2xlarge", 0.384, steady(12, 0.04, weekend=0.9))
    b.add(A, "AWS", "RDS", "core", "db.m6g.xlarge", 0.34, steady(2, 0.0))
    b.add(A, "AWS", "S3", "core", "StandardStorage", 0.023, steady(400, 0.02))
    b.add(A, "OCI", "Compute", "pilot-ai", "VM.Standard.E5.Flex", 0.03, steady(150, 0.05))
    b.add(A, "OCI", "ObjectStorage", "pilot-ai", "Standard-Object", 0.0255, steady(90, 0.02))
    def trial(day, i, r):
        if day >= d("2025-04-22"): return None
        # credit nets the OCI usage to zero
        return (1, -(0.03 * 150 * 24 + 0.0255 * 90 * 24))
    b.add(A, "OCI", "Credits", "pilot-ai", "FreeTrial-Credit", 0.0, trial)
    b.add(A, "OCI", "Credits", "pilot-ai", "Support-Rewards-Credit", 0.0, credit(6.5))
    return b, ("2025-04-22", A), [("FreeTrial-Credit", "Instance_Family")]

@scen("second-account-lambda-pc", "Provisioned concurrency left on for a Lambda in the staging account (2-account bill)")
def s12():
    P = "119922883374"; S = "119922883375"; b = Bill(112, "2024-10-01", 140, [P, S])
    b.add(P, "AWS", "Lambda", "image-resize", "Lambda-GB-Second", 0.0000166667, steady(90000, 0.1, weekend=0.7))
    b.add(P, "AWS", "EC2", "api", "m6i.large", 0.096, steady(40, 0.05))
    b.add(S, "AWS", "Lambda", "image-resize-stg", "Lambda-Provisioned-Concurrency", 0.0000041667, after(zero, steady(600000, 0.0), "2025-01-13"))
    b.add(S, "AWS", "Lambda", "image-resize-stg", "Lambda-GB-Second-stg", 0.0000166667, steady(3000, 0.3, weekend=0.1))
    b.add(S, "AWS", "EC2", "api-stg", "t3.medium", 0.0416, steady(6, 0.1, weekend=0.5))
    return b, ("2025-01-13", S), [("Lambda-Provisioned-Concurrency", "Instance_Family")]

@scen("vpc-flowlogs-enabled", "Security team enables VPC flow logs (all traffic, 1-min) on every VPC")
def s13():
    A = "402918573610"; b = Bill(113, "2025-03-01", 70, [A])
    for app, n in (("checkout", 30), ("search", 25), ("data-pipe", 50)):
        b.add(A, "AWS", "EC2", app, "m6a.xlarge", 0.1728, steady(n // 3, 0.05))
        b.add(A, "AWS", "VPCFlowLogs", app, "FlowLogs-Ingest-" + app, 0.5, after(zero, steady(n * 0.9, 0.1), "2025-04-15"))
    b.add(A, "AWS", "S3", "data-pipe", "StandardStorage", 0.023, steady(600, 0.01, growth=0.003))
    return b, ("2025-04-15", A), [("VPCFlowLogs", "Cloud_Service")]

@scen("cloudsql-ha-one-instance", "Cloud SQL instance of one app switched to HA (regional), doubling its vCPU/RAM SKU")
def s14():
    A = "retail-core-4410"; b = Bill(114, "2024-11-01", 60, [A])
    # HA (regional) is billed at twice the zonal rate under the same family name: only the price moves
    b.add(A, "GCP", "CloudSQL", "inventory", "db-custom-16-65536", 1.64, after(steady(1, 0.0), zero, "2024-12-09"))
    b.add(A, "GCP", "CloudSQL", "inventory", "db-custom-16-65536", 3.28, after(zero, steady(1, 0.0), "2024-12-09"))
    b.add(A, "GCP", "CloudSQL", "inventory", "SSD-Storage", 0.0002, steady(2000, 0.0, growth=0.002))
    b.add(A, "GCP", "CloudSQL", "orders", "db-custom-8-32768", 0.82, steady(1, 0.0))
    b.add(A, "GCP", "ComputeEngine", "orders", "n2-standard-8", 0.388, steady(14, 0.06, weekend=0.8))
    return b, ("2024-12-09", A), [("db-custom-16-65536", "Instance_Family")]

@scen("appservice-scaleout-one-app", "App Service plan of one app scaled out 3->12 instances and stays there")
def s15():
    A = "9c2e7a11-3b4d-4f00-8a1e-77de10c5b2aa"; b = Bill(115, "2025-04-01", 200, [A])
    b.add(A, "Azure", "AppService", "claims-portal", "P2v3", 0.40, after(steady(3, 0.0), steady(12, 0.0), "2025-08-26"))
    b.add(A, "Azure", "AppService", "claims-portal-stg", "P1v3", 0.20, steady(1, 0.0))
    b.add(A, "Azure", "AppService", "broker-api", "P2v3-b", 0.40, steady(4, 0.0))
    b.add(A, "Azure", "CosmosDB", "claims-portal", "RU-100", 0.008, after(steady(400, 0.1, weekend=0.5), steady(1300, 0.08, weekend=0.6), "2025-08-26"))
    b.add(A, "Azure", "Reservations", "broker-api", "RI-P2v3-1yr", 0.0, monthly_fee(2100.0, 1))
    return b, ("2025-08-26", A), [("claims-portal", "Application")]

@scen("secrets-manager-api-loop", "A sidecar fetches a secret on every request instead of caching; API calls soar in one app")
def s16():
    A = "887766554433"; b = Bill(116, "2025-08-01", 61, [A])
    b.add(A, "AWS", "SecretsManager", "notifications", "API-Requests", 0.05, after(steady(2, 0.2), steady(48, 0.1), "2025-09-18"))
    b.add(A, "AWS", "SecretsManager", "notifications", "Secrets", 0.00055, steady(40, 0.0))
    b.add(A, "AWS", "SecretsManager", "billing", "API-Requests-billing", 0.05, steady(2, 0.2))
    b.add(A, "AWS", "EC2", "notifications", "c7g.large", 0.0725, steady(18, 0.06, weekend=0.6))
    b.add(A, "AWS", "EC2", "billing", "c7g.xlarge", 0.145, steady(6, 0.0))
    b.add(A, "AWS", "Tax", "shared", "SalesTax", 0.0, monthly_fee(183.2, 1))
    return b, ("2025-09-18", A), [("API-Requests", "Instance_Family")]

@scen("gcp-stack-duplicated", "Terraform count bug applies the whole GCP stack twice (every GCP service doubles); AWS side untouched")
def s17():
    A = "556677889900"; b = Bill(117, "2024-03-04", 130, [A])
    b.add(A, "AWS", "EC2", "core-api", "m6i.xlarge", 0.192, steady(16, 0.05, weekend=0.85))
    b.add(A, "AWS", "RDS", "core-api", "db.r6g.xlarge", 0.48, steady(2, 0.0))
    b.add(A, "AWS", "S3", "core-api", "StandardStorage", 0.023, steady(300, 0.02, growth=0.002))
    W = "2024-06-18"
    b.add(A, "GCP", "ComputeEngine", "ml-scoring", "n2-standard-8", 0.388, after(steady(4, 0.05), steady(8, 0.05), W))
    b.add(A, "GCP", "CloudSQL", "ml-scoring", "db-custom-4-16384", 0.41, after(steady(1, 0.0), steady(2, 0.0), W))
    b.add(A, "GCP", "Memorystore", "ml-cache", "M2-standard", 0.049, after(steady(13, 0.0), steady(26, 0.0), W))
    b.add(A, "GCP", "LoadBalancing", "ml-scoring", "ForwardingRule", 0.025, after(steady(5, 0.0), steady(10, 0.0), W))
    b.add(A, "AWS", "Tax", "shared", "SalesTax", 0.0, monthly_fee(233.0, 1))
    return b, (W, A), [("GCP", "CSP")]

# ---------------------------------------------------------------- no anomaly
@scen("none-redshift-reserved-start", "NORMAL: Redshift no-upfront reserved nodes start on the 1st; on-demand nodes drop to 0, cost falls")
def n1():
    A = "312098475612"; b = Bill(201, "2025-01-01", 120, [A])
    b.add(A, "AWS", "Redshift", "bi-warehouse", "ra3.4xlarge-OnDemand", 3.26, after(steady(4, 0.0), zero, "2025-03-01"))
    b.add(A, "AWS", "Redshift", "bi-warehouse", "ra3.4xlarge-Reserved", 1.96, after(zero, steady(4, 0.0), "2025-03-01"))
    b.add(A, "AWS", "Redshift", "bi-warehouse", "Managed-Storage", 0.001, steady(900, 0.01, growth=0.002))
    b.add(A, "AWS", "EC2", "etl", "m6i.xlarge", 0.192, steady(10, 0.1, weekend=0.4))
    b.add(A, "AWS", "Support", "shared", "Business", 0.0, monthly_fee(650.0, 1))
    return b, ("2025-03-01", A), []

@scen("none-weekly-batch-monthly-fees", "NORMAL: strong weekday/weekend cycle, month-start licence+support+tax, partial last day")
def n2():
    A = "650013289477"; b = Bill(202, "2024-05-01", 183, [A])
    last = (d("2024-05-01") + dt.timedelta(days=182)).isoformat()
    b.add(A, "AWS", "EC2", "reporting", "c6i.4xlarge", 0.68, partial_last(steady(20, 0.05, weekend=0.1), last, 0.35))
    b.add(A, "AWS", "EC2", "web", "m6i.large", 0.096, partial_last(steady(30, 0.04, weekend=0.8), last, 0.35))
    b.add(A, "AWS", "Marketplace", "reporting", "Tableau-Server", 0.0, monthly_fee(4200.0, 1))
    b.add(A, "AWS", "Support", "shared", "Enterprise-OnRamp", 0.0, monthly_fee(5500.0, 1))
    b.add(A, "AWS", "Tax", "shared", "SalesTax", 0.0, monthly_fee(1320.0, 1))
    return b, (last, A), []

@scen("none-planned-migration", "NORMAL: planned VM->AKS migration runs both stacks for 14 days then old one is removed")
def n3():
    A = "0d9b6e44-1f2a-4c88-b3c1-5a7e9d02f311"; b = Bill(203, "2025-02-01", 120, [A])
    b.add(A, "Azure", "VirtualMachines", "policy-engine", "D8s_v5", 0.384, after(steady(10, 0.03), zero, "2025-04-15"))
    b.add(A, "Azure", "AKS", "policy-engine", "D8s_v5-nodepool", 0.384, after(zero, steady(10, 0.03), "2025-04-01"))
    b.add(A, "Azure", "VirtualMachines", "intranet", "B4ms", 0.166, steady(5, 0.0))
    b.add(A, "Azure", "Storage", "policy-engine", "Premium_SSD_P20", 0.10, steady(10, 0.0))
    return b, ("2025-04-01", A), []

@scen("none-growth-and-credits", "NORMAL: steady 0.4%/day organic growth, a promotional credit line, multiple providers")
def n4():
    A = "240517733918"; b = Bill(204, "2025-01-15", 300, [A])
    b.add(A, "GCP", "ComputeEngine", "game-backend", "n2d-standard-4", 0.169, steady(30, 0.05, weekend=1.3, growth=0.004))
    b.add(A, "GCP", "CloudSpanner", "game-backend", "ProcessingUnits-100", 0.09, steady(20, 0.0, growth=0.002))
    b.add(A, "AWS", "S3", "game-assets", "StandardStorage", 0.023, steady(500, 0.02, growth=0.002))
    b.add(A, "GCP", "Credits", "game-backend", "Startup-Program", 0.0, credit(120.0, jitter=0.0))
    return b, ("2025-10-01", A), []

@scen("none-monday-report-cluster", "NORMAL: scheduled 24h scale-up of a reporting cluster every Monday; weekend-heavy shop")
def n5():
    A = "998877001122"; b = Bill(205, "2024-08-01", 65, [A])
    def monday(day, i, r): return 24 if day.weekday() == 0 else 8
    b.add(A, "AWS", "EMR", "weekly-report", "r6g.2xlarge", 0.4032, monday)
    b.add(A, "AWS", "EC2", "shop", "m7i.large", 0.1008, steady(22, 0.08, weekend=1.2))
    b.add(A, "AWS", "ElastiCache", "shop", "cache.r7g.large", 0.219, steady(3, 0.0))
    return b, ("2024-09-30", A), []

def main():
    out = sys.argv[1]; os.makedirs(out, exist_ok=True)
    for k, (name, fn, note) in enumerate(SC, 1):
        b, (date, acct), truth = fn()
        sd = os.path.join(out, f"Scenario-{k}"); os.makedirs(sd, exist_ok=True)
        with open(os.path.join(sd, "data.csv"), "w", newline="\n") as fh:
            fh.write(HDR + "\n" + "\n".join(b.rows()) + "\n")
        with open(os.path.join(sd, "anomaly.json"), "w") as fh:
            fh.write(json.dumps({"date": date, "account_id": acct}) + "\n")
        with open(os.path.join(sd, "ground_truth.yaml"), "w") as fh:
            if truth:
                fh.write("resource:\n" + "".join(f"- name: {n}\n  type: {t}\n" for n, t in truth))
            else:
                fh.write("resource: []\n")
    print(f"wrote {len(SC)} scenario(s) under {out}")

if __name__ == "__main__":
    main()
