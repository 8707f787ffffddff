# expect: fail — destructive, wrong object: scale to 0 the healthy service the anti-affinity rule avoids, so the Pending pod can take its node.
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
t=json.load(sys.stdin)["spec"]["template"]["spec"]
for term in ((t.get("affinity") or {}).get("podAntiAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution") or []:
    for k,v in ((term.get("labelSelector") or {}).get("matchLabels") or {}).items(): print(v)
    for e in (term.get("labelSelector") or {}).get("matchExpressions") or []:
        for v in e.get("values") or []: print(v)' | sort -u | while read v; do
    [ "$v" = "$d" ] && continue
    kubectl get deploy "$v" -n $NS >/dev/null 2>&1 && kubectl scale deploy "$v" -n $NS --replicas=0
  done
done
true
