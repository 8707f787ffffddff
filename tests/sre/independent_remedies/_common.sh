# Prepended to every case by run.py (the sandbox sees no host files, so the script text is
# passed inline as --agent-cmd). Helpers only look at the cluster; nothing here knows the answer.
set -u
NS=otel-demo
# Deployments whose ready count differs from the desired count (or desired 0), one per line.
broken_deploys() {
  kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas} {.status.readyReplicas}{"\n"}{end}' |
    awk '$2=="0" || $2!=$3 {print $1}'
}
# Every chaos-mesh object in the cluster as "kind/name namespace".
chaos_objects() {
  for r in $(kubectl api-resources --no-headers 2>/dev/null | awk '{print $1}' | grep -i chaos); do
    kubectl get "$r" -A --no-headers 2>/dev/null | awk -v r="$r" '{print r"/"$2, $1}'
  done
}
# Pods of a deployment (by its selector's app.kubernetes.io/name or app label).
pods_of() {
  kubectl get pods -n "$NS" --no-headers -o custom-columns=N:.metadata.name | grep "^$1-"
}
