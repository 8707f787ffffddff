import csv, json, sys, statistics as st, datetime as dt, collections
root = sys.argv[1]
cases = json.load(open(root + "/cases.json"))
for c in cases:
    d = root + "/" + c["scenario"]
    an = json.load(open(d + "/anomaly.json"))
    day = dt.date.fromisoformat(an["date"])
    cost = collections.defaultdict(float); tot = collections.defaultdict(float)
    for r in csv.DictReader(open(d + "/data.csv")):
        if r["Account ID"] != an["account_id"]: continue
        k = (r["CSP"], r["Cloud_Service"], r["Application"], r["Instance_Family"])
        cost[(k, r["date"])] += float(r["unblended_cost"]); tot[r["date"]] += float(r["unblended_cost"])
    keys = sorted({k for k, _ in cost})
    prev = [(day - dt.timedelta(days=7 * i)).isoformat() for i in range(1, 5)]
    out = []
    for k in keys:
        med = st.median([cost.get((k, p), 0) for p in prev]); now = cost.get((k, day.isoformat()), 0)
        if med == 0 and now: out.append("%s NEW" % "/".join(k[1:]))
        elif med and abs(now / med - 1) > 0.09: out.append("%s %.2f" % ("/".join(k[1:]), now / med))
    m = st.median([tot[p] for p in prev])
    wow = [tot[(day - dt.timedelta(days=7*i)).isoformat()] / tot[(day - dt.timedelta(days=7*i+7)).isoformat()] - 1 for i in range(1, 5)]
    noise = st.median([abs(x) for x in wow]) or 1e-9
    rel = tot[day.isoformat()] / m - 1
    print(c["scenario"], c["category"], [t["name"] for t in c["truth"]], "rel %+.1f%% z %.1f" % (100 * rel, rel / noise / 1.4826 if noise > 1e-8 else 999))
    for o in out: print("    ", o)
