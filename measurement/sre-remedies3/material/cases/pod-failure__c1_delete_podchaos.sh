# expect: pass — delete the PodChaos whose action is pod-failure (and its Schedule, if any); the paused containers come back.
podfail_chaos() {
  chaos_of podchaos | while read r n ns; do
    a=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}{.spec.podChaos.action}')
    [ "$a" = "pod-failure" ] && echo "$r $n $ns"
  done
  true
}

podfail_chaos | while read r n ns; do kubectl delete "$r" "$n" -n "$ns"; done
true
