# expect: pass — pause (chaos-mesh pause annotation) every NetworkChaos whose action is delay, and every Schedule of type NetworkChaos; the delay stops while the experiment is kept for the record.
chaos_objects | while read r n ns; do
  case "$r" in
    networkchaos*) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}')" = "delay" ] &&
                     kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
    schedule*)     [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.type}')" = "NetworkChaos" ] &&
                     kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
  esac
done
true
