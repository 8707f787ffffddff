# expect: fail — scale checkout; every replica reads the same flag.
kubectl scale deploy checkout -n $NS --replicas=3
true
