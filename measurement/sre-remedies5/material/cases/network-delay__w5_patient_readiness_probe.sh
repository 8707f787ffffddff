# expect: fail — symptom fix: the delayed service's readiness probe times out, so give it timeoutSeconds 30 and failureThreshold 10; the probe passes again but every call to the service is still delayed (callers' latency alerts stay).
chaos_of networkchaos | while read r n ns; do
  case "$r" in schedules.*) continue ;; esac
  [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}')" = "delay" ] || continue
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do
    [ -n "$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].readinessProbe}')" ] || continue
    kubectl patch deploy "$d" -n "$NS" --type=json -p '[{"op":"add","path":"/spec/template/spec/containers/0/readinessProbe/timeoutSeconds","value":30},{"op":"add","path":"/spec/template/spec/containers/0/readinessProbe/failureThreshold","value":10}]'
  done
done
true
