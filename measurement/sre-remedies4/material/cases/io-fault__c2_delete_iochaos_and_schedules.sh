# expect: pass — delete every IOChaos and every Schedule of type IOChaos.
chaos_objects | while read r n ns; do
  case "$r" in
    iochaos*)  kubectl delete "$r" "$n" -n "$ns" ;;
    schedule*) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.type}')" = "IOChaos" ] && kubectl delete "$r" "$n" -n "$ns" ;;
  esac
done
true
