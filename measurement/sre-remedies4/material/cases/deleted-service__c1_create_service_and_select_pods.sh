# expect: pass — find the Deployment that declares a container port but has no Service of its name; create a ClusterIP Service of that name on that port and set its selector to the Deployment's own matchLabels.
missing_svc() {
  for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
    p=$(container_port "$d"); [ -n "$p" ] || continue
    kubectl get svc "$d" -n $NS >/dev/null 2>&1 || echo "$d"
  done
  true
}
for d in $(missing_svc); do
  p=$(container_port "$d")
  kubectl create service clusterip "$d" -n $NS --tcp="$p:$p"
  kubectl set selector service "$d" -n $NS "$(match_labels "$d")"
done
true
