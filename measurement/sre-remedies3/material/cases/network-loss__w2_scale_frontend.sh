# expect: fail — scale the user-facing frontend (a caller) to 3 to absorb the time-outs; the loss stays.
kubectl scale deploy frontend -n $NS --replicas=3
true
