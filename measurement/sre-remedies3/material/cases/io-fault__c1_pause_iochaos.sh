# expect: pass — pause the IOChaos (and any Schedule that spawns it) with chaos-mesh's pause annotation.
chaos_of iochaos | while read r n ns; do
  kubectl annotate "$r" "$n" -n "$ns" experiment.chaos-mesh.org/pause=true --overwrite
done
true
