# expect: fail — wrong mechanism: roll back the Deployment the IOChaos targets (as if a release broke its volume); the IOChaos selects the rolled-back pod too and the I/O errors go on.
chaos_of iochaos | while read r n ns; do
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do kubectl rollout undo deploy/"$d" -n "$NS"; done
done
true
