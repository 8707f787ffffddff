# expect: pass — find the deployment mounting a PersistentVolumeClaim that does not exist; remove that volume and every volumeMount of it.
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
