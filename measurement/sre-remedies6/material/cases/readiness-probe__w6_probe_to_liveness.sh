# expect: fail — wrong field: turn the failing readiness probe into a liveness probe (same closed port) and drop the readiness probe; the kubelet now kills the containers in a loop, and readiness checking is gone.
for d in $(broken_deploys); do
  rp=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].readinessProbe}')
  [ -n "$rp" ] || continue
  kubectl patch deploy "$d" -n "$NS" --type=json -p "[{\"op\":\"add\",\"path\":\"/spec/template/spec/containers/0/livenessProbe\",\"value\":$rp},{\"op\":\"remove\",\"path\":\"/spec/template/spec/containers/0/readinessProbe\"}]"
done
true
