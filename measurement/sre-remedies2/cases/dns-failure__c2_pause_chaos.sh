# expect: pass — pause the DNSChaos with the pause annotation.
chaos_of dns | while read r n ns; do kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite; done
true
