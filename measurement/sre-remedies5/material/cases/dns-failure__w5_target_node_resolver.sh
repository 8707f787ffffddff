# expect: fail — wrong mechanism: switch the DNS-failing service to dnsPolicy Default (the node's resolver) to bypass the cluster DNS; the node's resolver does not know cluster names, so its lookups of the demo's services still fail, and the DNSChaos stays.
chaos_of dnschaos | while read r n ns; do
  case "$r" in schedules.*) continue ;; esac
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do
    kubectl patch deploy "$d" -n "$NS" --type=merge -p '{"spec":{"template":{"spec":{"dnsPolicy":"Default"}}}}'
  done
done
true
