# expect: fail — symptom fix: give the stressed service more CPU; the stressor keeps running.
chaos_of stress | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl set resources deploy "$t" -n $NS --limits=cpu=2 --requests=cpu=500m
  done
done
true
