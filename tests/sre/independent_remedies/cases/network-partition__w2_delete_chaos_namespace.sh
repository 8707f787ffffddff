# expect: fail — destructive: delete the whole chaos-mesh namespace instead of the one experiment.
kubectl delete namespace chaos-mesh
