# expect: fail — wrong tool: `kubectl drain --pod-selector` the node the Pending workload is pinned to, evicting only the higher-priority workload that took it; drain cordons the node first, so the pinned workload can now not be placed there at all (and the evicted pods come back with their priority, pinned to the same node).
for d in $(pending_deploys); do
  nsel=$(kubectl get deploy "$d" -n "$NS" -o go-template='{{range $k,$v := .spec.template.spec.nodeSelector}}{{$k}}={{$v}},{{end}}' | sed 's/,$//')
  [ -n "$nsel" ] || continue
  n=$(kubectl get nodes -l "$nsel" -o jsonpath='{.items[0].metadata.name}' 2>/dev/null); [ -n "$n" ] || continue
  pc=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.priorityClassName}')
  line=$(kubectl get pods -A --field-selector=spec.nodeName="$n" -o jsonpath='{range .items[*]}{.spec.priorityClassName} {.metadata.namespace} {.metadata.name}{"\n"}{end}' |
    awk -v pc="$pc" 'NF==3 && $1!=pc && $1 !~ /^system-/ {print; exit}')
  [ -n "$line" ] || continue
  pns=$(echo "$line" | awk '{print $2}'); dep=$(echo "$line" | awk '{print $3}' | pod_to_deploy)
  sel=$(kubectl get deploy "$dep" -n "$pns" -o go-template='{{range $k,$v := .spec.selector.matchLabels}}{{$k}}={{$v}},{{end}}' 2>/dev/null | sed 's/,$//')
  [ -n "$sel" ] || continue
  echo "draining $n of $pns/$dep ($sel)"
  kubectl drain "$n" --pod-selector="$sel" --ignore-daemonsets --delete-emptydir-data --force --timeout=60s
done
true
