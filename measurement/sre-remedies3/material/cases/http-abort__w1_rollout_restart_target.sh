# expect: fail — restart the service whose responses are aborted; the experiment selects the new pods too.
chaos_of httpchaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl rollout restart deploy "$t" -n $NS
  done
done
true
