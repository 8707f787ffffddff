# expect: fail — destructive: delete flagd-config; flagd serves nothing and every flag-reading service fails.
kubectl delete configmap flagd-config -n $NS
true
