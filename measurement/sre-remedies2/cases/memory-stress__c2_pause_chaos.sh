# expect: pass — pause the StressChaos with chaos-mesh's pause annotation.
chaos_of stress | while read r n ns; do kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite; done
true
