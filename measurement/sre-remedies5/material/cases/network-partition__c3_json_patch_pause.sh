# expect: pass — pause every NetworkChaos whose action is partition (and every Schedule of type NetworkChaos) by adding the annotation experiment.chaos-mesh.org/pause=true with a JSON patch.
chaos_of networkchaos | while read r n ns; do
  case "$r" in schedules.*) ;; *) [ "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}')" = "partition" ] || continue ;; esac
  if [ -n "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.metadata.annotations}')" ]; then
    kubectl patch "$r" "$n" -n "$ns" --type=json -p '[{"op":"add","path":"/metadata/annotations/experiment.chaos-mesh.org~1pause","value":"true"}]'
  else
    kubectl patch "$r" "$n" -n "$ns" --type=json -p '[{"op":"add","path":"/metadata/annotations","value":{"experiment.chaos-mesh.org/pause":"true"}}]'
  fi
done
true
