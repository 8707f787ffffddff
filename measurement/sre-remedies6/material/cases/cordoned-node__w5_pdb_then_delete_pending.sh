# expect: fail — wrong mechanism: create a PodDisruptionBudget (minAvailable 1) for the Pending workload and delete its Pending pods; a PDB governs evictions, not scheduling, the node stays cordoned and the replacements are Pending again.
for d in $(pending_deploys); do
  kubectl apply -n "$NS" -f - <<EOF2
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: $d-min1
  namespace: $NS
spec:
  minAvailable: 1
  selector:
    matchLabels:
$(match_labels_yaml "$d" 6)
EOF2
  kubectl delete pods -n "$NS" -l "$(match_labels "$d")" --field-selector=status.phase=Pending --wait=false
done
true
