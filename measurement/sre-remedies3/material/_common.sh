# Prepended to every case (the agent sandbox sees no host files). Helpers only LOOK at the
# cluster, except flag_put/flag_edit, which write the flagd ConfigMap when a case calls them.
set -u
NS=otel-demo
# Deployments whose ready count differs from desired (or desired 0), one per line.
broken_deploys() {
  kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas} {.status.readyReplicas}{"\n"}{end}' |
    awk '$2=="0" || $2!=$3 {print $1}'
}
# Every chaos-mesh object as "resource name namespace" (resource like httpchaos.chaos-mesh.org).
chaos_objects() {
  for r in $(kubectl api-resources --no-headers -o name 2>/dev/null | grep -i chaos-mesh); do
    kubectl get "$r" -A --no-headers -o custom-columns=NS:.metadata.namespace,N:.metadata.name 2>/dev/null |
      awk -v r="$r" 'NF==2 {print r, $2, $1}'
  done
}
# Chaos objects of one kind (httpchaos|iochaos|jvmchaos|podchaos|networkchaos), and the chaos-mesh
# Schedules whose spec.type is that kind (ITBench injects experiments through Schedules).
chaos_of() {
  chaos_objects | awk -v k="$1" 'tolower($1) ~ "^"k {print}'
  chaos_objects | awk 'tolower($1) ~ /^schedules?\./ {print}' | while read r n ns; do
    t=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.type}' 2>/dev/null)
    [ "$(printf '%s' "$t" | tr A-Z a-z)" = "$1" ] && echo "$r $n $ns"
  done
  true
}
# Label values a chaos object selects (labelSelectors / expressionSelectors; Schedule: its inner spec).
chaos_targets() {
  kubectl get "$1" "$2" -n "$3" -o json | python3 -c '
import json,sys
d=json.load(sys.stdin); s=d.get("spec",{})
for k in ("httpChaos","ioChaos","jvmChaos","podChaos","networkChaos","stressChaos","dnsChaos"):
    if k in s: s=s[k]
sel=s.get("selector") or {}
for k,v in (sel.get("labelSelectors") or {}).items(): print(v)
for e in (sel.get("expressionSelectors") or []):
    for v in e.get("values",[]): print(v)'
}
# Pods of a deployment (name prefix).
pods_of() {
  kubectl get pods -n "$NS" --no-headers -o custom-columns=N:.metadata.name | grep "^$1-" || true
}
# Deployments whose pod template satisfies a python expression over t (template spec) and d (deployment).
deploys_where() {
  kubectl get deploy -n "$NS" -o json | python3 -c "
import json,sys
for d in json.load(sys.stdin)['items']:
    t=d['spec']['template']['spec']
    if $1: print(d['metadata']['name'])"
}
# The flagd configuration text (data key demo.flagd.json of ConfigMap flagd-config).
flag_json() { kubectl get configmap flagd-config -n "$NS" -o jsonpath='{.data.demo\.flagd\.json}'; }
# Write JSON text $1 back as demo.flagd.json (merge patch of the ConfigMap's data).
flag_put() {
  printf '%s' "$1" | python3 -c 'import json,sys; print(json.dumps({"data":{"demo.flagd.json":sys.stdin.read()}}))' > /tmp/flagpatch.json
  kubectl patch configmap flagd-config -n "$NS" --type=merge --patch-file /tmp/flagpatch.json
}
# Edit the flags with python statements over f (the "flags" object), then write back indented by 2.
flag_edit() {
  new=$(flag_json | python3 -c "
import json,sys
d=json.load(sys.stdin); f=d['flags']
$1
print(json.dumps(d, indent=2))") && flag_put "$new"
}
