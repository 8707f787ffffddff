# expect: fail — wrong container: remove the main container's command/args override; the failing init container still blocks the pod.
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

bad_inits | while read d c; do
  for f in command args; do
    [ -n "$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[0].$f}")" ] &&
      kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"remove\",\"path\":\"/spec/template/spec/containers/0/$f\"}]"
  done
done
true
