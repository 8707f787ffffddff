# expect: fail — wrong object: delete the namespace's LimitRanges (defaults, not the quota); the ResourceQuota still refuses the pod.
kubectl delete limitrange --all -n $NS
true
