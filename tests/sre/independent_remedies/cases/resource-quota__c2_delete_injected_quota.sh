# expect: pass — the over-tight quota is the injected object; delete it.
for q in $(kubectl get resourcequota -n $NS -o name); do kubectl delete $q -n $NS; done
