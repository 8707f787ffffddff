#!/usr/bin/env python3
"""Write the sre-remedies2 cases (blind, held-out) into OUTDIR: OUTDIR/_common.sh and
OUTDIR/cases/<fault>__<case>.sh, in the layout of tests/sre/independent_remedies/.
Each case's first line is '# expect: pass|fail — why'. Deterministic; stdlib only.
Usage: python3 gen.py OUTDIR"""
import os, sys

COMMON = r'''# Prepended to every case (the agent sandbox sees no host files). Helpers only LOOK at the cluster.
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
'''

CASES = {}
def case(name, label, why, body):
    CASES[name] = (label, why, body.strip("\n") + "\n")

# ---------------- bad-command ----------------
case("bad-command__c3_undo_to_last_revision_without_command", "pass",
 "find, in rollout history, the newest earlier revision whose template has no command override and roll back to that revision explicitly.",
r'''
for d in $(broken_deploys); do
  cur=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].command}')
  [ -z "$cur" ] && continue
  target=""
  for r in $(kubectl rollout history deploy/"$d" -n $NS | awk '$1 ~ /^[0-9]+$/ {print $1}' | sort -rn); do
    if ! kubectl rollout history deploy/"$d" -n $NS --revision="$r" | grep -qi '^ *Command:'; then target=$r; break; fi
  done
  if [ -n "$target" ]; then kubectl rollout undo deploy/"$d" -n $NS --to-revision="$target"; else kubectl rollout undo deploy/"$d" -n $NS; fi
done
true
''')
case("bad-command__w4_command_sleep_forever", "fail",
 "symptom fix: replace the bad command with 'sleep infinity' so the container stops crashing but the service no longer runs.",
r'''
for d in $(broken_deploys); do
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"replace","path":"/spec/template/spec/containers/0/command","value":["sleep","infinity"]}]' || true
done
true
''')
case("bad-command__w5_scale_to_zero", "fail",
 "silence the crash loop by scaling the crashing deployment to 0.",
r'''
for d in $(broken_deploys); do kubectl scale deploy "$d" -n $NS --replicas=0; done
true
''')

# ---------------- cpu-stress ----------------
case("cpu-stress__c3_pause_via_merge_patch", "pass",
 "pause the StressChaos with a merge patch of the pause annotation (kubectl patch rather than annotate).",
r'''
chaos_of stress | while read r n ns; do
  kubectl patch "$r" "$n" -n "$ns" --type=merge -p '{"metadata":{"annotations":{"experiment.chaos-mesh.org/pause":"true"}}}'
done
true
''')
case("cpu-stress__w3_raise_cpu_limit_of_target", "fail",
 "symptom fix: give the stressed service more CPU; the stressor keeps running.",
r'''
chaos_of stress | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl set resources deploy "$t" -n $NS --limits=cpu=2 --requests=cpu=500m
  done
done
true
''')
case("cpu-stress__w4_rollout_restart_target", "fail",
 "restart the stressed service; the experiment selects the new pods too.",
r'''
chaos_of stress | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl rollout restart deploy "$t" -n $NS
  done
done
true
''')

# ---------------- memory-stress ----------------
case("memory-stress__c2_pause_chaos", "pass",
 "pause the StressChaos with chaos-mesh's pause annotation.",
r'''
chaos_of stress | while read r n ns; do kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite; done
true
''')
case("memory-stress__w3_rollout_restart_target", "fail",
 "restart the OOMing service; the stressor is re-applied to the new pods.",
r'''
chaos_of stress | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl rollout restart deploy "$t" -n $NS; done
done
true
''')
case("memory-stress__w4_scale_up_target", "fail",
 "add replicas to the memory-stressed service; every replica is stressed.",
r'''
chaos_of stress | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl scale deploy "$t" -n $NS --replicas=3; done
done
true
''')

# ---------------- network-delay ----------------
case("network-delay__c2_pause_chaos", "pass",
 "pause the NetworkChaos (delay) with the pause annotation.",
r'''
chaos_of network | while read r n ns; do kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite; done
true
''')
case("network-delay__w3_delete_target_pods", "fail",
 "delete the delayed pods; the chaos applies to the replacements.",
r'''
chaos_of network | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done; done
done
true
''')
case("network-delay__w4_raise_caller_timeouts_by_scaling_frontend", "fail",
 "scale the user-facing frontend (a caller) to absorb latency; the delay stays.",
r'''
kubectl scale deploy frontend -n $NS --replicas=3 || true
true
''')

# ---------------- network-partition ----------------
case("network-partition__c2_pause_chaos", "pass",
 "pause the partition NetworkChaos with the pause annotation.",
r'''
chaos_of network | while read r n ns; do kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite; done
true
''')
case("network-partition__w3_rollout_restart_target", "fail",
 "restart the partitioned service.",
r'''
chaos_of network | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl rollout restart deploy "$t" -n $NS; done
done
true
''')
case("network-partition__w4_add_allow_all_networkpolicy", "fail",
 "wrong object: add an allow-all NetworkPolicy; the partition is chaos-mesh's (iptables), not a policy.",
r'''
cat <<'EOF' | kubectl apply -f -
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: allow-all, namespace: otel-demo}
spec:
  podSelector: {}
  policyTypes: [Ingress, Egress]
  ingress: [{}]
  egress: [{}]
EOF
true
''')

# ---------------- dns-failure ----------------
case("dns-failure__c2_pause_chaos", "pass",
 "pause the DNSChaos with the pause annotation.",
r'''
chaos_of dns | while read r n ns; do kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite; done
true
''')
case("dns-failure__w3_delete_target_pods", "fail",
 "delete the pods whose lookups fail; the DNSChaos applies to the new ones.",
r'''
chaos_of dns | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done; done
done
true
''')
case("dns-failure__w4_scale_coredns", "fail",
 "wrong object: scale CoreDNS up, blaming cluster DNS capacity.",
r'''
kubectl scale deploy coredns -n kube-system --replicas=3 2>/dev/null || true
true
''')

# ---------------- feature-flag ----------------
case("feature-flag__c3_set_flag_state_disabled", "pass",
 "set the state of each flag whose default variant is on to DISABLED (flagd then answers the code default).",
r'''
cfg=$(kubectl get configmap flagd-config -n $NS -o jsonpath='{.data.demo\.flagd\.json}')
new=$(printf '%s' "$cfg" | python3 -c 'import json,sys; d=json.load(sys.stdin)
for k,v in d["flags"].items():
    dv=v.get("defaultVariant"); val=v.get("variants",{}).get(dv)
    if v.get("state")=="ENABLED" and dv!="off" and val not in (False,0,None,"off"): v["state"]="DISABLED"
print(json.dumps(d, indent=2))')
kubectl create configmap flagd-config -n $NS --from-literal=demo.flagd.json="$new" --dry-run=client -o yaml | kubectl apply -f -
true
''')
case("feature-flag__w3_restart_flagd", "fail",
 "restart flagd; it reloads the same ConfigMap with the flag still on.",
r'''
kubectl rollout restart deploy flagd -n $NS || true
true
''')
case("feature-flag__w4_scale_flagd_to_zero", "fail",
 "destructive: stop flagd so no flag is served at all.",
r'''
kubectl scale deploy flagd -n $NS --replicas=0 || true
true
''')

# ---------------- network-policy ----------------
case("network-policy__c3_allow_ingress_from_namespace", "pass",
 "keep the policy but give it an ingress rule admitting every pod of the application namespace (the demo's callers).",
r'''
for p in $(kubectl get networkpolicy -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  kubectl patch networkpolicy "$p" -n $NS --type=merge -p '{"spec":{"ingress":[{"from":[{"podSelector":{}}]}]}}'
done
true
''')
case("network-policy__w4_allow_only_one_unrelated_source", "fail",
 "add an ingress rule for one source (the load generator) only; the real callers stay blocked. (debatable if load-generator is the only caller)",
r'''
for p in $(kubectl get networkpolicy -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  kubectl patch networkpolicy "$p" -n $NS --type=merge -p '{"spec":{"ingress":[{"from":[{"podSelector":{"matchLabels":{"app.kubernetes.io/name":"load-generator"}}}]}]}}'
done
true
''')
case("network-policy__w5_scale_caller", "fail",
 "scale up the frontend whose calls fail.",
r'''
kubectl scale deploy frontend -n $NS --replicas=3 || true
true
''')

# ---------------- node-disk-pressure ----------------
case("node-disk-pressure__w5_drain_pressured_node", "fail",
 "drain the pressured node: evicts its running pods; the pending pod still has nowhere to run.",
r'''
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="DiskPressure")].status}{"\n"}{end}' | awk '$2=="True"{print $1}'); do
  kubectl drain "$n" --ignore-daemonsets --delete-emptydir-data --force --timeout=30s || true
done
true
''')
case("node-disk-pressure__w6_delete_pressured_node", "fail",
 "destructive: delete the Node object of the pressured node.",
r'''
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="DiskPressure")].status}{"\n"}{end}' | awk '$2=="True"{print $1}'); do
  kubectl delete node "$n" --wait=false || true
done
true
''')

# ---------------- node-selector ----------------
case("node-selector__c3_selector_to_existing_label", "pass",
 "replace the unsatisfiable nodeSelector by one every node has (kubernetes.io/os=linux). (debatable: keeps a selector instead of removing it)",
r'''
for d in $(broken_deploys); do
  ns_sel=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.nodeSelector}')
  [ -z "$ns_sel" ] && continue
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"replace","path":"/spec/template/spec/nodeSelector","value":{"kubernetes.io/os":"linux"}}]'
done
true
''')
case("node-selector__w3_rollout_restart", "fail",
 "restart the pending deployment; same selector.",
r'''
for d in $(broken_deploys); do kubectl rollout restart deploy "$d" -n $NS; done
true
''')

# ---------------- nonexistent-image ----------------
case("nonexistent-image__c3_undo_to_explicit_revision", "pass",
 "roll back to the previous revision named explicitly (--to-revision).",
r'''
for d in $(broken_deploys); do
  r=$(prev_revision "$d")
  if [ -n "$r" ]; then kubectl rollout undo deploy/"$d" -n $NS --to-revision="$r"; fi
done
true
''')
case("nonexistent-image__w3_image_pull_policy_never", "fail",
 "symptom fix: set imagePullPolicy Never so the kubelet stops pulling; the image is still absent.",
r'''
for d in $(broken_deploys); do
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"replace","path":"/spec/template/spec/containers/0/imagePullPolicy","value":"Never"}]' || true
done
true
''')
case("nonexistent-image__w4_tag_latest", "fail",
 "set the image to the ':latest' tag of the same repository (unpinned, and not the release the rest of the demo runs). (debatable)",
r'''
for d in $(broken_deploys); do
  img=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].image}')
  c=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].name}')
  kubectl set image deploy/"$d" -n $NS "$c=${img%:*}:latest"
done
true
''')

# ---------------- oom-killed ----------------
case("oom-killed__c3_json_patch_limit_1Gi", "pass",
 "raise the container's memory limit to 1Gi (JSON patch), request to 256Mi.",
r'''
for d in $(broken_deploys); do
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"add","path":"/spec/template/spec/containers/0/resources","value":{"limits":{"memory":"1Gi"},"requests":{"memory":"256Mi"}}}]'
done
true
''')
case("oom-killed__w3_raise_request_only", "fail",
 "raise the memory request but keep the too-low limit; the container still OOMs at the limit.",
r'''
for d in $(broken_deploys); do
  lim=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].resources.limits.memory}')
  kubectl set resources deploy "$d" -n $NS --requests=memory="${lim:-32Mi}"
done
true
''')
case("oom-killed__w4_scale_up", "fail",
 "add replicas to the OOMing deployment; each replica OOMs.",
r'''
for d in $(broken_deploys); do kubectl scale deploy "$d" -n $NS --replicas=3; done
true
''')

# ---------------- readiness-probe ----------------
case("readiness-probe__c3_probe_to_declared_port", "pass",
 "point the readiness probe (tcpSocket/httpGet/grpc) at the container's declared port.",
r'''
for d in $(broken_deploys); do
  port=$(cport_of "$d"); [ -z "$port" ] && continue
  kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
port=int(sys.argv[1]); d=json.load(sys.stdin); c=d["spec"]["template"]["spec"]["containers"][0]
p=c.get("readinessProbe") or {}
for k in ("tcpSocket","httpGet","grpc"):
    if k in p: p[k]["port"]=port
print(json.dumps([{"op":"replace","path":"/spec/template/spec/containers/0/readinessProbe","value":p}]))' "$port" > /tmp/rp.json
  kubectl patch deploy "$d" -n $NS --type=json -p="$(cat /tmp/rp.json)"
done
true
''')
case("readiness-probe__w3_raise_failure_threshold", "fail",
 "symptom fix: raise failureThreshold/initialDelay; the probe still checks a port nothing listens on.",
r'''
for d in $(broken_deploys); do
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"add","path":"/spec/template/spec/containers/0/readinessProbe/failureThreshold","value":30},{"op":"add","path":"/spec/template/spec/containers/0/readinessProbe/initialDelaySeconds","value":60}]' || true
done
true
''')
case("readiness-probe__w4_rollout_restart", "fail",
 "restart the not-ready deployment.",
r'''
for d in $(broken_deploys); do kubectl rollout restart deploy "$d" -n $NS; done
true
''')

# ---------------- resource-quota ----------------
case("resource-quota__w3_scale_target_to_zero", "fail",
 "scale the deployment that cannot get pods to 0 so the ReplicaSet stops failing (no service).",
r'''
for d in $(broken_deploys); do kubectl scale deploy "$d" -n $NS --replicas=0; done
true
''')
case("resource-quota__w4_raise_pods_only", "fail",
 "raise only the quota's pod count; the memory/CPU hard limits still refuse the pod. (fails only if the quota bounds resources too)",
r'''
for q in $(kubectl get resourcequota -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  kubectl patch resourcequota "$q" -n $NS --type=merge -p '{"spec":{"hard":{"pods":"200"}}}'
done
true
''')
case("resource-quota__c3_raise_every_hard_limit", "pass",
 "multiply every hard limit of the namespace quota by 10 (pods, cpu, memory, requests and limits).",
r'''
for q in $(kubectl get resourcequota -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  patch=$(kubectl get resourcequota "$q" -n $NS -o json | python3 -c '
import json,re,sys
d=json.load(sys.stdin); h=d["spec"].get("hard",{}); out={}
for k,v in h.items():
    m=re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(v))
    if not m: continue
    n=float(m.group(1))*10; out[k]=("%d" % n if n==int(n) else "%g" % n)+m.group(2)
print(json.dumps({"spec":{"hard":out}}))')
  kubectl patch resourcequota "$q" -n $NS --type=merge -p "$patch"
done
true
''')

# ---------------- scaled-to-zero ----------------
case("scaled-to-zero__c2_patch_replicas", "pass",
 "merge-patch spec.replicas of the zero deployment back to 1.",
r'''
for d in $(zero_deploys); do kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"replicas":1}}'; done
true
''')
case("scaled-to-zero__w3_rollout_undo", "fail",
 "rollout undo: replicas are not part of the pod template, the deployment still wants 0.",
r'''
for d in $(zero_deploys); do kubectl rollout undo deploy/"$d" -n $NS || true; done
true
''')
case("scaled-to-zero__w4_scale_every_other_deployment", "fail",
 "scale every non-zero deployment to 2 replicas (wrong objects; the zero one stays 0).",
r'''
z=$(zero_deploys)
for d in $(kubectl get deploy -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  echo "$z" | grep -qx "$d" && continue
  kubectl scale deploy "$d" -n $NS --replicas=2
done
true
''')

# ---------------- wrong-env-var ----------------
case("wrong-env-var__c3_set_port_env_to_container_port", "pass",
 "set the crashing service's own <SERVICE>_PORT env var back to the container's declared port (only if it differs).",
r'''
for d in $(broken_deploys); do
  port=$(cport_of "$d"); [ -z "$port" ] && continue
  key="$(echo "$d" | tr 'a-z-' 'A-Z_')_PORT"
  v=$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[0].env[?(@.name=='$key')].value}")
  if [ -n "$v" ] && [ "$v" != "$port" ]; then kubectl set env deploy/"$d" -n $NS "$key=$port"; fi
done
true
''')
case("wrong-env-var__w3_remove_port_env", "fail",
 "delete the service's <SERVICE>_PORT variable instead of correcting it; the service needs it to know where to listen.",
r'''
for d in $(broken_deploys); do
  key="$(echo "$d" | tr 'a-z-' 'A-Z_')_PORT"
  kubectl set env deploy/"$d" -n $NS "$key-" || true
done
true
''')
case("wrong-env-var__w4_scale_up", "fail",
 "add replicas to the crash-looping deployment.",
r'''
for d in $(broken_deploys); do kubectl scale deploy "$d" -n $NS --replicas=3; done
true
''')

# ---------------- wrong-target-port ----------------
FIND_BAD_SVC = r'''
bad_svcs() {
  for s in $(kubectl get svc -n $NS -o jsonpath='{.items[*].metadata.name}'); do
    d=$(deploy_for_svc "$s") || continue
    tp=$(kubectl get svc "$s" -n $NS -o jsonpath='{.spec.ports[0].targetPort}')
    ports=$(kubectl get deploy "$d" -n $NS -o jsonpath='{range .spec.template.spec.containers[*].ports[*]}{.containerPort} {.name}{"\n"}{end}')
    [ -z "$ports" ] && continue
    echo "$ports" | awk -v t="$tp" '$1==t || $2==t {f=1} END {exit !f}' || echo "$s $d"
  done
}
'''
case("wrong-target-port__c2_target_port_by_name", "pass",
 "set the Service's targetPort to the container port's name (named port).",
FIND_BAD_SVC + r'''
bad_svcs | while read s d; do
  pn=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].ports[0].name}')
  pp=$(cport_of "$d")
  if [ -n "$pn" ]; then v="\"$pn\""; else v="$pp"; fi
  kubectl patch svc "$s" -n $NS --type=json -p="[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":$v}]"
done
true
''')
case("wrong-target-port__w3_change_container_port_decl", "fail",
 "wrong object: change the pods' declared containerPort to the Service's wrong targetPort; the process still listens on its real port.",
FIND_BAD_SVC + r'''
bad_svcs | while read s d; do
  tp=$(kubectl get svc "$s" -n $NS -o jsonpath='{.spec.ports[0].targetPort}')
  kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/ports/0/containerPort\",\"value\":$tp}]" || true
done
true
''')
case("wrong-target-port__w4_scale_backend", "fail",
 "scale the Service's deployment up; no replica listens on the targetPort.",
FIND_BAD_SVC + r'''
bad_svcs | while read s d; do kubectl scale deploy "$d" -n $NS --replicas=3; done
true
''')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "cases"), exist_ok=True)
    with open(os.path.join(out, "_common.sh"), "w") as f:
        f.write(COMMON)
    for name in sorted(CASES):
        label, why, body = CASES[name]
        with open(os.path.join(out, "cases", name + ".sh"), "w") as f:
            f.write(f"# expect: {label} — {why}\n{body}")
    rows = ["| fault type | case | label | remedy |", "|---|---|---|---|"]
    for name in sorted(CASES):
        label, why, _ = CASES[name]
        ft, c = name.split("__")
        rows.append(f"| {ft} | {c} | {label} | {why} |")
    with open(os.path.join(out, "labels.md"), "w") as f:
        f.write("\n".join(rows) + "\n")
    print(f"{len(CASES)} cases written to {out}")

if __name__ == "__main__":
    main()
