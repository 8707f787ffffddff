# Prepended to every case (the agent sandbox sees no host files). Helpers only LOOK at the cluster.
set -u
NS=otel-demo
# Deployments whose ready count differs from desired (or desired 0), one per line.
broken_deploys() {
  kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas} {.status.readyReplicas}{"\n"}{end}' |
    awk '$2=="0" || $2!=$3 {print $1}'
}
# Deployments that want 0 replicas.
zero_deploys() {
  kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas}{"\n"}{end}' | awk '$2=="0"{print $1}'
}
# Every chaos-mesh object as "resource name namespace" (resource like stresschaos.chaos-mesh.org).
chaos_objects() {
  for r in $(kubectl api-resources --no-headers -o name 2>/dev/null | grep -i chaos); do
    kubectl get "$r" -A --no-headers -o custom-columns=NS:.metadata.namespace,N:.metadata.name 2>/dev/null |
      awk -v r="$r" 'NF==2 {print r, $2, $1}'
  done
}
# Chaos objects of one kind (stresschaos|networkchaos|dnschaos).
chaos_of() { chaos_objects | awk -v k="$1" 'tolower($1) ~ "^"k {print}'; }
# Pods of a deployment (name prefix).
pods_of() {
  kubectl get pods -n "$NS" --no-headers -o custom-columns=N:.metadata.name | grep "^$1-" || true
}
# First declared container port of a deployment.
cport_of() { kubectl get deploy "$1" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].ports[0].containerPort}'; }
# Deployment a pod-template-hash-less service selects (same name convention as the demo).
deploy_for_svc() { kubectl get deploy "$1" -n "$NS" -o name >/dev/null 2>&1 && echo "$1"; }
# The deployment's revision before the current one (empty when none).
prev_revision() {
  kubectl rollout history deploy/"$1" -n "$NS" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ {print $1}' | sort -n | tail -2 | head -1
}
# Target deployment names selected by a chaos object (by app.kubernetes.io/name or app label values).
chaos_targets() {
  kubectl get "$1" "$2" -n "$3" -o json | python3 -c '
import json,sys
d=json.load(sys.stdin); sel=(d.get("spec",{}).get("selector") or {})
for k,v in (sel.get("labelSelectors") or {}).items(): print(v)
for e in (sel.get("expressionSelectors") or []):
    for v in e.get("values",[]): print(v)
for ns, names in (sel.get("pods") or {}).items():
    for n in names: print(n.rsplit("-", 2)[0])'
}
