# expect: fail — scale the user-facing frontend (a caller) to absorb latency; the delay stays.
kubectl scale deploy frontend -n $NS --replicas=3 || true
true
