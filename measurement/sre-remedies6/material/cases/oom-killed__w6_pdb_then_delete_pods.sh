# expect: fail — wrong mechanism: create a PodDisruptionBudget (maxUnavailable 0) for the OOMKilled workload, then delete its pods one by one; kubectl delete bypasses a PDB anyway, and the new pods get the same too-low memory limit and are OOMKilled again.
for d in $(kubectl get pods -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.status.containerStatuses[*].lastState.terminated.reason}{"\n"}{end}' | awk '/OOMKilled/ {print $1}' | pod_to_deploy | sort -u); do
  kubectl get deploy "$d" -n "$NS" >/dev/null 2>&1 || continue
  kubectl apply -n "$NS" -f - <<EOF2
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: $d-pdb
  namespace: $NS
spec:
  maxUnavailable: 0
  selector:
    matchLabels:
$(match_labels_yaml "$d" 6)
EOF2
  for p in $(kubectl get pods -n "$NS" -l "$(match_labels "$d")" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
    kubectl delete pod "$p" -n "$NS" --wait=false
  done
done
true
