# expect: fail — scale the slow service up; every replica is selected by the chaos.
chaos_objects | while read obj ns; do
  for app in $(kubectl get $obj -n $ns -o jsonpath='{.spec.selector.labelSelectors.*}'); do kubectl scale deploy/$app -n $NS --replicas=3; done
done
