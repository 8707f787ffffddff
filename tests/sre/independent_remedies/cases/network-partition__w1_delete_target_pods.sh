# expect: fail — delete the partitioned pods; the partition applies to the new ones.
chaos_objects | while read obj ns; do
  for app in $(kubectl get $obj -n $ns -o jsonpath='{.spec.selector.labelSelectors.*}'); do kubectl delete pod -n $NS $(pods_of $app); done
done
