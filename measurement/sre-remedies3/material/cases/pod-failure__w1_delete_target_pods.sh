# expect: fail — delete the never-Ready pods; the pod-failure experiment takes the replacements too.
podfail_chaos() {
  chaos_of podchaos | while read r n ns; do
    a=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}{.spec.podChaos.action}')
    [ "$a" = "pod-failure" ] && echo "$r $n $ns"
  done
  true
}

podfail_chaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done
  done
done
true
