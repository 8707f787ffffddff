# expect: fail — destructive: delete the flagd-config configmap.
kubectl delete configmap flagd-config -n $NS
