# expect: pass — pause (chaos-mesh pause annotation) every HTTPChaos and every Schedule of type HTTPChaos; the aborts stop, the objects stay for the record.
chaos_objects | while read r n ns; do
  case "$r" in
    httpchaos*) kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
    schedule*)  [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.type}')" = "HTTPChaos" ] &&
                  kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
  esac
done
true
