# expect: fail — scale up the frontend (the service users see failing) instead of the scaled-down one.
kubectl scale deploy/frontend -n $NS --replicas=2
