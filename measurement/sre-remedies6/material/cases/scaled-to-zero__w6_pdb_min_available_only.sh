# expect: fail — wrong mechanism: give the Deployment at 0 replicas a PodDisruptionBudget with minAvailable 1, expecting it to keep one pod up; a PDB only limits voluntary evictions, it never creates pods, so the Deployment stays at 0.
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas}{"\n"}{end}' | awk '$2=="0" {print $1}'); do
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
