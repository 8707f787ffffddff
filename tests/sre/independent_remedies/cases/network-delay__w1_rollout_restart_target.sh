# expect: fail — restart the slow service; the NetworkChaos still delays it.
chaos_objects | while read obj ns; do
  for app in $(kubectl get $obj -n $ns -o jsonpath='{.spec.selector.labelSelectors.*}'); do kubectl rollout restart deploy/$app -n $NS; done
done
