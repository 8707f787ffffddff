# expect: fail — symptom fix: set a tight CPU limit (200m) on the stressed service's containers so the stressor is throttled; the service is throttled with it, the StressChaos keeps running and re-attaches to the new pods.
chaos_of stresschaos | while read r n ns; do
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do
    kubectl set resources deploy/"$d" -n "$NS" --limits=cpu=200m
  done
done
true
