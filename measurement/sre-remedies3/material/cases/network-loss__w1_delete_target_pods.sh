# expect: fail — delete the pods that lose packets; the NetworkChaos applies to the replacements.
loss_chaos() {
  chaos_of networkchaos | while read r n ns; do
    a=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}{.spec.networkChaos.action}')
    [ "$a" = "loss" ] && echo "$r $n $ns"
  done
  true
}

loss_chaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done
  done
done
true
