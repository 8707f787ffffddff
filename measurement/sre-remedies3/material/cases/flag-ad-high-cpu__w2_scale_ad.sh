# expect: fail — add ad replicas; every replica evaluates the same flag.
kubectl scale deploy ad -n $NS --replicas=3
true
