# expect: pass — find the Pending Deployment whose template carries a priorityClassName and a nodeSelector, and remove both (the revert of the injected patch): default priority, free placement.
for d in $(pending_deploys); do
  pc=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.priorityClassName}')
  [ -n "$pc" ] || continue
  ops='[{"op":"remove","path":"/spec/template/spec/priorityClassName"}'
  [ -n "$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.nodeSelector}')" ] && ops="$ops"',{"op":"remove","path":"/spec/template/spec/nodeSelector"}'
  kubectl patch deploy "$d" -n $NS --type=json -p "$ops]"
done
true
