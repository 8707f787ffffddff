# expect: fail — scale up the frontend whose calls fail.
kubectl scale deploy frontend -n $NS --replicas=3 || true
true
