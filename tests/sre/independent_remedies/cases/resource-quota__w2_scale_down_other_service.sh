# expect: fail — free quota by scaling a healthy, different service to zero.
kubectl scale deploy/load-generator -n $NS --replicas=0
kubectl scale deploy/ad -n $NS --replicas=0
