# expect: pass — pause every HTTPChaos and every Schedule of type HTTPChaos with a merge patch of the annotation experiment.chaos-mesh.org/pause: "true" (the experiment stops, the objects stay).
chaos_of httpchaos | while read r n ns; do
  kubectl patch "$r" "$n" -n "$ns" --type=merge -p '{"metadata":{"annotations":{"experiment.chaos-mesh.org/pause":"true"}}}'
done
true
