# expect: pass — set the state of each flag whose default variant is on to DISABLED (flagd then answers the code default).
cfg=$(kubectl get configmap flagd-config -n $NS -o jsonpath='{.data.demo\.flagd\.json}')
new=$(printf '%s' "$cfg" | python3 -c 'import json,sys; d=json.load(sys.stdin)
for k,v in d["flags"].items():
    dv=v.get("defaultVariant"); val=v.get("variants",{}).get(dv)
    if v.get("state")=="ENABLED" and dv!="off" and val not in (False,0,None,"off"): v["state"]="DISABLED"
print(json.dumps(d, indent=2))')
kubectl create configmap flagd-config -n $NS --from-literal=demo.flagd.json="$new" --dry-run=client -o yaml | kubectl apply -f -
true
