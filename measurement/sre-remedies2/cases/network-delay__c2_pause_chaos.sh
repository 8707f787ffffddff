# expect: pass — pause the NetworkChaos (delay) with the pause annotation.
chaos_of network | while read r n ns; do kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite; done
true
