# expect: fail — wrong mechanism: keep the required podAntiAffinity and add a PREFERRED podAffinity (weight 100) towards the same pods, hoping it outweighs the rule; a preference only scores nodes the required terms already allow, so the pod stays Pending.
for d in $(pending_deploys); do
  t=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]}')
  [ -n "$t" ] || continue
  kubectl patch deploy "$d" -n "$NS" --type=json -p "[{\"op\":\"add\",\"path\":\"/spec/template/spec/affinity/podAffinity\",\"value\":{\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":100,\"podAffinityTerm\":$t}]}}]"
done
true
