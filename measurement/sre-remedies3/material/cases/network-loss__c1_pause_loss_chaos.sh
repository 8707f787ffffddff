# expect: pass — pause the NetworkChaos whose action is loss (and its Schedule, if any) with the pause annotation.
loss_chaos() {
  chaos_of networkchaos | while read r n ns; do
    a=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}{.spec.networkChaos.action}')
    [ "$a" = "loss" ] && echo "$r $n $ns"
  done
  true
}

loss_chaos | while read r n ns; do
  kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite
done
true
