# expect: fail — wrong object: delete the pods the required anti-affinity term avoids (its labelSelector), hoping to free their node; their ReplicaSet recreates them at once on the same node, and a healthy service is restarted.
for d in $(pending_deploys); do
  sel=$(kubectl get deploy "$d" -n "$NS" -o go-template='{{with .spec.template.spec.affinity}}{{with .podAntiAffinity}}{{range .requiredDuringSchedulingIgnoredDuringExecution}}{{with .labelSelector}}{{range $k,$v := .matchLabels}}{{$k}}={{$v}},{{end}}{{end}}{{end}}{{end}}{{end}}' | sed 's/,$//')
  [ -n "$sel" ] || continue
  kubectl delete pods -n "$NS" -l "$sel" --wait=false
done
true
