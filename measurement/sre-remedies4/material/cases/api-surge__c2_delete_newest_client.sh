# expect: pass — same diagnosis; delete the flooding client Deployment (a workload the incident added, not part of the application).
c=$(kubectl get deploy -A --sort-by=.metadata.creationTimestamp --no-headers -o custom-columns=NS:.metadata.namespace,N:.metadata.name | tail -1)
set -- $c
[ $# -eq 2 ] && kubectl delete deploy "$2" -n "$1"
true
