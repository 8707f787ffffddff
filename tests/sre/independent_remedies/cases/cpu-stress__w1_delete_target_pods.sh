# expect: fail — delete the stressed pods; the experiment still selects the new pods.
chaos_objects | while read obj ns; do
  for app in $(kubectl get $obj -n $ns -o jsonpath='{.spec.selector.labelSelectors.*}'); do kubectl delete pod -n $NS $(pods_of $app); done
done
