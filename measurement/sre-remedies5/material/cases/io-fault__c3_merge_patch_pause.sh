# expect: pass — pause every IOChaos and every Schedule of type IOChaos with a merge patch of the annotation experiment.chaos-mesh.org/pause: "true".
chaos_of iochaos | while read r n ns; do
  kubectl patch "$r" "$n" -n "$ns" --type=merge -p '{"metadata":{"annotations":{"experiment.chaos-mesh.org/pause":"true"}}}'
done
true
