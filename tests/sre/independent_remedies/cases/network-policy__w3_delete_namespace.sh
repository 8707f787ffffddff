# expect: fail — destructive: delete the application namespace.
kubectl delete namespace $NS
