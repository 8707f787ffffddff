# expect: pass — find the Deployment that wants 0 replicas; scale it to 1 with kubectl's precondition (--current-replicas=0) and add a PodDisruptionBudget (minAvailable 1) so a drain cannot take its only pod; the scale is the repair.
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas}{"\n"}{end}' | awk '$2=="0" {print $1}'); do
  kubectl scale deploy "$d" -n "$NS" --current-replicas=0 --replicas=1
  kubectl apply -n "$NS" -f - <<EOF2
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: $d-pdb
  namespace: $NS
spec:
  minAvailable: 1
  selector:
    matchLabels:
$(match_labels_yaml "$d" 6)
EOF2
done
true
