#!/usr/bin/env python3
"""finops-set13: held-out FOCUS-like billing scenarios. stdlib only, deterministic.
usage: python gen.py OUT"""
import csv, io, json, os, random, sys, datetime as dt

COLS = ["AvailabilityZone","BilledCost","BillingAccountId","BillingAccountName","BillingCurrency",
"BillingPeriodEnd","BillingPeriodStart","ChargeCategory","ChargeClass","ChargeDescription",
"ChargeFrequency","ChargePeriodEnd","ChargePeriodStart","CommitmentDiscountCategory",
"CommitmentDiscountId","CommitmentDiscountName","CommitmentDiscountStatus","CommitmentDiscountType",
"ConsumedQuantity","ConsumedUnit","ContractedCost","ContractedUnitPrice","EffectiveCost",
"InvoiceIssuerName","ListCost","ListUnitPrice","PricingCategory","PricingQuantity","PricingUnit",
"ProviderName","PublisherName","RegionId","RegionName","ResourceId","ResourceName","ResourceType",
"ServiceCategory","Id","ServiceName","SkuId","SkuPriceId","SubAccountId","SubAccountName","Tags"]

REGN = {"us-east-1":"US East (N. Virginia)","us-west-2":"US West (Oregon)","eu-west-1":"Europe (Ireland)",
"eu-central-1":"Europe (Frankfurt)","ap-southeast-2":"Asia Pacific (Sydney)","ap-south-1":"Asia Pacific (Mumbai)",
"europe-west4":"Netherlands","us-central1":"Iowa","asia-northeast1":"Tokyo","westeurope":"West Europe",
"eastus2":"East US 2","uksouth":"UK South","sa-east-1":"South America (Sao Paulo)","global":"Global"}
PROV = {"AWS":"Amazon Web Services, Inc.","Google Cloud":"Google LLC","Microsoft":"Microsoft Corporation",
"Fastly":"Fastly, Inc.","Datadog":"Datadog, Inc."}

# service catalogue: name -> (category, unit, unit price)
SVC = {
 "Amazon Elastic Compute Cloud":("Compute","Hrs",0.192),
 "Amazon Virtual Private Cloud":("Networking","GB",0.045),      # NAT gateway processing
 "AWS Lambda":("Compute","Requests",0.0000002),
 "Amazon Simple Storage Service":("Storage","GB-Mo",0.023),
 "Amazon Elastic Block Store":("Storage","GB-Mo",0.05),
 "Amazon Relational Database Service":("Databases","Hrs",0.48),
 "Amazon CloudFront":("Networking","GB",0.085),
 "Amazon CloudWatch":("Management and Governance","GB",0.50),
 "Amazon Redshift":("Analytics","Hrs",1.086),
 "Amazon Athena":("Analytics","TB",5.0),
 "AWS Support (Business)":("Management and Governance","Fee",1.0),
 "Amazon Elastic Kubernetes Service":("Containers","Hrs",0.10),
 "Amazon DynamoDB":("Databases","RCU",0.00013),
 "Compute Engine":("Compute","Hours",0.134),
 "Cloud Storage":("Storage","GiB-Mo",0.020),
 "BigQuery":("Analytics","TiB",6.25),
 "Cloud Functions":("Compute","Invocations",0.0000004),
 "Cloud Logging":("Management and Governance","GiB",0.50),
 "Cloud CDN":("Networking","GiB",0.08),
 "Cloud NAT":("Networking","GiB",0.045),
 "Cloud SQL":("Databases","Hours",0.41),
 "Virtual Machines":("Compute","Hours",0.166),
 "Storage":("Storage","GB/Month",0.0184),
 "Azure Monitor":("Management and Governance","GB",2.30),
 "Azure Synapse Analytics":("Analytics","TB",5.0),
 "Azure SQL Database":("Databases","vCore Hours",0.505),
 "Azure Functions":("Compute","Executions",0.0000002),
 "Fastly CDN":("Networking","GB",0.12),
 "Datadog Log Management":("Management and Governance","GB",0.10),
}

def h(s):
    x = 0
    for c in s.encode(): x = (x * 131 + c) % (1 << 61)
    return x

def fmt(v): return "%.10f" % v

class Res:
    def __init__(s, prov, svc, region, app, rid, base, weekly=(1,1,1,1,1,1,1), sub="prod", noise=0.04,
                 start=None, end=None, tagkey="application", env="prod", kind="usage", growth=0.0):
        s.__dict__.update(locals()); del s.__dict__["s"]

def tagjson(key, app, env, bu):
    if app is None: return "NULL"
    return json.dumps({key: app, "environment": env, "business_unit": bu})

def build(sc):
    """sc: dict with start,days,hourly,account,currency,resources,events(list of fn(day_i,res)->mult),
    extras(list of callables producing rows)"""
    rnd = random.Random(h(sc["id"]))
    rows = []
    start = dt.date.fromisoformat(sc["start"]); days = sc["days"]
    acct, acctname, cur = sc["account"], sc["account_name"], sc.get("currency","USD")
    fx = sc.get("fx", 1.0)
    rename = sc.get("tag_rename")  # (day_index, old, new)
    partial = sc.get("partial_last_day")  # fraction of last day present
    hourly = sc.get("hourly", False)
    rid_n = [0]
    def emit(day, hour, r, cost, qty, cat="Usage", desc=None, freq="Usage-Based", extra=None):
        d0 = dt.datetime.combine(day, dt.time(hour if hour is not None else 0))
        d1 = d0 + (dt.timedelta(hours=1) if hour is not None else dt.timedelta(days=1))
        bps = day.replace(day=1); bpe = (bps + dt.timedelta(days=32)).replace(day=1)
        svcinfo = SVC.get(r.svc, ("Other","Units",1.0))
        tk = r.tagkey
        if rename and (day - start).days >= rename[0] and tk == rename[1]: tk = rename[2]
        rid_n[0] += 1
        row = {c:"NULL" for c in COLS}
        row.update({"BilledCost":fmt(cost),"BillingAccountId":acct,"BillingAccountName":acctname,
          "BillingCurrency":cur,"BillingPeriodEnd":bpe.isoformat()+" 00:00:00","BillingPeriodStart":bps.isoformat()+" 00:00:00",
          "ChargeCategory":cat,"ChargeDescription":desc or ("%s %s usage in %s" % (r.svc, svcinfo[1], r.region)),
          "ChargeFrequency":freq,"ChargePeriodStart":d0.strftime("%Y-%m-%d %H:%M:%S"),"ChargePeriodEnd":d1.strftime("%Y-%m-%d %H:%M:%S"),
          "ConsumedQuantity":fmt(qty),"ConsumedUnit":svcinfo[1],"EffectiveCost":fmt(cost),"ListCost":fmt(cost*1.0),
          "ListUnitPrice":"%g" % (svcinfo[2]*fx),"PricingCategory":"Standard","PricingQuantity":fmt(qty),"PricingUnit":svcinfo[1],
          "ProviderName":r.prov,"PublisherName":PROV.get(r.prov, r.prov),"InvoiceIssuerName":PROV.get(r.prov, r.prov),
          "RegionId":r.region,"RegionName":REGN.get(r.region, r.region),"ResourceId":r.rid,
          "ResourceName":r.rid.rsplit("/",1)[-1].rsplit(":",1)[-1],"ServiceCategory":svcinfo[0],"Id":str(100000+rid_n[0]),
          "ServiceName":r.svc,"SkuId":"SKU%08X" % (h(r.svc+r.region) % (1<<32)),"SubAccountId":str(h(r.sub)%10**12).zfill(12),
          "SubAccountName":r.sub,"Tags":tagjson(tk, r.app, r.env, sc.get("bu","Platform"))})
        if extra: row.update(extra)
        rows.append(row)
    for di in range(days):
        day = start + dt.timedelta(days=di)
        frac = partial if (partial and di == days-1) else 1.0
        for r in sc["resources"]:
            if r.start is not None and di < r.start: continue
            if r.end is not None and di >= r.end: continue
            if r.kind != "usage": continue
            m = r.weekly[day.weekday()] * (1 + r.growth * di / days)
            for ev in sc.get("events", []): m *= ev(di, day, r)
            info = SVC.get(r.svc, ("Other","Units",1.0))
            if hourly:
                hours = int(24*frac)
                for hr in range(hours):
                    shape = 0.7 + 0.6 * (1 if 8 <= hr <= 20 else 0)
                    c = r.base/24 * m * shape / 1.05 * fx * (1 + rnd.uniform(-r.noise, r.noise))
                    emit(day, hr, r, round(c, 6), c/fx/info[2])
            else:
                c = r.base * m * frac * fx * (1 + rnd.uniform(-r.noise, r.noise))
                emit(day, None, r, round(c, 6), c/fx/info[2])
        for x in sc.get("extras", []): x(di, day, emit, rnd, rows)
    return rows

def write(out, sc):
    d = os.path.join(out, sc["id"]); os.makedirs(d, exist_ok=True)
    rows = build(sc)
    buf = io.StringIO(); w = csv.DictWriter(buf, fieldnames=COLS, lineterminator="\n"); w.writeheader()
    for r in rows: w.writerow(r)
    open(os.path.join(d, "focus.csv"), "w", newline="").write(buf.getvalue())
    start = dt.date.fromisoformat(sc["start"])
    adate = (start + dt.timedelta(days=sc["anomaly_day"])).isoformat()
    open(os.path.join(d, "anomaly.json"), "w").write(json.dumps({"date": adate, "account_id": sc["account"]}) + "\n")
    gt = sc["truth"]
    if gt:
        y = "resource:\n" + "".join("- name: %s\n  type: %s\n" % (json.dumps(n), t) for n, t in gt)
    else:
        y = "resource: []\n"
    open(os.path.join(d, "ground_truth.yaml"), "w").write(y)

# ---------- helpers for extras ----------
def month_fee(res, amount, desc, cat="Purchase", freq="One-Time"):
    def f(di, day, emit, rnd, rows):
        if day.day == 1: emit(day, 0 if False else None, res, amount, 1, cat=cat, desc=desc, freq=freq)
    return f
def amortised(res, daily, desc, cid):
    def f(di, day, emit, rnd, rows):
        emit(day, None, res, daily, 24, cat="Usage", desc=desc, freq="Recurring",
             extra={"CommitmentDiscountId":cid,"CommitmentDiscountType":"Reserved Instance",
                    "CommitmentDiscountCategory":"Usage","CommitmentDiscountStatus":"Used","PricingCategory":"Committed"})
    return f
def tax(res, rate, desc="Sales tax"):
    def f(di, day, emit, rnd, rows):
        if day.day == 1 and di > 0:
            # tax for the previous month, booked on the 1st
            emit(day, None, res, rate * res.base * 30, 1, cat="Tax", desc=desc, freq="One-Time")
    return f
def credit(res, amount, every_day_of_month, desc):
    def f(di, day, emit, rnd, rows):
        if day.day == every_day_of_month: emit(day, None, res, -amount, 1, cat="Credit", desc=desc, freq="One-Time")
    return f

def spike(target, d0, d1, mult):
    """multiply resources matching target(r) on day indexes d0..d1-1"""
    return lambda di, day, r: mult if (d0 <= di < d1 and target(r)) else 1.0

WK = (1,1,1,1,1,0.55,0.5)      # weekday-heavy
WK2 = (1,1.02,1,1,0.95,0.8,0.78)

def aws_arn(kind, region, acct, name): return "arn:aws:%s:%s:%s:%s" % (kind, region, acct, name)

SCEN = []
def S(**k): SCEN.append(k)

# ===== build scenarios =====
def r_aws(acct, svc, region, app, name, base, **k):
    kind = {"Amazon Elastic Compute Cloud":"ec2","Amazon Virtual Private Cloud":"ec2","AWS Lambda":"lambda",
      "Amazon Simple Storage Service":"s3","Amazon Elastic Block Store":"ec2","Amazon Relational Database Service":"rds",
      "Amazon CloudFront":"cloudfront","Amazon CloudWatch":"logs","Amazon Redshift":"redshift","Amazon Athena":"athena",
      "Amazon Elastic Kubernetes Service":"eks","Amazon DynamoDB":"dynamodb"}.get(svc, "aws")
    return Res("AWS", svc, region, app, aws_arn(kind, region, acct, name), base, **k)

# 1 NAT gateway egress spike, one region -> single NAT resource (resource level)
A = "411122233344"
res = [r_aws(A,"Amazon Elastic Compute Cloud","us-east-1","checkout","instance/i-0a1b2c3d4e5f60711",310,weekly=WK2),
       r_aws(A,"Amazon Elastic Compute Cloud","eu-west-1","checkout","instance/i-0c7d2e9f11aa20b03",205,weekly=WK2),
       r_aws(A,"Amazon Virtual Private Cloud","us-east-1","checkout","natgateway/nat-0f3e1d2c4b5a69788",42),
       r_aws(A,"Amazon Virtual Private Cloud","eu-west-1","checkout","natgateway/nat-09a8b7c6d5e4f3021",38),
       r_aws(A,"Amazon Virtual Private Cloud","us-east-1","search","natgateway/nat-0aa11bb22cc33dd44",29),
       r_aws(A,"Amazon Simple Storage Service","us-east-1","search","bucket/search-index-snapshots",64),
       r_aws(A,"Amazon Relational Database Service","us-east-1","checkout","db/checkout-pg-main",270),
       r_aws(A,"Amazon CloudWatch","us-east-1",None,"log-group/aws-vpc-flow",18)]
S(id="Scenario-1", start="2025-03-03", days=120, account=A, account_name="Corvid Retail", resources=res,
  events=[spike(lambda r: r.rid.endswith("nat-09a8b7c6d5e4f3021"), 97, 99, 9.5)], anomaly_day=97,
  truth=[(res[3].rid, "ResourceId")])

# ---- 2 runaway Lambda retry loop (resource) ; hourly, EUR
B = "520098761234"
res2 = [r_aws(B,"AWS Lambda","eu-central-1","orders","function:orders-webhook-dispatch",14),
        r_aws(B,"AWS Lambda","eu-central-1","orders","function:orders-invoice-pdf",9),
        r_aws(B,"AWS Lambda","eu-central-1","billing","function:billing-reconcile",11),
        r_aws(B,"Amazon DynamoDB","eu-central-1","orders","table/orders-events",33),
        r_aws(B,"Amazon CloudWatch","eu-central-1","orders","log-group/lambda-orders",12),
        r_aws(B,"Amazon Elastic Kubernetes Service","eu-central-1","platform","cluster/core-eks",58)]
S(id="Scenario-2", start="2025-06-01", days=75, hourly=True, currency="EUR", fx=0.92, account=B,
  account_name="Hallo Logistik GmbH", resources=res2,
  events=[spike(lambda r: r.rid.endswith("orders-webhook-dispatch"), 70, 72, 14.0)], anomaly_day=70,
  truth=[(res2[0].rid, "ResourceId")])

# ---- 3 no anomaly: month-start support fee + tax + RI amortisation + weekly pattern
C = "630011224455"
res3 = [r_aws(C,"Amazon Elastic Compute Cloud","us-west-2","catalog","instance/i-0be1c2d3e4f5a6b7c",220,weekly=WK),
        r_aws(C,"Amazon Relational Database Service","us-west-2","catalog","db/catalog-mysql",150),
        r_aws(C,"Amazon Simple Storage Service","us-west-2","media","bucket/media-originals",80,growth=0.15),
        r_aws(C,"Amazon CloudFront","global","media","distribution/E2QX7ABCD0",95,weekly=WK2),
        Res("AWS","AWS Support (Business)","global",None,"support/business-"+C,0,kind="fee")]
S(id="Scenario-3", start="2024-11-01", days=180, account=C, account_name="Pinecrest Media", resources=res3,
  extras=[month_fee(res3[4], 1450.0, "AWS Support (Business) - 10% of monthly usage", cat="Purchase"),
          tax(Res("AWS","Tax","us-west-2",None,"tax/us-wa",560), 0.096)],
  anomaly_day=152, truth=[])

def r_gcp(svc, region, app, name, base, proj="shop-prod-4471", **k):
    return Res("Google Cloud", svc, region, app, "//%s.googleapis.com/projects/%s/%s" % (
        {"Compute Engine":"compute","Cloud Storage":"storage","BigQuery":"bigquery","Cloud Functions":"cloudfunctions",
         "Cloud Logging":"logging","Cloud CDN":"compute","Cloud NAT":"compute","Cloud SQL":"sqladmin"}.get(svc,"cloud"),
        proj, name), base, sub=proj, **k)
def r_az(svc, region, app, name, base, subid="6f1c2d3e-8a9b-4c5d-9e0f-1a2b3c4d5e6f", rg="rg-prod", **k):
    prov = {"Virtual Machines":"Microsoft.Compute/virtualMachines","Storage":"Microsoft.Storage/storageAccounts",
            "Azure Monitor":"Microsoft.OperationalInsights/workspaces","Azure Synapse Analytics":"Microsoft.Synapse/workspaces",
            "Azure SQL Database":"Microsoft.Sql/servers","Azure Functions":"Microsoft.Web/sites"}[svc]
    return Res("Microsoft", svc, region, app, "/subscriptions/%s/resourceGroups/%s/providers/%s/%s" % (subid, rg, prov, name),
               base, sub="sub-"+rg, **k)
def r_ext(prov, svc, app, name, base, **k):
    return Res(prov, svc, "global", app, name, base, **k)
def after(d0, target, mult):
    return lambda di, day, r: mult if (di >= d0 and target(r)) else 1.0
def ramp(d0, target, per_day):
    return lambda di, day, r: (1 + per_day * (di - d0 + 1)) if (di >= d0 and target(r)) else 1.0
def refund(res, di0, amount, desc):
    def f(di, day, emit, rnd, rows):
        if di == di0: emit(day, None, res, -amount, 1, cat="Credit", desc=desc, freq="One-Time")
    return f
def pct_fee(res, pct, desc):
    """support fee on the 1st = pct of previous month's usage (computed from rows so far)"""
    def f(di, day, emit, rnd, rows):
        if day.day != 1: return
        pm = (day - dt.timedelta(days=1)).strftime("%Y-%m")
        tot = sum(float(r["BilledCost"]) for r in rows if r["ChargeCategory"] == "Usage" and r["ChargePeriodStart"].startswith(pm))
        if tot > 0: emit(day, None, res, round(tot * pct, 2), 1, cat="Purchase", desc=desc, freq="Recurring")
    return f
def marketplace(res, amount, desc, publisher):
    def f(di, day, emit, rnd, rows):
        if day.day == 1: emit(day, None, res, amount, 1, cat="Purchase", desc=desc, freq="Recurring",
                              extra={"PublisherName": publisher})
    return f
AWSX = lambda r: r.prov == "AWS"

# ---- 4 provider-wide: AWS Reserved Instances expire (amortised RI rows stop, on-demand rates on all AWS usage)
D = "700321654987"
res4 = [r_aws(D,"Amazon Elastic Compute Cloud","us-east-1","ledger","instance/i-0d1e2f3a4b5c6d7e8",120,weekly=WK2),
        r_aws(D,"Amazon Elastic Compute Cloud","us-west-2","ledger","instance/i-0e9f8a7b6c5d4e3f2",95),
        r_aws(D,"Amazon Relational Database Service","us-east-1","ledger","db/ledger-aurora",88),
        r_aws(D,"Amazon Simple Storage Service","us-east-1","archive","bucket/ledger-archive",40,growth=0.05),
        r_gcp("Compute Engine","europe-west4","ledger","zones/europe-west4-a/instances/ledger-eu-1",140),
        r_gcp("BigQuery","europe-west4","reporting","datasets/finance_mart",75,weekly=WK),
        r_ext("Fastly","Fastly CDN","web","fastly:service/3xQ9kPzLmN0wRt",55,weekly=WK2)]
ri = Res("AWS","Amazon Elastic Compute Cloud","us-east-1","ledger","arn:aws:ec2:us-east-1:%s:reserved-instances/ri-7781" % D,0,kind="fee")
def ri_rows(di, day, emit, rnd, rows):
    if di < 140: emit(day, None, ri, 310.0, 72, cat="Usage", desc="Reserved Instance amortized fee m6i.2xlarge x3 (1yr, all upfront)",
                      freq="Recurring", extra={"CommitmentDiscountId":"ri-7781","CommitmentDiscountType":"Reserved Instance",
                      "CommitmentDiscountCategory":"Usage","CommitmentDiscountStatus":"Used","PricingCategory":"Committed"})
S(id="Scenario-4", start="2024-07-15", days=170, account=D, account_name="Arbor Finance", resources=res4,
  events=[after(140, AWSX, 4.2)], extras=[ri_rows], anomaly_day=140, truth=[("AWS","ProviderName")])

# ---- 5 service: EBS snapshot lifecycle broken -> EBS snapshot storage climbs in every region
E = "811234509876"
res5 = [r_aws(E,"Amazon Elastic Block Store","us-east-1","payments","snapshot/snap-0a9b8c7d6e5f40312",36),
        r_aws(E,"Amazon Elastic Block Store","us-east-1","risk","snapshot/snap-0123fedcba9876543",22),
        r_aws(E,"Amazon Elastic Block Store","eu-west-1","payments","snapshot/snap-0f0e0d0c0b0a09080",27),
        r_aws(E,"Amazon Elastic Compute Cloud","us-east-1","payments","instance/i-0aa0bb0cc0dd0ee0f",260,weekly=WK2),
        r_aws(E,"Amazon Elastic Compute Cloud","eu-west-1","risk","instance/i-0ff1ee2dd3cc4bb5a",180),
        r_aws(E,"Amazon Simple Storage Service","us-east-1","risk","bucket/risk-models",52),
        r_aws(E,"Amazon Relational Database Service","eu-west-1","payments","db/payments-eu",140)]
S(id="Scenario-5", start="2025-01-06", days=210, account=E, account_name="Quillon Pay", resources=res5,
  events=[ramp(188, lambda r: r.svc == "Amazon Elastic Block Store", 0.45)],
  extras=[tax(Res("AWS","Tax","eu-west-1",None,"tax/ie-vat",400), 0.23, "VAT")],
  anomaly_day=188, truth=[("Amazon Elastic Block Store","ServiceName")])

# ---- 6 category Databases: backup retention raised org-wide (RDS + DynamoDB)
F = "912340987123"
res6 = [r_aws(F,"Amazon Relational Database Service","us-east-1","crm","db/crm-postgres",160),
        r_aws(F,"Amazon Relational Database Service","us-west-2","analytics","db/analytics-replica",90),
        r_aws(F,"Amazon DynamoDB","us-east-1","crm","table/crm-sessions",45,weekly=WK2),
        r_aws(F,"Amazon Elastic Compute Cloud","us-east-1","crm","instance/i-0123abcd4567ef890",240,weekly=WK),
        r_aws(F,"Amazon Simple Storage Service","us-east-1","analytics","bucket/analytics-lake",110,growth=0.1),
        r_aws(F,"Amazon Athena","us-east-1","analytics","workgroup/primary",30,weekly=WK),
        r_aws(F,"Amazon CloudFront","global","crm","distribution/E1CRMWEB",25)]
S(id="Scenario-6", start="2025-02-01", days=90, account=F, account_name="Northwind Health", resources=res6,
  events=[after(77, lambda r: SVC[r.svc][0] == "Databases", 2.6)], anomaly_day=77,
  truth=[("Databases","ServiceCategory")])

# ---- 7 category Management and Governance: debug logging -> CloudWatch Logs and Datadog logs both surge
G = "102938475610"
res7 = [r_aws(G,"Amazon CloudWatch","us-east-1","api","log-group/api-gateway",22),
        r_aws(G,"Amazon CloudWatch","us-east-1","worker","log-group/worker",15),
        r_ext("Datadog","Datadog Log Management","api","datadog:org/88120/index/main",40),
        r_aws(G,"Amazon Elastic Kubernetes Service","us-east-1","platform","cluster/prod-eks",72),
        r_aws(G,"Amazon Elastic Compute Cloud","us-east-1","api","instance/i-0api00000000000a1",330,weekly=WK2),
        r_aws(G,"Amazon Elastic Compute Cloud","us-east-1","worker","instance/i-0wrk0000000000b2",210),
        r_aws(G,"Amazon Simple Storage Service","us-east-1","worker","bucket/worker-artifacts",35)]
S(id="Scenario-7", start="2025-04-01", days=100, account=G, account_name="Tessel Apps", resources=res7, hourly=True,
  events=[spike(lambda r: SVC[r.svc][0] == "Management and Governance", 94, 97, 6.0)], anomaly_day=94,
  truth=[("Management and Governance","ServiceCategory")])

# ---- 8 region sa-east-1: everything in Sao Paulo up
H = "223344556677"
res8 = [r_aws(H,"Amazon Elastic Compute Cloud","sa-east-1","storefront","instance/i-0sa0000000000001",150,weekly=WK2),
        r_aws(H,"Amazon Relational Database Service","sa-east-1","storefront","db/store-br",95),
        r_aws(H,"Amazon Virtual Private Cloud","sa-east-1","storefront","natgateway/nat-0sa11112222333",18),
        r_aws(H,"Amazon Simple Storage Service","sa-east-1","assets","bucket/assets-br",21),
        r_aws(H,"Amazon Elastic Compute Cloud","us-east-1","storefront","instance/i-0us0000000000002",280,weekly=WK2),
        r_aws(H,"Amazon Relational Database Service","us-east-1","storefront","db/store-us",170),
        r_aws(H,"Amazon Simple Storage Service","us-east-1","assets","bucket/assets-us",48),
        r_aws(H,"Amazon CloudFront","global","assets","distribution/E9STORE",60,weekly=WK2)]
S(id="Scenario-8", start="2025-05-12", days=65, account=H, account_name="Lojas Ventura", resources=res8, currency="BRL", fx=5.4,
  events=[after(58, lambda r: r.region == "sa-east-1", 3.1)], anomaly_day=58, truth=[("sa-east-1","RegionId")])

# ---- 9 region asia-northeast1 on Google Cloud
res9 = [r_gcp("Compute Engine","asia-northeast1","matchmaking","zones/asia-northeast1-b/instances/mm-1",180),
        r_gcp("Cloud SQL","asia-northeast1","matchmaking","instances/mm-db-tokyo",90),
        r_gcp("Cloud NAT","asia-northeast1","matchmaking","regions/asia-northeast1/routers/nat-tokyo",14),
        r_gcp("Compute Engine","us-central1","matchmaking","zones/us-central1-a/instances/mm-2",220),
        r_gcp("Cloud SQL","us-central1","matchmaking","instances/mm-db-iowa",110),
        r_gcp("Cloud Storage","us-central1","replays","buckets/replays-archive",70,growth=0.3),
        r_gcp("Compute Engine","europe-west4","matchmaking","zones/europe-west4-a/instances/mm-3",160),
        r_gcp("Cloud CDN","global","replays","global/backendBuckets/replays-cdn",40,weekly=(0.9,0.9,0.9,0.95,1.1,1.3,1.3))]
S(id="Scenario-9", start="2025-01-01", days=150, account="01A2B3-C4D5E6-F7A8B9", account_name="Kumo Games billing",
  resources=res9, currency="JPY", fx=150.0,
  events=[spike(lambda r: r.region == "asia-northeast1", 141, 146, 4.0)], anomaly_day=141,
  truth=[("asia-northeast1","RegionId")])

# ---- 10 application: forgotten load-test cluster (new application tag appears and keeps running)
I = "334455667788"
res10 = [r_aws(I,"Amazon Elastic Compute Cloud","us-east-1","loadtest-q3","instance/i-0lt00000000000aa",0.0),
         r_aws(I,"Amazon Elastic Kubernetes Service","us-east-1","loadtest-q3","cluster/loadtest-q3",0.0),
         r_aws(I,"Amazon Elastic Compute Cloud","us-east-1","quotes","instance/i-0qt00000000000bb",300,weekly=WK2),
         r_aws(I,"Amazon Elastic Compute Cloud","us-east-1","quotes","instance/i-0qt00000000000cc",300,weekly=WK2),
         r_aws(I,"Amazon Elastic Kubernetes Service","us-east-1","platform","cluster/prod",72),
         r_aws(I,"Amazon Relational Database Service","us-east-1","quotes","db/quotes",190),
         r_aws(I,"Amazon Simple Storage Service","us-east-1","quotes","bucket/quotes-docs",30)]
res10[0].base, res10[0].start = 520.0, 84
res10[1].base, res10[1].start = 72.0, 84
S(id="Scenario-10", start="2025-07-01", days=96, account=I, account_name="Brightline Insurance", resources=res10,
  extras=[month_fee(Res("AWS","AWS Support (Business)","global",None,"support/business",0,kind="fee"), 820.0,
                    "AWS Support (Business) monthly fee")],
  anomaly_day=84, truth=[("loadtest-q3","Application")])

# ---- 11 application: load test aimed at 'recommendations' left running -> all its resources up
J = "445566778899"
res11 = [r_aws(J,"Amazon Elastic Compute Cloud","us-west-2","recommendations","instance/i-0rec0000000000a1",210,weekly=WK2),
         r_aws(J,"Amazon DynamoDB","us-west-2","recommendations","table/reco-features",60),
         r_aws(J,"Amazon Virtual Private Cloud","us-west-2","recommendations","natgateway/nat-0rec000000001",20),
         r_aws(J,"AWS Lambda","us-west-2","recommendations","function:reco-rank",12),
         r_aws(J,"Amazon Elastic Compute Cloud","us-west-2","catalog","instance/i-0cat0000000000b1",260,weekly=WK2),
         r_aws(J,"Amazon DynamoDB","us-west-2","catalog","table/catalog-items",70),
         r_aws(J,"Amazon Virtual Private Cloud","us-west-2","catalog","natgateway/nat-0cat000000001",24),
         r_aws(J,"Amazon Simple Storage Service","us-west-2","catalog","bucket/catalog-images",55)]
S(id="Scenario-11", start="2025-03-01", days=240, account=J, account_name="Marlow Outfitters", resources=res11,
  events=[spike(lambda r: r.app == "recommendations", 229, 236, 3.4)],
  extras=[tax(Res("AWS","Tax","us-west-2",None,"tax/us-or",900), 0.0, "Sales tax (exempt)")],
  anomaly_day=229, truth=[("recommendations","Application")])

# ---- 12 NO ANOMALY: a refund makes one day look cheap
K = "556677889900"
res12 = [r_aws(K,"Amazon Elastic Compute Cloud","us-east-1","ingest","instance/i-0ing0000000000a1",240),
         r_aws(K,"Amazon Redshift","us-east-1","warehouse","cluster/dw-main",260,weekly=WK),
         r_aws(K,"Amazon Simple Storage Service","us-east-1","warehouse","bucket/dw-staging",45),
         r_aws(K,"Amazon CloudWatch","us-east-1","ingest","log-group/ingest",14)]
S(id="Scenario-12", start="2025-02-10", days=140, account=K, account_name="Ostrava Data", resources=res12,
  extras=[refund(Res("AWS","Amazon Redshift","us-east-1","warehouse",res12[1].rid,0,kind="fee"), 131, 2350.0,
                 "Refund: Redshift cluster billing error case 17428833991")],
  anomaly_day=131, truth=[])

# ---- 13 NO ANOMALY: support fee (percentage) jumps on the 1st after organic spend growth
L = "667788990011"
res13 = [r_aws(L,"Amazon Elastic Compute Cloud","eu-west-1","tracking","instance/i-0trk0000000000a1",300,growth=0.9,weekly=WK2),
         r_aws(L,"Amazon Elastic Compute Cloud","eu-west-1","tracking","instance/i-0trk0000000000a2",300,growth=0.9,weekly=WK2),
         r_aws(L,"Amazon Simple Storage Service","eu-west-1","tracking","bucket/tracking-raw",90,growth=1.2),
         r_aws(L,"Amazon Relational Database Service","eu-west-1","tracking","db/tracking",160,growth=0.4)]
S(id="Scenario-13", start="2024-10-01", days=210, account=L, account_name="Fleetwise Ltd", resources=res13, currency="GBP", fx=0.79,
  extras=[pct_fee(Res("AWS","AWS Support (Business)","global",None,"support/business-"+L,0,kind="fee"), 0.10,
                  "AWS Support (Business) - 10% of monthly AWS charges")],
  anomaly_day=182, truth=[])

# ---- 14 NO ANOMALY: tag key renamed mid-history (application -> app), Azure
res14 = [r_az("Virtual Machines","westeurope","portal","vm-portal-01",140,weekly=WK2),
         r_az("Virtual Machines","westeurope","portal","vm-portal-02",140,weekly=WK2),
         r_az("Azure SQL Database","westeurope","portal","sql-portal/databases/portal",120),
         r_az("Storage","westeurope","docs","stdocsprod01",38,growth=0.1),
         r_az("Azure Monitor","westeurope","portal","law-prod",26),
         r_az("Virtual Machines","uksouth","docs","vm-docs-01",95)]
S(id="Scenario-14", start="2025-01-01", days=120, account="8844-2211-0099", account_name="Contoso Municipal EA",
  resources=res14, currency="EUR", fx=0.93, tag_rename=(102, "application", "app"),
  anomaly_day=102, truth=[])

# ---- 15 NO ANOMALY: monthly marketplace licence + amortised RI + credits
M = "778899001122"
res15 = [r_aws(M,"Amazon Elastic Compute Cloud","us-east-2" if False else "us-east-1","firewall","instance/i-0fw00000000000a1",80),
         r_aws(M,"Amazon Elastic Compute Cloud","us-east-1","erp","instance/i-0erp0000000000a1",150,weekly=WK),
         r_aws(M,"Amazon Relational Database Service","us-east-1","erp","db/erp-oracle",210),
         r_aws(M,"Amazon Simple Storage Service","us-east-1","erp","bucket/erp-backups",60,growth=0.2)]
mk = Res("AWS","AWS Marketplace","us-east-1","firewall","arn:aws:marketplace:us-east-1:%s:product/prod-ngfw-annual" % M,0,kind="fee")
S(id="Scenario-15", start="2024-09-01", days=240, account=M, account_name="Halden Manufacturing", resources=res15,
  extras=[marketplace(mk, 3900.0, "Next-Gen Firewall VM - BYOL support subscription (monthly)", "Perimeter Networks Inc."),
          amortised(Res("AWS","Amazon Relational Database Service","us-east-1","erp","arn:aws:rds:us-east-1:%s:ri:erp-ri" % M,0,kind="fee"),
                    95.0, "RDS Reserved Instance amortized fee db.r6i.xlarge", "erp-ri"),
          credit(Res("AWS","Amazon Elastic Compute Cloud","us-east-1",None,"credit/migration-acceleration",0,kind="fee"),
                 1200.0, 3, "Migration Acceleration Program credit")],
  anomaly_day=212, truth=[])

# ---- 16 NO ANOMALY: hourly export with a partial last day (export cut at 09:00)
res16 = [r_gcp("Compute Engine","europe-west4","search","zones/europe-west4-b/instances/search-1",190, proj="nlx-search"),
         r_gcp("Compute Engine","europe-west4","search","zones/europe-west4-b/instances/search-2",190, proj="nlx-search"),
         r_gcp("Cloud Storage","europe-west4","search","buckets/nlx-index",35, proj="nlx-search"),
         r_gcp("Cloud Logging","europe-west4","search","logs/_Default",12, proj="nlx-search")]
S(id="Scenario-16", start="2025-08-01", days=61, hourly=True, partial_last_day=0.4, account="0F1E2D-3C4B5A-697887",
  account_name="Nordlys Search", resources=res16, currency="NOK", fx=10.6, anomaly_day=60, truth=[])

# ---- 17 NO ANOMALY: strongly weekly B2B workload, Monday comeback after a quiet weekend (Azure, multi-sub)
res17 = [r_az("Virtual Machines","eastus2","payroll","vm-payroll-batch-01",260,weekly=(1.35,1,1,1,1.1,0.25,0.2),rg="rg-payroll"),
         r_az("Azure Synapse Analytics","eastus2","payroll","syn-payroll",180,weekly=(1.5,1,1,1,1.2,0.1,0.1),rg="rg-payroll"),
         r_az("Azure SQL Database","eastus2","payroll","sql-payroll/databases/core",150,rg="rg-payroll"),
         r_az("Storage","eastus2","payroll","stpayrollarch",44,growth=0.2,rg="rg-payroll"),
         r_az("Azure Functions","eastus2","hr-portal","func-hr-notify",9,weekly=WK,rg="rg-hr")]
S(id="Scenario-17", start="2025-04-07", days=84, account="1122-3344-5566", account_name="Ledgerly EA", resources=res17,
  anomaly_day=77, truth=[])

# ---- 18 resource: BigQuery query gone wrong (one dataset's on-demand scan bill)
res18 = [r_gcp("BigQuery","us-central1","analytics","datasets/events_raw",95,weekly=WK, proj="acme-data-prod"),
         r_gcp("BigQuery","us-central1","analytics","datasets/marketing_mart",40,weekly=WK, proj="acme-data-prod"),
         r_gcp("BigQuery","us-central1","finance","datasets/fin_reporting",30,weekly=WK, proj="acme-data-prod"),
         r_gcp("Compute Engine","us-central1","analytics","zones/us-central1-c/instances/airflow-1",60, proj="acme-data-prod"),
         r_gcp("Cloud Storage","us-central1","analytics","buckets/acme-landing",70,growth=0.25, proj="acme-data-prod"),
         r_gcp("Cloud Functions","us-central1","analytics","functions/ingest-webhook",8, proj="acme-data-prod")]
S(id="Scenario-18", start="2025-02-03", days=168, account="01BB22-CC33DD-EE44FF", account_name="Acme Data", resources=res18,
  events=[spike(lambda r: r.rid.endswith("datasets/marketing_mart"), 157, 158, 22.0)], anomaly_day=157,
  truth=[(res18[1].rid, "ResourceId")])

# ---- 19 resource: CDN cache purge -> one Fastly service re-fetches from origin
res19 = [r_ext("Fastly","Fastly CDN","web","fastly:service/7hGk2LmP9qRsT1",70,weekly=WK2),
         r_ext("Fastly","Fastly CDN","media","fastly:service/2bCd4EfG6hIj8K",120,weekly=(1,1,1,1,1.1,1.3,1.25)),
         r_aws("912001122334","Amazon Simple Storage Service","us-east-1","media","bucket/media-origin",60),
         r_aws("912001122334","Amazon Elastic Compute Cloud","us-east-1","web","instance/i-0web0000000000a1",180),
         r_aws("912001122334","Amazon CloudFront","global","web","distribution/E7WEBLEGACY",15)]
S(id="Scenario-19", start="2025-05-01", days=92, account="912001122334", account_name="Parade Streaming", resources=res19,
  events=[spike(lambda r: r.rid.endswith("2bCd4EfG6hIj8K"), 86, 88, 5.5)], anomaly_day=86,
  truth=[(res19[1].rid, "ResourceId")])

# ---- 20 service: Azure Monitor ingestion surge across all workspaces (diagnostic settings enabled everywhere)
res20 = [r_az("Azure Monitor","westeurope","claims","law-claims",30,rg="rg-claims"),
         r_az("Azure Monitor","northeurope" if False else "uksouth","claims","law-claims-dr",12,rg="rg-claims-dr"),
         r_az("Azure Monitor","westeurope","portal","law-portal",22,rg="rg-portal"),
         r_az("Virtual Machines","westeurope","claims","vm-claims-01",200,weekly=WK2,rg="rg-claims"),
         r_az("Azure SQL Database","westeurope","claims","sql-claims/databases/claims",170,rg="rg-claims"),
         r_az("Storage","uksouth","claims","stclaimsdr",40,rg="rg-claims-dr"),
         r_az("Azure Functions","westeurope","portal","func-portal",10,rg="rg-portal")]
S(id="Scenario-20", start="2025-01-15", days=110, account="5566-7788-9900", account_name="Verity Insurance EA", resources=res20,
  currency="EUR", fx=0.93, events=[after(101, lambda r: r.svc == "Azure Monitor", 5.0)], anomaly_day=101,
  truth=[("Azure Monitor","ServiceName")])

# ---- 21 provider-wide: Google Cloud committed-use coverage lapses (all GCP usage at on-demand) beside AWS
N = "889900112233"
res21 = [r_gcp("Compute Engine","us-central1","routing","zones/us-central1-a/instances/route-1",150, proj="geo-prod"),
         r_gcp("Cloud SQL","us-central1","routing","instances/route-db",80, proj="geo-prod"),
         r_gcp("Cloud Storage","us-central1","tiles","buckets/tiles",60, proj="geo-prod"),
         r_gcp("BigQuery","us-central1","telemetry","datasets/pings",40,weekly=WK, proj="geo-prod"),
         r_aws(N,"Amazon Elastic Compute Cloud","us-east-1","routing","instance/i-0rt00000000000a1",170),
         r_aws(N,"Amazon Simple Storage Service","us-east-1","tiles","bucket/tiles-mirror",30),
         r_aws(N,"Amazon CloudFront","global","tiles","distribution/E3TILES",45,weekly=WK2)]
S(id="Scenario-21", start="2024-12-01", days=200, account="01CC33-DD44EE-FF5500", account_name="Geopath consolidated",
  resources=res21, events=[after(183, lambda r: r.prov == "Google Cloud", 2.3)], anomaly_day=183,
  truth=[("Google Cloud","ProviderName")])

# ---- 22 resource: Cloud Function retry loop (one function), hourly
res22 = [r_gcp("Cloud Functions","europe-west4","notify","functions/send-push",10, proj="pulse-prod"),
         r_gcp("Cloud Functions","europe-west4","notify","functions/send-email",7, proj="pulse-prod"),
         r_gcp("Cloud Functions","europe-west4","billing","functions/stripe-webhook",6, proj="pulse-prod"),
         r_gcp("Cloud Logging","europe-west4","notify","logs/_Default",9, proj="pulse-prod"),
         r_gcp("Compute Engine","europe-west4","api","zones/europe-west4-a/instances/api-1",120, proj="pulse-prod"),
         r_gcp("Cloud SQL","europe-west4","api","instances/pulse-db",90, proj="pulse-prod")]
S(id="Scenario-22", start="2025-09-01", days=60, hourly=True, account="01DD44-EE55FF-006611", account_name="Pulse Mobile",
  resources=res22, currency="EUR", fx=0.93,
  events=[spike(lambda r: r.rid.endswith("functions/stripe-webhook"), 52, 54, 30.0)], anomaly_day=52,
  truth=[(res22[2].rid, "ResourceId")])

# ---- 23 application on Azure: 'claims-ocr' batch reprocessing job runs all week
res23 = [r_az("Virtual Machines","eastus2","claims-ocr","vm-ocr-01",110,rg="rg-ocr"),
         r_az("Storage","eastus2","claims-ocr","stocrinbox",30,rg="rg-ocr"),
         r_az("Azure Functions","eastus2","claims-ocr","func-ocr-split",8,rg="rg-ocr"),
         r_az("Virtual Machines","eastus2","claims-core","vm-core-01",260,weekly=WK2,rg="rg-core"),
         r_az("Azure SQL Database","eastus2","claims-core","sql-core/databases/claims",180,rg="rg-core"),
         r_az("Storage","eastus2","claims-core","stcoredocs",50,growth=0.1,rg="rg-core")]
S(id="Scenario-23", start="2025-03-03", days=130, account="9988-7766-5544", account_name="Harbor Mutual EA", resources=res23,
  events=[spike(lambda r: r.app == "claims-ocr", 121, 128, 4.5)], anomaly_day=121,
  truth=[("claims-ocr","Application")])

def main():
    if len(sys.argv) != 2: sys.exit("usage: gen.py OUT")
    out = sys.argv[1]; os.makedirs(out, exist_ok=True)
    for sc in SCEN: write(out, sc)
    print("wrote %d scenarios under %s" % (len(SCEN), out))

if __name__ == "__main__":
    main()
