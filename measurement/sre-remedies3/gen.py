#!/usr/bin/env python3
"""Write the sre-remedies3 cases (blind, held-out) into OUTDIR: OUTDIR/_common.sh and
OUTDIR/cases/<fault>__<case>.sh, in the layout of tests/sre/independent_remedies/.
Covers the mitigation fault types that sre-remedies2 does not. Each case's first line is
'# expect: pass|fail — why'. Deterministic; stdlib only.   Usage: python3 gen.py OUTDIR"""
import os, sys

COMMON = r'''# Prepended to every case (the agent sandbox sees no host files). Helpers only LOOK at the
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
'''

CASES = {}
def case(name, label, why, body):
    CASES[name] = (label, why, body.strip("\n") + "\n")

# Deployments whose pods are Pending with a FailedScheduling reason (any).
PENDING = r'''
pending_deploys() {
  kubectl get pods -n $NS --field-selector=status.phase=Pending --no-headers -o custom-columns=N:.metadata.name 2>/dev/null |
    sed -E 's/-[a-z0-9]+-[a-z0-9]+$//' | sort -u | while read d; do
      kubectl get deploy "$d" -n $NS >/dev/null 2>&1 && echo "$d"
    done
  true
}
'''

# ================= anti-affinity =================
case("anti-affinity__c1_remove_required_anti_affinity", "pass",
 "find the Pending deployment whose template has a required podAntiAffinity and remove that podAntiAffinity (JSON patch), keeping any other affinity.",
PENDING + r'''
for d in $(pending_deploys); do
  kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
t=json.load(sys.stdin)["spec"]["template"]["spec"]; a=t.get("affinity") or {}
if "podAntiAffinity" in a:
    if len(a)==1: print(json.dumps([{"op":"remove","path":"/spec/template/spec/affinity"}]))
    else: print(json.dumps([{"op":"remove","path":"/spec/template/spec/affinity/podAntiAffinity"}]))' > /tmp/aa.json
  [ -s /tmp/aa.json ] && kubectl patch deploy "$d" -n $NS --type=json --patch-file /tmp/aa.json
  rm -f /tmp/aa.json
done
true
''')
case("anti-affinity__w1_tolerate_every_taint", "fail",
 "wrong mechanism: give the Pending deployment a toleration for every taint; the scheduler refuses it for anti-affinity, not for a taint.",
PENDING + r'''
for d in $(pending_deploys); do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"tolerations":[{"operator":"Exists"}]}}}}'
done
true
''')
case("anti-affinity__w2_scale_avoided_service_to_zero", "fail",
 "destructive, wrong object: scale to 0 the healthy service the anti-affinity rule avoids, so the Pending pod can take its node.",
PENDING + r'''
for d in $(pending_deploys); do
  kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
t=json.load(sys.stdin)["spec"]["template"]["spec"]
for term in ((t.get("affinity") or {}).get("podAntiAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution") or []:
    for k,v in ((term.get("labelSelector") or {}).get("matchLabels") or {}).items(): print(v)
    for e in (term.get("labelSelector") or {}).get("matchExpressions") or []:
        for v in e.get("values") or []: print(v)' | sort -u | while read v; do
    [ "$v" = "$d" ] && continue
    kubectl get deploy "$v" -n $NS >/dev/null 2>&1 && kubectl scale deploy "$v" -n $NS --replicas=0
  done
done
true
''')

# ================= cordoned-node =================
case("cordoned-node__c1_patch_unschedulable_false", "pass",
 "find the node(s) with spec.unschedulable=true and set it back to false with a merge patch (what uncordon does, without the uncordon verb).",
r'''
for n in $(kubectl get nodes --no-headers -o custom-columns=N:.metadata.name,U:.spec.unschedulable | awk '$2=="true"{print $1}'); do
  kubectl patch node "$n" --type=merge -p '{"spec":{"unschedulable":false}}'
done
true
''')
case("cordoned-node__w1_delete_cordoned_node", "fail",
 "destructive: delete the cordoned Node object instead of uncordoning it.",
r'''
for n in $(kubectl get nodes --no-headers -o custom-columns=N:.metadata.name,U:.spec.unschedulable | awk '$2=="true"{print $1}'); do
  kubectl delete node "$n"
done
true
''')
case("cordoned-node__w2_tolerate_unschedulable_taint", "fail",
 "workaround on the wrong object: add a toleration for node.kubernetes.io/unschedulable to the Pending deployment so it lands on the cordoned node; the node stays cordoned. (debatable: on a real cluster the pod would run)",
PENDING + r'''
for d in $(pending_deploys); do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"tolerations":[{"key":"node.kubernetes.io/unschedulable","operator":"Exists","effect":"NoSchedule"}]}}}}'
done
true
''')

# ================= dns-policy =================
DNSBAD = "t.get('dnsPolicy') in ('Default','None') and not t.get('hostNetwork')"
case("dns-policy__c1_set_cluster_first", "pass",
 "find the deployment whose template sets dnsPolicy Default/None and set it to ClusterFirst (dropping any dnsConfig that came with None).",
r'''
for d in $(deploys_where "''' + DNSBAD + r'''"); do
  if [ -n "$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.dnsConfig}')" ]; then
    kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"remove","path":"/spec/template/spec/dnsConfig"}]'
  fi
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"dnsPolicy":"ClusterFirst"}}}}'
done
true
''')
case("dns-policy__w1_restart_coredns", "fail",
 "wrong object: restart CoreDNS; the faulty pod never asks it (its resolver is the node's).",
r'''
kubectl rollout restart deploy/coredns -n kube-system 2>/dev/null || kubectl delete pods -n kube-system -l k8s-app=kube-dns
true
''')
case("dns-policy__w2_public_nameserver", "fail",
 "wrong fix: switch the pod to dnsPolicy None with a public resolver (8.8.8.8); cluster Service names still do not resolve.",
r'''
for d in $(deploys_where "''' + DNSBAD + r'''"); do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"dnsPolicy":"None","dnsConfig":{"nameservers":["8.8.8.8"]}}}}}'
done
true
''')

# ================= http-abort =================
case("http-abort__c1_delete_httpchaos", "pass",
 "the HTTPChaos experiment (or the Schedule that spawns it) is the cause; delete it.",
r'''
chaos_of httpchaos | while read r n ns; do kubectl delete "$r" "$n" -n "$ns"; done
true
''')
case("http-abort__w1_rollout_restart_target", "fail",
 "restart the service whose responses are aborted; the experiment selects the new pods too.",
r'''
chaos_of httpchaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl rollout restart deploy "$t" -n $NS
  done
done
true
''')
case("http-abort__w2_scale_up_target", "fail",
 "add replicas to the aborted service; every replica is selected by the HTTPChaos.",
r'''
chaos_of httpchaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl scale deploy "$t" -n $NS --replicas=3
  done
done
true
''')

# ================= init-container =================
FAILING_INIT = r'''
# "deployment initContainerName" for pods whose init container is crash-looping or exited non-zero.
failing_inits() {
  kubectl get pods -n $NS -o json | python3 -c '
import json,sys
for p in json.load(sys.stdin)["items"]:
    for s in p.get("status",{}).get("initContainerStatuses") or []:
        w=(s.get("state") or {}).get("waiting") or {}
        t=(s.get("lastState") or {}).get("terminated") or (s.get("state") or {}).get("terminated") or {}
        if w.get("reason") in ("CrashLoopBackOff","RunContainerError","CreateContainerError") or (t and t.get("exitCode",0)!=0):
            print(p["metadata"]["name"], s["name"])' | while read p c; do
    d=$(echo "$p" | sed -E 's/-[a-z0-9]+-[a-z0-9]+$//')
    kubectl get deploy "$d" -n $NS >/dev/null 2>&1 && echo "$d $c"
  done | sort -u
  true
}
# Fallback when pods show no init status: init containers of a not-ready deployment that its
# previous ReplicaSet's template did not have (what the last rollout added).
new_inits() {
  kubectl get rs -n $NS -o json > /tmp/rs.json
  for d in $(broken_deploys); do
    kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
d=json.load(sys.stdin); name=d["metadata"]["name"]
cur=[c["name"] for c in d["spec"]["template"]["spec"].get("initContainers") or []]
rev=int(d["metadata"].get("annotations",{}).get("deployment.kubernetes.io/revision","0"))
prev=None
for rs in json.load(open("/tmp/rs.json"))["items"]:
    if not any(o.get("kind")=="Deployment" and o.get("name")==name for o in rs["metadata"].get("ownerReferences") or []): continue
    r=int(rs["metadata"].get("annotations",{}).get("deployment.kubernetes.io/revision","0"))
    if r<rev and (prev is None or r>prev[0]): prev=(r,[c["name"] for c in rs["spec"]["template"]["spec"].get("initContainers") or []])
for c in cur:
    if prev is not None and c not in prev[1]: print(name, c)'
  done
  true
}
# The crashing init containers, by status, else by the last rollout's diff.
bad_inits() { x=$(failing_inits); if [ -n "$x" ]; then echo "$x"; else new_inits; fi; }
'''
case("init-container__c1_remove_failing_init_container", "pass",
 "find the init container whose status is crash-looping, and remove only that init container from its deployment's template.",
FAILING_INIT + r'''
bad_inits | while read d c; do
  idx=$(kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
ic=json.load(sys.stdin)["spec"]["template"]["spec"].get("initContainers") or []
print(next((i for i,x in enumerate(ic) if x["name"]==sys.argv[1]), ""))' "$c")
  [ -n "$idx" ] && kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"remove\",\"path\":\"/spec/template/spec/initContainers/$idx\"}]"
done
true
''')
case("init-container__w1_drop_main_container_command", "fail",
 "wrong container: remove the main container's command/args override; the failing init container still blocks the pod.",
FAILING_INIT + r'''
bad_inits | while read d c; do
  for f in command args; do
    [ -n "$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[0].$f}")" ] &&
      kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"remove\",\"path\":\"/spec/template/spec/containers/0/$f\"}]"
  done
done
true
''')
case("init-container__w2_rollout_restart", "fail",
 "restart the deployment whose init container crashes; same init container, same crash.",
FAILING_INIT + r'''
bad_inits | while read d c; do kubectl rollout restart deploy "$d" -n $NS; done
true
''')

# ================= io-fault =================
case("io-fault__c1_pause_iochaos", "pass",
 "pause the IOChaos (and any Schedule that spawns it) with chaos-mesh's pause annotation.",
r'''
chaos_of iochaos | while read r n ns; do
  kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite
done
true
''')
case("io-fault__w1_restart_datastore", "fail",
 "restart the Valkey datastore whose volume returns I/O errors; the IOChaos selects the new pod too.",
r'''
chaos_of iochaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl rollout restart deploy "$t" -n $NS
  done
done
true
''')
case("io-fault__w2_restart_cart_client", "fail",
 "wrong object: restart the cart service (the datastore's client that reports the errors); the I/O fault is in valkey-cart.",
r'''
kubectl rollout restart deploy cart -n $NS 2>/dev/null || kubectl rollout restart deploy cartservice -n $NS
true
''')

# ================= jvm-exception =================
case("jvm-exception__c1_delete_jvmchaos", "pass",
 "the JVMChaos injecting an exception into the ad service (or its Schedule) is the cause; delete it.",
r'''
chaos_of jvmchaos | while read r n ns; do kubectl delete "$r" "$n" -n "$ns"; done
true
''')
case("jvm-exception__w1_raise_target_resources", "fail",
 "symptom fix: give the failing Java service more memory and CPU; the injected exception is untouched.",
r'''
chaos_of jvmchaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl set resources deploy "$t" -n $NS --limits=cpu=1,memory=1Gi --requests=cpu=250m,memory=512Mi
  done
done
true
''')
case("jvm-exception__w2_delete_target_pods", "fail",
 "delete the failing Java service's pods; the JVMChaos re-attaches to the new ones.",
r'''
chaos_of jvmchaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done
  done
done
true
''')

# ================= missing-pvc =================
MISSING_PVC = r'''
# "deployment volumeName claimName" for volumes whose PersistentVolumeClaim does not exist.
missing_claims() {
  have=" $(kubectl get pvc -n $NS --no-headers -o custom-columns=N:.metadata.name 2>/dev/null | tr '\n' ' ') "
  kubectl get deploy -n $NS -o json | python3 -c '
import json,sys
have=sys.argv[1].split()
for d in json.load(sys.stdin)["items"]:
    for v in d["spec"]["template"]["spec"].get("volumes") or []:
        c=(v.get("persistentVolumeClaim") or {}).get("claimName")
        if c and c not in have: print(d["metadata"]["name"], v["name"], c)' "$have"
}
'''
case("missing-pvc__c1_remove_volume_and_mounts", "pass",
 "find the deployment mounting a PersistentVolumeClaim that does not exist; remove that volume and every volumeMount of it.",
MISSING_PVC + r'''
missing_claims | while read d v c; do
  kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
s=json.load(sys.stdin)["spec"]["template"]["spec"]; v=sys.argv[1]; ops=[]
for kind in ("initContainers","containers"):
    for i,ct in enumerate(s.get(kind) or []):
        for j in reversed([j for j,m in enumerate(ct.get("volumeMounts") or []) if m["name"]==v]):
            ops.append({"op":"remove","path":"/spec/template/spec/%s/%d/volumeMounts/%d"%(kind,i,j)})
for k in reversed([k for k,x in enumerate(s.get("volumes") or []) if x["name"]==v]):
    ops.append({"op":"remove","path":"/spec/template/spec/volumes/%d"%k})
print(json.dumps(ops))' "$v" > /tmp/pvc.json
  kubectl patch deploy "$d" -n $NS --type=json --patch-file /tmp/pvc.json
done
true
''')
case("missing-pvc__c2_create_claim_default_class", "pass",
 "create the claim the deployment expects (1Gi, ReadWriteOnce, the cluster's default storage class) so the pod can bind and start. (debatable: the rollback is the cleaner repair; this one keeps the new volume with empty data)",
MISSING_PVC + r'''
missing_claims | while read d v c; do
  cat > /tmp/pvc.yaml <<EOF
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: $c
  namespace: $NS
spec:
  accessModes: ["ReadWriteOnce"]
  resources:
    requests:
      storage: 1Gi
EOF
  kubectl apply -f /tmp/pvc.yaml
done
true
''')
case("missing-pvc__w1_create_claim_nonexistent_class", "fail",
 "near miss: create the missing claim, but with a storage class the cluster does not have (fast-ssd); it stays Pending and unbound, and so does the pod.",
MISSING_PVC + r'''
missing_claims | while read d v c; do
  cat > /tmp/pvc.yaml <<EOF
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: $c
  namespace: $NS
spec:
  storageClassName: fast-ssd
  accessModes: ["ReadWriteOnce"]
  resources:
    requests:
      storage: 1Gi
EOF
  kubectl apply -f /tmp/pvc.yaml
done
true
''')
case("missing-pvc__w2_delete_pending_pods", "fail",
 "delete the Pending pods; the replacements reference the same missing claim.",
MISSING_PVC + r'''
missing_claims | while read d v c; do
  for p in $(pods_of "$d"); do kubectl delete pod "$p" -n $NS --wait=false; done
done
true
''')

# ================= missing-secret =================
MISSING_SECRET = r'''
# "deployment containerIndex envIndex secretName" for env vars referencing a Secret that does not exist.
missing_secret_refs() {
  have=" $(kubectl get secret -n $NS --no-headers -o custom-columns=N:.metadata.name 2>/dev/null | tr '\n' ' ') "
  kubectl get deploy -n $NS -o json | python3 -c '
import json,sys
have=sys.argv[1].split()
for d in json.load(sys.stdin)["items"]:
    for i,c in enumerate(d["spec"]["template"]["spec"]["containers"]):
        for j,e in enumerate(c.get("env") or []):
            r=(e.get("valueFrom") or {}).get("secretKeyRef") or {}
            if r and r.get("name") not in have and not r.get("optional"):
                print(d["metadata"]["name"], i, j, r.get("name"))' "$have"
}
'''
case("missing-secret__c1_remove_env_var", "pass",
 "find the env var whose secretKeyRef names a Secret that does not exist and remove that variable from the deployment.",
MISSING_SECRET + r'''
missing_secret_refs | sort -k1,1 -k2,2n -k3,3nr | while read d i j s; do
  kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"remove\",\"path\":\"/spec/template/spec/containers/$i/env/$j\"}]"
done
true
''')
case("missing-secret__c2_mark_reference_optional", "pass",
 "mark the dangling secretKeyRef optional: true, so the container starts without the variable (same effect as removing it). (debatable: leaves a dead reference in the spec)",
MISSING_SECRET + r'''
missing_secret_refs | while read d i j s; do
  kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"add\",\"path\":\"/spec/template/spec/containers/$i/env/$j/valueFrom/secretKeyRef/optional\",\"value\":true}]"
done
true
''')
case("missing-secret__w1_create_placeholder_secret", "fail",
 "invent the missing credential: create the Secret with a placeholder value 'changeme' under the referenced key; the pod starts with a value nobody issued. (debatable: the pod does start)",
MISSING_SECRET + r'''
missing_secret_refs | while read d i j s; do
  k=$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[$i].env[$j].valueFrom.secretKeyRef.key}")
  kubectl get secret "$s" -n $NS >/dev/null 2>&1 || kubectl create secret generic "$s" -n $NS --from-literal="$k=changeme"
done
true
''')
case("missing-secret__w2_rollout_restart", "fail",
 "restart the deployment stuck in CreateContainerConfigError; the Secret is still missing.",
MISSING_SECRET + r'''
missing_secret_refs | awk '{print $1}' | sort -u | while read d; do kubectl rollout restart deploy "$d" -n $NS; done
true
''')

# ================= network-loss =================
LOSS = r'''
loss_chaos() {
  chaos_of networkchaos | while read r n ns; do
    a=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}{.spec.networkChaos.action}')
    [ "$a" = "loss" ] && echo "$r $n $ns"
  done
  true
}
'''
case("network-loss__c1_pause_loss_chaos", "pass",
 "pause the NetworkChaos whose action is loss (and its Schedule, if any) with the pause annotation.",
LOSS + r'''
loss_chaos | while read r n ns; do
  kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite
done
true
''')
case("network-loss__w1_delete_target_pods", "fail",
 "delete the pods that lose packets; the NetworkChaos applies to the replacements.",
LOSS + r'''
loss_chaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done
  done
done
true
''')
case("network-loss__w2_scale_frontend", "fail",
 "scale the user-facing frontend (a caller) to 3 to absorb the time-outs; the loss stays.",
r'''
kubectl scale deploy frontend -n $NS --replicas=3
true
''')

# ================= pod-failure =================
PODFAIL = r'''
podfail_chaos() {
  chaos_of podchaos | while read r n ns; do
    a=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}{.spec.podChaos.action}')
    [ "$a" = "pod-failure" ] && echo "$r $n $ns"
  done
  true
}
'''
case("pod-failure__c1_delete_podchaos", "pass",
 "delete the PodChaos whose action is pod-failure (and its Schedule, if any); the paused containers come back.",
PODFAIL + r'''
podfail_chaos | while read r n ns; do kubectl delete "$r" "$n" -n "$ns"; done
true
''')
case("pod-failure__w1_delete_target_pods", "fail",
 "delete the never-Ready pods; the pod-failure experiment takes the replacements too.",
PODFAIL + r'''
podfail_chaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done
  done
done
true
''')
case("pod-failure__w2_remove_readiness_probe", "fail",
 "destructive symptom fix: remove the readiness probe of the never-Ready service; its containers are still paused by the experiment.",
PODFAIL + r'''
podfail_chaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    [ -n "$(kubectl get deploy "$t" -n $NS -o jsonpath='{.spec.template.spec.containers[0].readinessProbe}' 2>/dev/null)" ] &&
      kubectl patch deploy "$t" -n $NS --type=json -p='[{"op":"remove","path":"/spec/template/spec/containers/0/readinessProbe"}]'
  done
done
true
''')

# ================= service-selector =================
BADSEL = r'''
# "service deployment" for Services with a selector that matches no pod, and the deployment of the
# same name (the demo names each Service after its Deployment).
bad_selectors() {
  for s in $(kubectl get svc -n $NS --no-headers -o custom-columns=N:.metadata.name); do
    sel=$(kubectl get svc "$s" -n $NS -o json | python3 -c '
import json,sys
s=json.load(sys.stdin)["spec"].get("selector") or {}
print(",".join("%s=%s"%kv for kv in sorted(s.items())))')
    [ -z "$sel" ] && continue
    n=$(kubectl get pods -n $NS -l "$sel" --no-headers 2>/dev/null | wc -l)
    [ "$n" -eq 0 ] && kubectl get deploy "$s" -n $NS >/dev/null 2>&1 && echo "$s $s"
  done
  true
}
'''
case("service-selector__c1_selector_from_deployment", "pass",
 "find the Service whose selector matches no pod; replace its selector by the matchLabels of the Deployment of the same name.",
BADSEL + r'''
bad_selectors | while read s d; do
  kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
m=json.load(sys.stdin)["spec"]["selector"]["matchLabels"]
print(json.dumps([{"op":"replace","path":"/spec/selector","value":m}]))' > /tmp/sel.json
  kubectl patch svc "$s" -n $NS --type=json --patch-file /tmp/sel.json
done
true
''')
case("service-selector__w1_repoint_target_port", "fail",
 "wrong field: set the Service's targetPort to the container's declared port; the selector still matches no pod.",
BADSEL + r'''
bad_selectors | while read s d; do
  p=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].ports[0].containerPort}')
  [ -n "$p" ] && kubectl patch svc "$s" -n $NS --type=json -p="[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":$p}]"
done
true
''')
case("service-selector__w2_delete_endpoints", "fail",
 "wrong object: delete the Service's Endpoints and EndpointSlices; the controller rebuilds them empty from the same selector.",
BADSEL + r'''
bad_selectors | while read s d; do
  kubectl delete endpoints "$s" -n $NS --ignore-not-found
  kubectl delete endpointslices -n $NS -l kubernetes.io/service-name="$s" --ignore-not-found
done
true
''')

# ================= valkey-memory =================
VALKEY = r'''
# "deployment containerIndex" of containers that run valkey-server/redis-server with the given flag.
valkey_with() {
  kubectl get deploy -n $NS -o json | python3 -c '
import json,sys
for d in json.load(sys.stdin)["items"]:
    for i,c in enumerate(d["spec"]["template"]["spec"]["containers"]):
        words=" ".join((c.get("command") or [])+(c.get("args") or []))
        if sys.argv[1] in words: print(d["metadata"]["name"], i)' "$1"
}
# Rewrite the command/args of container $2 of deployment $1 with python statements over a (list).
valkey_args_edit() {
  kubectl get deploy "$1" -n $NS -o json | python3 -c '
import json,sys
c=json.load(sys.stdin)["spec"]["template"]["spec"]["containers"][int(sys.argv[1])]
ops=[]
for f in ("command","args"):
    a=list(c.get(f) or [])
    if not a: continue
    b=a[:]
    exec(sys.argv[2])
    if b!=a: ops.append({"op":"replace","path":"/spec/template/spec/containers/%s/%s"%(sys.argv[1],f),"value":b})
print(json.dumps(ops))' "$2" "$3" > /tmp/vk.json
  [ "$(cat /tmp/vk.json)" != "[]" ] && kubectl patch deploy "$1" -n $NS --type=json --patch-file /tmp/vk.json
  true
}
'''
SET_MAXMEM = r'''
import re
def setmm(b, val):
    for k,x in enumerate(b):
        if x == "--maxmemory" and k+1 < len(b): b[k+1] = val
        elif " " in x or x.startswith("--maxmemory="): b[k] = re.sub(r"--maxmemory([ =])[0-9]+[A-Za-z]*", r"--maxmemory\g<1>" + val, x)
'''
case("valkey-memory__c1_raise_maxmemory", "pass",
 "find the Valkey container started with --maxmemory and raise the limit to 256mb (well above the cart's data).",
VALKEY + r'''
valkey_with --maxmemory | while read d i; do
  valkey_args_edit "$d" "$i" '
''' + SET_MAXMEM + r'''
setmm(b, "256mb")'
done
true
''')
case("valkey-memory__w1_raise_container_memory_limit", "fail",
 "wrong knob: raise the Valkey pod's container memory limit; Valkey's own maxmemory still refuses writes.",
VALKEY + r'''
valkey_with --maxmemory | while read d i; do
  c=$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[$i].name}")
  kubectl set resources deploy "$d" -n $NS -c "$c" --limits=memory=1Gi --requests=memory=256Mi
done
true
''')
case("valkey-memory__w2_raise_maxmemory_too_little", "fail",
 "near miss: raise maxmemory to 40mb, still below the cart's ~48 MB of data (per docs/sre-faults.md); writes still fail with OOM.",
VALKEY + r'''
valkey_with --maxmemory | while read d i; do
  valkey_args_edit "$d" "$i" '
''' + SET_MAXMEM + r'''
setmm(b, "40mb")'
done
true
''')

# ================= valkey-password =================
case("valkey-password__c1_drop_requirepass", "pass",
 "find the Valkey container started with --requirepass and remove that flag and its value from its command line.",
VALKEY + r'''
valkey_with requirepass | while read d i; do
  valkey_args_edit "$d" "$i" '
import re
out=[]; skip=False
for x in b:
    if skip: skip=False; continue
    if x=="--requirepass": skip=True; continue
    if x.startswith("--requirepass"): continue
    out.append(re.sub(r"\s*--requirepass[ =]\S+", "", x) if " " in x else x)
b[:]=out'
done
true
''')
case("valkey-password__w1_restart_cart", "fail",
 "restart the cart (the client that gets NOAUTH); it still sends no password.",
r'''
kubectl rollout restart deploy cart -n $NS 2>/dev/null || kubectl rollout restart deploy cartservice -n $NS
true
''')
case("valkey-password__w2_restart_valkey", "fail",
 "restart valkey-cart itself; it comes back with the same --requirepass.",
VALKEY + r'''
valkey_with requirepass | while read d i; do kubectl rollout restart deploy "$d" -n $NS; done
true
''')

# ================= wrong-arch-image =================
ARCH = r'''
# "deployment containerIndex image" of crash-looping deployments whose image names another CPU architecture.
arch_images() {
  kubectl get deploy -n $NS -o json | python3 -c '
import json,sys,re
for d in json.load(sys.stdin)["items"]:
    for i,c in enumerate(d["spec"]["template"]["spec"]["containers"]):
        if re.search(r"(arm64|aarch64|armv7|ppc64le|s390x)", c["image"]): print(d["metadata"]["name"], i, c["image"])'
}
'''
case("wrong-arch-image__c1_set_image_of_previous_replicaset", "pass",
 "find the deployment whose image names another architecture; set its container image back to the one its previous ReplicaSet ran.",
ARCH + r'''
arch_images | while read d i img; do
  prev=$(kubectl get rs -n $NS -o json | python3 -c '
import json,sys
d,i,img=sys.argv[1],int(sys.argv[2]),sys.argv[3]
best=None
for rs in json.load(sys.stdin)["items"]:
    if not any(o.get("kind")=="Deployment" and o.get("name")==d for o in rs["metadata"].get("ownerReferences") or []): continue
    cs=rs["spec"]["template"]["spec"]["containers"]
    if i>=len(cs) or cs[i]["image"]==img: continue
    rev=int(rs["metadata"].get("annotations",{}).get("deployment.kubernetes.io/revision","0"))
    if best is None or rev>best[0]: best=(rev,cs[i]["image"])
print(best[1] if best else "")' "$d" "$i" "$img")
  c=$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[$i].name}")
  if [ -n "$prev" ]; then kubectl set image deploy/"$d" -n $NS "$c=$prev"; else kubectl rollout undo deploy/"$d" -n $NS; fi
done
true
''')
case("wrong-arch-image__w1_node_selector_arm64", "fail",
 "pin the deployment to arm64 nodes (kubernetes.io/arch=arm64); the cluster has none, so it goes from crash-looping to Pending.",
ARCH + r'''
arch_images | while read d i img; do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"nodeSelector":{"kubernetes.io/arch":"arm64"}}}}}'
done
true
''')
case("wrong-arch-image__w2_pull_policy_always", "fail",
 "symptom fix: set imagePullPolicy Always and restart, hoping for a fresh pull; the tag is the same single-arch image.",
ARCH + r'''
arch_images | while read d i img; do
  kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"add\",\"path\":\"/spec/template/spec/containers/$i/imagePullPolicy\",\"value\":\"Always\"}]"
  kubectl rollout restart deploy "$d" -n $NS
done
true
''')

# ================= flag-* =================
def off_variant(flag):
    # python snippet: name of the variant whose value is falsy (false/0), else "off"
    return ("g=f['%s']; ov=next((k for k,v in g['variants'].items() if v in (False,0) and not isinstance(v,str)), 'off')" % flag)

case("flag-ad-failure__c1_default_variant_off", "pass",
 "set adFailure's defaultVariant back to off in flagd-config.",
r'''
flag_edit "f['adFailure']['defaultVariant']='off'"
true
''')
case("flag-ad-failure__w1_rollout_restart_ad", "fail",
 "restart the failing ad service; the flag is still served on.",
r'''
kubectl rollout restart deploy ad -n $NS
true
''')
case("flag-ad-failure__w2_turn_off_other_ad_flags", "fail",
 "wrong object: turn off adHighCpu and adManualGc (the other ad flags), leaving adFailure on.",
r'''
flag_edit "
for k in ('adHighCpu','adManualGc','adServiceHighCpu'):
    if k in f: f[k]['defaultVariant']='off'"
true
''')

case("flag-ad-high-cpu__c1_state_disabled", "pass",
 "set the state of the CPU flag (adHighCpu, or adServiceHighCpu in older demos) to DISABLED; flagd then answers the code default (off).",
r'''
flag_edit "
for k in ('adHighCpu','adServiceHighCpu'):
    if k in f and f[k].get('defaultVariant')!='off': f[k]['state']='DISABLED'"
true
''')
case("flag-ad-high-cpu__w1_raise_ad_cpu_limit", "fail",
 "symptom fix: give the ad service 2 CPUs; the flag keeps burning CPU.",
r'''
kubectl set resources deploy ad -n $NS --limits=cpu=2 --requests=cpu=500m
true
''')
case("flag-ad-high-cpu__w2_scale_ad", "fail",
 "add ad replicas; every replica evaluates the same flag.",
r'''
kubectl scale deploy ad -n $NS --replicas=3
true
''')

case("flag-ad-manual-gc__c1_on_variant_value_false", "pass",
 "set the value of adManualGc's 'on' variant to false, so the variant the flag selects now means off (the accepted 'set the variant's value to off').",
r'''
flag_edit "
g=f['adManualGc']; dv=g['defaultVariant']
if g['variants'].get(dv) not in (False,0): g['variants'][dv]=False"
true
''')
case("flag-ad-manual-gc__w1_restart_flagd", "fail",
 "restart flagd; it reloads the same ConfigMap with adManualGc on.",
r'''
kubectl rollout restart deploy flagd -n $NS
true
''')
case("flag-ad-manual-gc__w2_delete_flagd_config", "fail",
 "destructive: delete the flagd-config ConfigMap; every flag evaluation then fails.",
r'''
kubectl delete configmap flagd-config -n $NS
true
''')

case("flag-cart-failure__c1_replace_configmap_off", "pass",
 "read flagd-config as JSON, set cartFailure's defaultVariant to its zero variant, and kubectl replace the whole ConfigMap.",
r'''
kubectl get configmap flagd-config -n $NS -o json | python3 -c '
import json,sys
cm=json.load(sys.stdin); d=json.loads(cm["data"]["demo.flagd.json"]); g=d["flags"]["cartFailure"]
g["defaultVariant"]=next((k for k,v in g["variants"].items() if v in (0,False)), "off")
cm["data"]["demo.flagd.json"]=json.dumps(d, indent=2)
for k in ("resourceVersion","uid","creationTimestamp","managedFields"): cm["metadata"].pop(k, None)
print(json.dumps(cm))' > /tmp/cm.json
kubectl replace -f /tmp/cm.json
true
''')
case("flag-cart-failure__w1_lower_to_ten_percent", "fail",
 "near miss: lower cartFailure from its failing share to the 10% variant; one cart request in ten still fails (above a 5% error alert).",
r'''
flag_edit "
g=f['cartFailure']
if '10%' in g['variants']: g['defaultVariant']='10%'"
true
''')
case("flag-cart-failure__w2_scale_cart", "fail",
 "scale cart to 3 replicas; each fails the same share of requests.",
r'''
kubectl scale deploy cart -n $NS --replicas=3
true
''')

case("flag-image-slow-load__c1_default_variant_off", "pass",
 "set imageSlowLoad's defaultVariant back to off.",
r'''
flag_edit "f['imageSlowLoad']['defaultVariant']='off'"
true
''')
case("flag-image-slow-load__w1_scale_frontend", "fail",
 "scale the slow frontend; every replica delays images the same.",
r'''
kubectl scale deploy frontend -n $NS --replicas=3
true
''')
case("flag-image-slow-load__w2_restart_image_provider", "fail",
 "wrong object: restart image-provider (the image server), which the flag does not touch.",
r'''
kubectl rollout restart deploy image-provider -n $NS 2>/dev/null || kubectl rollout restart deploy imageprovider -n $NS
true
''')

case("flag-kafka-queue-problems__c1_default_variant_off", "pass",
 "set kafkaQueueProblems's defaultVariant back to off.",
r'''
flag_edit "f['kafkaQueueProblems']['defaultVariant']='off'"
true
''')
case("flag-kafka-queue-problems__w1_scale_consumers", "fail",
 "scale the lagging consumers (accounting, fraud-detection); the flag keeps flooding the queue and delaying consumption.",
r'''
for d in accounting fraud-detection; do kubectl scale deploy "$d" -n $NS --replicas=3 2>/dev/null; done
true
''')
case("flag-kafka-queue-problems__w2_restart_kafka", "fail",
 "restart the Kafka broker; the producer flood and consumer delay resume from the flag.",
r'''
kubectl rollout restart deploy kafka -n $NS 2>/dev/null || kubectl rollout restart statefulset kafka -n $NS
true
''')

case("flag-loadgenerator-flood-homepage__c1_default_variant_off", "pass",
 "set loadgeneratorFloodHomepage's defaultVariant back to off (its zero variant).",
r'''
flag_edit "
''' + off_variant("loadgeneratorFloodHomepage") + r'''
g['defaultVariant']=ov"
true
''')
case("flag-loadgenerator-flood-homepage__w1_scale_frontend", "fail",
 "scale the frontend to absorb the flood; the flood goes on.",
r'''
kubectl scale deploy frontend -n $NS --replicas=3
true
''')
case("flag-loadgenerator-flood-homepage__w2_scale_load_generator_to_zero", "fail",
 "stop the load generator altogether (scale to 0): the flood stops with all synthetic traffic and the flag stays on. (debatable: it is the flood's source)",
r'''
kubectl scale deploy load-generator -n $NS --replicas=0 2>/dev/null || kubectl scale deploy loadgenerator -n $NS --replicas=0
true
''')

case("flag-payment-failure__c1_zero_variant", "pass",
 "set paymentFailure's defaultVariant to its zero-valued variant (found by value, not by name).",
r'''
flag_edit "
''' + off_variant("paymentFailure") + r'''
g['defaultVariant']=ov"
true
''')
case("flag-payment-failure__w1_lower_to_ten_percent", "fail",
 "near miss: lower paymentFailure to the 10% variant; one charge in ten still fails.",
r'''
flag_edit "
g=f['paymentFailure']
if '10%' in g['variants']: g['defaultVariant']='10%'"
true
''')
case("flag-payment-failure__w2_rollout_restart_payment", "fail",
 "restart payment; the flag is still served.",
r'''
kubectl rollout restart deploy payment -n $NS
true
''')

case("flag-payment-unreachable__c1_default_variant_off", "pass",
 "set paymentUnreachable's defaultVariant back to off.",
r'''
flag_edit "f['paymentUnreachable']['defaultVariant']='off'"
true
''')
case("flag-payment-unreachable__w1_restart_payment", "fail",
 "wrong object: restart payment, which is healthy; checkout still dials the bad address.",
r'''
kubectl rollout restart deploy payment -n $NS
true
''')
case("flag-payment-unreachable__w2_scale_checkout", "fail",
 "scale checkout; every replica reads the same flag.",
r'''
kubectl scale deploy checkout -n $NS --replicas=3
true
''')

case("flag-product-catalog-failure__c1_targeting_to_off", "pass",
 "productCatalogFailure is turned on by its targeting rule: make every branch of the rule return off, and the default off.",
r'''
flag_edit "
def fix(x):
    if isinstance(x, list): return [fix(y) for y in x]
    if isinstance(x, dict): return {k: fix(v) for k, v in x.items()}
    return 'off' if x == 'on' else x
g=f['productCatalogFailure']
if 'targeting' in g: g['targeting']=fix(g['targeting'])
g['defaultVariant']='off'"
true
''')
case("flag-product-catalog-failure__w1_default_off_only", "fail",
 "near miss: set only defaultVariant to off; the targeting rule still returns on for the product.",
r'''
flag_edit "f['productCatalogFailure']['defaultVariant']='off'"
true
''')
case("flag-product-catalog-failure__w2_rollout_restart", "fail",
 "restart product-catalog; the flag is still served by its targeting rule.",
r'''
kubectl rollout restart deploy product-catalog -n $NS
true
''')

case("flag-recommendation-cache-failure__c1_state_disabled", "pass",
 "set recommendationCacheFailure's state to DISABLED (flagd serves the code default, off).",
r'''
flag_edit "f['recommendationCacheFailure']['state']='DISABLED'"
true
''')
case("flag-recommendation-cache-failure__w1_raise_memory_limit", "fail",
 "symptom fix: raise recommendation's memory limit to 2Gi; the cache still grows without bound.",
r'''
kubectl set resources deploy recommendation -n $NS --limits=memory=2Gi --requests=memory=512Mi
true
''')
case("flag-recommendation-cache-failure__w2_delete_flagd_config", "fail",
 "destructive: delete flagd-config; flagd serves nothing and every flag-reading service fails.",
r'''
kubectl delete configmap flagd-config -n $NS
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
