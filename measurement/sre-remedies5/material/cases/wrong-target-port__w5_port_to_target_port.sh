# expect: fail — wrong field: set the Service's `port` to its (closed) targetPort value, leaving the targetPort as it is; the callers dial the old port, which the Service no longer exposes, and the forwarded port is still closed.
for s in $(svcs_with_closed_target_port); do
  tp=$(kubectl get svc "$s" -n "$NS" -o jsonpath='{.spec.ports[0].targetPort}')
  case "$tp" in *[!0-9]*) continue ;; esac
  kubectl patch svc "$s" -n "$NS" --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/ports/0/port\",\"value\":$tp}]"
done
true
