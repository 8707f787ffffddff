# expect: pass — the Pending Deployment whose template has a required podAntiAffinity got it in its last rollout; roll it back.
for d in $(pending_deploys); do
  kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.affinity.podAntiAffinity}' | grep -q . && kubectl rollout undo deploy "$d" -n $NS
done
true
