# expect: fail — near miss: keep the NetworkChaos and lower its loss to 10 %; one packet in ten is still dropped (retransmits, time-outs), the experiment stays injected.
chaos_objects | while read r n ns; do
  case "$r" in
    networkchaos*) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}')" = "loss" ] &&
                     kubectl patch "$r" "$n" -n "$ns" --type=merge -p '{"spec":{"loss":{"loss":"10"}}}' ;;
  esac
done
true
