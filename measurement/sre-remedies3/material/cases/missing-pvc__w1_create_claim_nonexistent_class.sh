# expect: fail — near miss: create the missing claim, but with a storage class the cluster does not have (fast-ssd); it stays Pending and unbound, and so does the pod.
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
