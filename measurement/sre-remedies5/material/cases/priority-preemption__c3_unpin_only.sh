# expect: pass — find the Pending Deployment whose template carries a priorityClassName and a nodeSelector pinning it to a node; remove only the nodeSelector, so the pod schedules on another node (its low priority no longer matters there).
for d in $(pending_deploys); do
  [ -n "$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.priorityClassName}')" ] || continue
  [ -n "$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.nodeSelector}')" ] || continue
  kubectl patch deploy "$d" -n "$NS" --type=json -p '[{"op":"remove","path":"/spec/template/spec/nodeSelector"}]'
done
true
