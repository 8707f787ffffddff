# expect: pass — delete only the NetworkChaos objects whose action is delay, and the Schedules that spawn delay NetworkChaos; other experiments are left alone.
chaos_of networkchaos | while read r n ns; do
  case "$r" in
    schedules.*) a=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.networkChaos.action}') ;;
    *) a=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}') ;;
  esac
  [ "$a" = "delay" ] && kubectl delete "$r" "$n" -n "$ns"
done
true
