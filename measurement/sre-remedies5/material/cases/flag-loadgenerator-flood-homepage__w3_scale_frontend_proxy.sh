# expect: fail — symptom fix: scale the entry proxy (frontend-proxy) to 3 replicas to absorb the flood; the flood goes on and the overloaded frontend behind it is unchanged.
kubectl get deploy frontend-proxy -n "$NS" >/dev/null 2>&1 && kubectl scale deploy frontend-proxy -n "$NS" --replicas=3
true
