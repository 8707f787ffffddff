# expect: fail — scale ad to 3 replicas to hide the GC pauses; every replica evaluates the same flag and runs the same full collections.
kubectl get deploy ad -n "$NS" >/dev/null 2>&1 && kubectl scale deploy ad -n "$NS" --replicas=3
true
