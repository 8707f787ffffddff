# expect: pass — delete every DNSChaos and every Schedule of type DNSChaos (and nothing else).
chaos_of dnschaos | while read r n ns; do kubectl delete "$r" "$n" -n "$ns"; done
true
