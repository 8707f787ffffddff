# expect: pass — find the deployment whose image names another architecture; set its container image back to the one its previous ReplicaSet ran.
# "deployment containerIndex image" of crash-looping deployments whose image names another CPU architecture.
arch_images() {
  kubectl get deploy -n $NS -o json | python3 -c '
import json,sys,re
for d in json.load(sys.stdin)["items"]:
    for i,c in enumerate(d["spec"]["template"]["spec"]["containers"]):
        if re.search(r"(arm64|aarch64|armv7|ppc64le|s390x)", c["image"]): print(d["metadata"]["name"], i, c["image"])'
}

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
