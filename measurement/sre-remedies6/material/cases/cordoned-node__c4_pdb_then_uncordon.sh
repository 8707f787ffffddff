# expect: pass — protect the Pending workload against the next drain with a PodDisruptionBudget (maxUnavailable 1 on its matchLabels), then `kubectl uncordon` every node with spec.unschedulable=true; the uncordon is the repair, the PDB an extra, harmless object.
for d in $(pending_deploys); do
  kubectl apply -n "$NS" -f - <<EOF2
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: $d-pdb
  namespace: $NS
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
$(match_labels_yaml "$d" 6)
EOF2
done
for n in $(cordoned_nodes); do kubectl uncordon "$n"; done
true
