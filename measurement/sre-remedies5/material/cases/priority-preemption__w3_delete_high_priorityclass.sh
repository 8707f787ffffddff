# expect: fail — wrong object: delete the non-system PriorityClass with the highest value (the class of the workload that took the node); pods keep the priority they were admitted with, so the preempting pods stay and the target stays Pending.
pc=$(kubectl get priorityclass -o jsonpath='{range .items[*]}{.metadata.name} {.value}{"\n"}{end}' | awk '$1 !~ /^system-/' | sort -k2 -n | tail -1 | awk '{print $1}')
[ -n "$pc" ] && kubectl delete priorityclass "$pc"
true
