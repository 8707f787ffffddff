# expect: pass — a deny-all NetworkPolicy selects a service; delete it.
kubectl get networkpolicy -n $NS -o yaml
for p in $(kubectl get networkpolicy -n $NS -o name); do kubectl delete $p -n $NS; done
