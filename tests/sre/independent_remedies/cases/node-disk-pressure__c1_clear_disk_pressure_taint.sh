# expect: pass — the node the pod must run on has the disk-pressure taint; after freeing disk (not modelled) the taint is removed.
kubectl get nodes -o custom-columns=N:.metadata.name,T:.spec.taints
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.spec.taints[*].key}{"\n"}{end}' | awk '/disk-pressure/{print $1}'); do
  kubectl taint node $n node.kubernetes.io/disk-pressure:NoSchedule-
done
