# expect: fail — wrong verb: `kubectl uncordon` the node with the DiskPressure condition; it was never cordoned, uncordon does not touch the disk-pressure taint or the condition, nothing changes.
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{" "}{range .status.conditions[?(@.type=="DiskPressure")]}{.status}{end}{"\n"}{end}' | awk '$2=="True" {print $1}'); do
  kubectl uncordon "$n"
done
true
