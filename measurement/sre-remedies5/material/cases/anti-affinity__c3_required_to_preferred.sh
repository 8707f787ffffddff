# expect: pass — find the Pending Deployment with a required podAntiAffinity and turn each required term into a preferred one (weight 100): the scheduler then places the pod even on the avoided node.
for d in $(pending_deploys); do
  base=.spec.template.spec.affinity.podAntiAffinity
  n=$(kubectl get deploy "$d" -n "$NS" -o jsonpath="{range $base.requiredDuringSchedulingIgnoredDuringExecution[*]}x{end}" | awk '{print length($0)}')
  [ "${n:-0}" -gt 0 ] || continue
  pref=$(kubectl get deploy "$d" -n "$NS" -o jsonpath="{$base.preferredDuringSchedulingIgnoredDuringExecution}")
  ops="{\"op\":\"remove\",\"path\":\"/spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution\"}"
  [ -n "$pref" ] || ops="$ops,{\"op\":\"add\",\"path\":\"/spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution\",\"value\":[]}"
  i=0
  while [ "$i" -lt "$n" ]; do
    t=$(kubectl get deploy "$d" -n "$NS" -o jsonpath="{$base.requiredDuringSchedulingIgnoredDuringExecution[$i]}")
    ops="$ops,{\"op\":\"add\",\"path\":\"/spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/-\",\"value\":{\"weight\":100,\"podAffinityTerm\":$t}}"
    i=$((i+1))
  done
  kubectl patch deploy "$d" -n "$NS" --type=json -p "[$ops]"
done
true
