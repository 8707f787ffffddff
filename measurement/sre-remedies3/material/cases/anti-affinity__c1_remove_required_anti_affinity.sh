# expect: pass — find the Pending deployment whose template has a required podAntiAffinity and remove that podAntiAffinity (JSON patch), keeping any other affinity.
pending_deploys() {
  kubectl get pods -n $NS --field-selector=status.phase=Pending --no-headers -o custom-columns=N:.metadata.name 2>/dev/null |
    sed -E 's/-[a-z0-9]+-[a-z0-9]+$//' | sort -u | while read d; do
      kubectl get deploy "$d" -n $NS >/dev/null 2>&1 && echo "$d"
    done
  true
}

for d in $(pending_deploys); do
  kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
t=json.load(sys.stdin)["spec"]["template"]["spec"]; a=t.get("affinity") or {}
if "podAntiAffinity" in a:
    if len(a)==1: print(json.dumps([{"op":"remove","path":"/spec/template/spec/affinity"}]))
    else: print(json.dumps([{"op":"remove","path":"/spec/template/spec/affinity/podAntiAffinity"}]))' > /tmp/aa.json
  [ -s /tmp/aa.json ] && kubectl patch deploy "$d" -n $NS --type=json --patch-file /tmp/aa.json
  rm -f /tmp/aa.json
done
true
