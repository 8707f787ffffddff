# expect: pass — pause the StressChaos with a merge patch of the pause annotation (kubectl patch rather than annotate).
chaos_of stress | while read r n ns; do
  kubectl patch "$r" "$n" -n "$ns" --type=merge -p '{"metadata":{"annotations":{"experiment.chaos-mesh.org/pause":"true"}}}'
done
true
