# expect: pass — the injected chaos-mesh experiment is the cause; delete it.
chaos_objects | while read obj ns; do kubectl get $obj -n $ns -o yaml | head -40; kubectl delete $obj -n $ns; done
