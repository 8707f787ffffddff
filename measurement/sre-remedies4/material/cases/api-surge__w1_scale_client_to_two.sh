# expect: fail — near miss: scale the flooding client from 5 to 2 replicas; 2 × 60 requests/s is still above the 100 requests/s the priority level admits.
c=$(kubectl get deploy -A --sort-by=.metadata.creationTimestamp --no-headers -o custom-columns=NS:.metadata.namespace,N:.metadata.name | tail -1)
set -- $c
[ $# -eq 2 ] && kubectl scale deploy "$2" -n "$1" --replicas=2
true
