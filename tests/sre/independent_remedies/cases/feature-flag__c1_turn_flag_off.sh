# expect: pass — a failure flag in flagd-config defaults to "on"; set every *Failure/*HighCpu flag's defaultVariant back to "off".
cfg=$(kubectl get configmap flagd-config -n $NS -o jsonpath='{.data.demo\.flagd\.json}')
echo "$cfg"
new=$(printf '%s' "$cfg" | python3 -c 'import json,sys; d=json.load(sys.stdin)
for k,v in d["flags"].items():
    if v.get("defaultVariant")=="on": v["defaultVariant"]="off"
print(json.dumps(d))')
kubectl create configmap flagd-config -n $NS --from-literal=demo.flagd.json="$new" --dry-run=client -o yaml | kubectl apply -f -
