# expect: fail — destructive: scale the datastore whose volume returns I/O errors (the IOChaos's target) to 0; the I/O errors stop because the datastore is gone, the cart now cannot reach it at all.
chaos_of iochaos | while read r n ns; do
  case "$r" in schedules.*) continue ;; esac
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do kubectl scale deploy "$d" -n "$NS" --replicas=0; done
done
true
