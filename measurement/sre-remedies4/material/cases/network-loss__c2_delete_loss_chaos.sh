# expect: pass — delete every NetworkChaos whose action is loss (and Schedules of type NetworkChaos).
chaos_objects | while read r n ns; do
  case "$r" in
    networkchaos*) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}')" = "loss" ] && kubectl delete "$r" "$n" -n "$ns" ;;
    schedule*)     [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.type}')" = "NetworkChaos" ] && kubectl delete "$r" "$n" -n "$ns" ;;
  esac
done
true
