# expect: pass — the Deployment mounting a PersistentVolumeClaim that does not exist got it in its last rollout; roll it back.
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  for c in $(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.volumes[*].persistentVolumeClaim.claimName}'); do
    kubectl get pvc "$c" -n $NS >/dev/null 2>&1 || { kubectl rollout undo deploy "$d" -n $NS; break; }
  done
done
true
