# expect: fail — near miss: remove the node.kubernetes.io/unschedulable taint from the cordoned node(s) but leave spec.unschedulable=true; the scheduler still refuses the node (and the node controller re-adds the taint).
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.spec.unschedulable}{"\n"}{end}' | awk '$2=="true" {print $1}'); do
  kubectl taint nodes "$n" node.kubernetes.io/unschedulable:NoSchedule- 
done
true
