# expect: fail — destructive: delete the flagd-config ConfigMap; every flag evaluation then fails.
kubectl delete configmap flagd-config -n $NS
true
