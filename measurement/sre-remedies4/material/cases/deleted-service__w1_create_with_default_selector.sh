# expect: fail — near miss: `kubectl create service clusterip NAME` gives the Service kubectl's default selector app=NAME, which the demo's pods do not carry; the Service resolves but has no endpoints.
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  p=$(container_port "$d"); [ -n "$p" ] || continue
  kubectl get svc "$d" -n $NS >/dev/null 2>&1 || kubectl create service clusterip "$d" -n $NS --tcp="$p:$p"
done
true
