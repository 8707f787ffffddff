# expect: fail — destructive: delete the Node object of the pressured node.
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="DiskPressure")].status}{"\n"}{end}' | awk '$2=="True"{print $1}'); do
  kubectl delete node "$n" --wait=false || true
done
true
