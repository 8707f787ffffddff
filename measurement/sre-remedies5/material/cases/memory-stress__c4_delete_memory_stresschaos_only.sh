# expect: pass — delete only the StressChaos objects with a memory stressor, and the Schedules of type StressChaos whose stressors include memory.
chaos_of stresschaos | while read r n ns; do
  case "$r" in
    schedules.*) s=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.stressChaos.stressors.memory}') ;;
    *) s=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.stressors.memory}') ;;
  esac
  [ -n "$s" ] && kubectl delete "$r" "$n" -n "$ns"
done
true
