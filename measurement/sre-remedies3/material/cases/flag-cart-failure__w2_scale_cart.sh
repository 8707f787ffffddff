# expect: fail — scale cart to 3 replicas; each fails the same share of requests.
kubectl scale deploy cart -n $NS --replicas=3
true
