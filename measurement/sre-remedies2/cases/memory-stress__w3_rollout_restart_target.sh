# expect: fail — restart the OOMing service; the stressor is re-applied to the new pods.
chaos_of stress | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl rollout restart deploy "$t" -n $NS; done
done
true
