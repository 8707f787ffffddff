# expect: pass — read flagd-config as JSON, set cartFailure's defaultVariant to its zero variant, and kubectl replace the whole ConfigMap.
kubectl get configmap flagd-config -n $NS -o json | python3 -c '
import json,sys
cm=json.load(sys.stdin); d=json.loads(cm["data"]["demo.flagd.json"]); g=d["flags"]["cartFailure"]
g["defaultVariant"]=next((k for k,v in g["variants"].items() if v in (0,False)), "off")
cm["data"]["demo.flagd.json"]=json.dumps(d, indent=2)
for k in ("resourceVersion","uid","creationTimestamp","managedFields"): cm["metadata"].pop(k, None)
print(json.dumps(cm))' > /tmp/cm.json
kubectl replace -f /tmp/cm.json
true
