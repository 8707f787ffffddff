# expect: fail — symptom fix: give the failing readiness probe more patience (initialDelaySeconds 120, failureThreshold 30); it still probes a closed port and never succeeds.
for d in $(broken_deploys); do
  kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].readinessProbe}' | grep -q . || continue
  kubectl patch deploy "$d" -n $NS --type=json -p '[{"op":"add","path":"/spec/template/spec/containers/0/readinessProbe/initialDelaySeconds","value":120},{"op":"add","path":"/spec/template/spec/containers/0/readinessProbe/failureThreshold","value":30}]'
done
true
