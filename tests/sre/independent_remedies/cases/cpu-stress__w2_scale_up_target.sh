# expect: fail — throw replicas at a CPU-stressed service; the chaos stays, and it scales a workload that is not broken.
chaos_objects | while read obj ns; do
  for app in $(kubectl get $obj -n $ns -o jsonpath='{.spec.selector.labelSelectors.*}'); do kubectl scale deploy/$app -n $NS --replicas=3; done
done
