# expect: pass — find the env var whose secretKeyRef names a Secret that does not exist and remove that variable from the deployment.
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

missing_secret_refs | sort -k1,1 -k2,2n -k3,3nr | while read d i j s; do
  kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"remove\",\"path\":\"/spec/template/spec/containers/$i/env/$j\"}]"
done
true
