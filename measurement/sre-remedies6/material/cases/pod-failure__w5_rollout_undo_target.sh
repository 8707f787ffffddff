# expect: fail — wrong mechanism: roll back the Deployment(s) the PodChaos targets, as if a release made the pods never Ready; the pod-failure experiment takes the rolled-back pods too.
chaos_of podchaos | while read r n ns; do
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do kubectl rollout undo deploy/"$d" -n "$NS"; done
done
true
