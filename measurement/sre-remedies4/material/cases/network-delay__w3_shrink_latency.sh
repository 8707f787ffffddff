# expect: fail — near miss: keep the NetworkChaos running and lower its latency to 1ms; the experiment is still injected into the service (and a real netem jitter/correlation stays). (debatable: the latency alert would clear)
chaos_objects | while read r n ns; do
  case "$r" in
    networkchaos*) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}')" = "delay" ] &&
                     kubectl patch "$r" "$n" -n "$ns" --type=merge -p '{"spec":{"delay":{"latency":"1ms"}}}' ;;
  esac
done
true
