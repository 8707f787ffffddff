# expect: fail — wrong object: delete the NetworkChaos and StressChaos objects (other kinds) and leave the PodChaos running.
chaos_objects | while read r n ns; do
  case "$r" in networkchaos*|stresschaos*) kubectl delete "$r" "$n" -n "$ns" ;; esac
done
true
