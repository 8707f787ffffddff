# expect: fail — add replicas to the aborted service; every replica is selected by the HTTPChaos.
chaos_of httpchaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl scale deploy "$t" -n $NS --replicas=3
  done
done
true
