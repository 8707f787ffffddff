# expect: fail — scale the frontend to absorb the flood; the flood goes on.
kubectl scale deploy frontend -n $NS --replicas=3
true
