# expect: fail — (added after run 1, label set before running it) cordon the pressured node; the pending pod still has nowhere to go (the other nodes are out of memory).
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.spec.taints[*].key}{"\n"}{end}' | awk '/disk-pressure/{print $1}'); do kubectl cordon $n; done
