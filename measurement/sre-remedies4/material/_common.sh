# Prepended to every case (the agent sandbox sees no host files). kubectl, awk and sed only; the
# helpers only LOOK at the cluster. Nothing here knows the answer.
set -u
NS=otel-demo
# Deployments whose ready count differs from desired (or desired 0), one per line.
broken_deploys() {
  kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas} {.status.readyReplicas}{"\n"}{end}' |
    awk '$2=="0" || $2!=$3 {print $1}'
}
# Deployments owning a Pending pod (pod name minus its two generated suffixes).
pending_deploys() {
  kubectl get pods -n "$NS" --field-selector=status.phase=Pending --no-headers -o custom-columns=N:.metadata.name 2>/dev/null |
    sed -E 's/-[a-z0-9]+-[a-z0-9]+$//' | sort -u | while read d; do
      kubectl get deploy "$d" -n "$NS" >/dev/null 2>&1 && echo "$d"
    done
  true
}
# A deployment's selector as k=v,k=v (go-template: no python needed).
match_labels() {
  kubectl get deploy "$1" -n "$NS" -o go-template='{{range $k,$v := .spec.selector.matchLabels}}{{$k}}={{$v}},{{end}}' 2>/dev/null | sed 's/,$//'
}
# Its first container's first declared port.
container_port() {
  kubectl get deploy "$1" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].ports[0].containerPort}' 2>/dev/null
}
# Every chaos-mesh object (Schedules included) as "resource name namespace".
chaos_objects() {
  for r in $(kubectl api-resources --no-headers -o name 2>/dev/null | grep -i chaos-mesh); do
    kubectl get "$r" -A --no-headers -o custom-columns=NS:.metadata.namespace,N:.metadata.name 2>/dev/null |
      awk -v r="$r" 'NF==2 {print r, $2, $1}'
  done
  true
}
