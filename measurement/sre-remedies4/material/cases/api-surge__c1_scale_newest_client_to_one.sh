# expect: pass — "what is new?": the most recently created Deployment in the cluster is the API client flooding the API server (the stuck service's pod waits on the API); scale it to one replica, under the priority level's capacity.
c=$(kubectl get deploy -A --sort-by=.metadata.creationTimestamp --no-headers -o custom-columns=NS:.metadata.namespace,N:.metadata.name | tail -1)
set -- $c
[ $# -eq 2 ] && kubectl scale deploy "$2" -n "$1" --replicas=1
true
