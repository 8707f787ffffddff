# expect: pass — pause every JVMChaos (and Schedules of type JVMChaos) with the pause annotation.
chaos_objects | while read r n ns; do
  case "$r" in
    jvmchaos*) kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
    schedule*) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.type}')" = "JVMChaos" ] &&
                 kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite ;;
  esac
done
true
