# expect: pass — same diagnosis (Pending, preempted, a priorityClassName in the template); roll back explicitly to the revision before the current one.
for d in $(pending_deploys); do
  [ -n "$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.priorityClassName}')" ] || continue
  rev=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.metadata.annotations.deployment\.kubernetes\.io/revision}')
  [ -n "$rev" ] && [ "$rev" -gt 1 ] && kubectl rollout undo deploy "$d" -n $NS --to-revision=$((rev - 1))
done
true
