# expect: pass — pause every PodChaos whose action is pod-failure (and Schedules of type PodChaos); the paused containers are restored.
chaos_objects | while read r n ns; do
  case "$r" in
    podchaos*) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}')" = "pod-failure" ] &&
                 kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
    schedule*) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.type}')" = "PodChaos" ] &&
                 kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
  esac
done
true
