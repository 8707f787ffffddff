# expect: fail — scale the slow frontend; every replica delays images the same.
kubectl scale deploy frontend -n $NS --replicas=3
true
