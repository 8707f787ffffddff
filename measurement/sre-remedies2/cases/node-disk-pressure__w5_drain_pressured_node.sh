# expect: fail — drain the pressured node: evicts its running pods; the pending pod still has nowhere to run.
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="DiskPressure")].status}{"\n"}{end}' | awk '$2=="True"{print $1}'); do
  kubectl drain "$n" --ignore-daemonsets --delete-emptydir-data --force --timeout=30s || true
done
true
