# expect: fail — wrong namespace: create the missing PersistentVolumeClaim (1Gi, ReadWriteOnce) under the referenced name in `default`; a pod's claim is looked up in its own namespace, so the pod is still Pending on a claim that does not exist.
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  for c in $(kubectl get deploy "$d" -n "$NS" -o jsonpath='{range .spec.template.spec.volumes[*]}{.persistentVolumeClaim.claimName}{"\n"}{end}' | awk 'NF'); do
    kubectl get pvc "$c" -n "$NS" >/dev/null 2>&1 && continue
    kubectl apply -n default -f - <<EOF2
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: $c
  namespace: default
spec:
  accessModes: ["ReadWriteOnce"]
  resources:
    requests:
      storage: 1Gi
EOF2
  done
done
true
