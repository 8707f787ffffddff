# expect: pass — pause every StressChaos with memory stressors (and Schedules of type StressChaos) with the pause annotation.
chaos_objects | while read r n ns; do
  case "$r" in
    stresschaos*) kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
    schedule*)    [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.type}')" = "StressChaos" ] &&
                    kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
  esac
done
true
