# expect: fail — delete the isolated pods; the policy still blocks the new ones.
for p in $(kubectl get networkpolicy -n $NS -o name); do
  for app in $(kubectl get $p -n $NS -o jsonpath='{.spec.podSelector.matchLabels.*}'); do kubectl delete pod -n $NS $(pods_of $app); done
done
