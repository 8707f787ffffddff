# expect: pass — the HTTPChaos experiment (or the Schedule that spawns it) is the cause; delete it.
chaos_of httpchaos | while read r n ns; do kubectl delete "$r" "$n" -n "$ns"; done
true
