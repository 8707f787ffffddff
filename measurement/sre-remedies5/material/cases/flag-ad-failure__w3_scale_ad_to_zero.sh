# expect: fail — destructive: scale the failing ad service to 0 so it stops erroring; ads are gone for every user and the flag stays on.
kubectl get deploy ad -n "$NS" >/dev/null 2>&1 && kubectl scale deploy ad -n "$NS" --replicas=0
true
