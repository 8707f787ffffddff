# expect: fail — restart the Valkey datastore whose volume returns I/O errors; the IOChaos selects the new pod too.
chaos_of iochaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl rollout restart deploy "$t" -n $NS
  done
done
true
