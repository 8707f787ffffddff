# expect: pass — pause every NetworkChaos whose action is loss, and every Schedule of type NetworkChaos, with a merge patch of the annotation experiment.chaos-mesh.org/pause: "true".
chaos_of networkchaos | while read r n ns; do
  case "$r" in
    schedules.*) ;;
    *) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}')" = loss ] || continue ;;
  esac
  kubectl patch "$r" "$n" -n "$ns" --type=merge -p '{"metadata":{"annotations":{"experiment.chaos-mesh.org/pause":"true"}}}'
done
true
