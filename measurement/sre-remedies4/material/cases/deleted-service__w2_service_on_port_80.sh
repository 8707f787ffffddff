# expect: fail — near miss: recreate the Service with the right name and selector but expose it on port 80 (targetPort the container port); the callers dial NAME:<container port>, which the Service does not expose.
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  p=$(container_port "$d"); [ -n "$p" ] || continue
  [ "$p" = "80" ] && continue
  kubectl get svc "$d" -n $NS >/dev/null 2>&1 && continue
  kubectl create service clusterip "$d" -n $NS --tcp="80:$p"
  kubectl set selector service "$d" -n $NS "$(match_labels "$d")"
done
true
