# expect: fail — wrong kind: create a PersistentVolume (hostPath, 1Gi) named like the missing claim; the pod references a PersistentVolumeClaim, which still does not exist.
for d in $(pending_deploys); do
  kubectl get deploy "$d" -n "$NS" -o go-template='{{range .spec.template.spec.volumes}}{{if .persistentVolumeClaim}}{{.persistentVolumeClaim.claimName}}{{"\n"}}{{end}}{{end}}' |
  while read c; do
    kubectl get pvc "$c" -n "$NS" >/dev/null 2>&1 && continue
    kubectl apply -f - <<EOF
apiVersion: v1
kind: PersistentVolume
metadata:
  name: $c
spec:
  capacity:
    storage: 1Gi
  accessModes: ["ReadWriteOnce"]
  hostPath:
    path: /tmp/$c
EOF
  done
done
true
