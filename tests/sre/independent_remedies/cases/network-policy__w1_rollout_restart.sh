# expect: fail — restart the isolated service; the policy still blocks it.
for p in $(kubectl get networkpolicy -n $NS -o name); do
  for app in $(kubectl get $p -n $NS -o jsonpath='{.spec.podSelector.matchLabels.*}'); do kubectl rollout restart deploy/$app -n $NS; done
done
