# expect: fail — scale recommendation to 3 replicas to spread the load; every replica's cache grows without bound under the same flag and is OOM-killed.
kubectl get deploy recommendation -n "$NS" >/dev/null 2>&1 && kubectl scale deploy recommendation -n "$NS" --replicas=3
true
