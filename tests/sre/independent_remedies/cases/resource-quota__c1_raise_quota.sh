# expect: pass — the ReplicaSet cannot create pods (exceeded quota); raise the namespace quota.
kubectl describe resourcequota -n $NS
for q in $(kubectl get resourcequota -n $NS -o name); do
  kubectl patch $q -n $NS --type=merge -p '{"spec":{"hard":{"limits.memory":"64Gi","pods":"100","requests.memory":"64Gi","limits.cpu":"64","requests.cpu":"64"}}}'
done
