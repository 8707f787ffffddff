# expect: pass — pause every JVMChaos (and every Schedule of type JVMChaos) with a JSON patch adding the pause annotation.
chaos_of jvmchaos | while read r n ns; do
  if [ -n "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.metadata.annotations}')" ]; then
    kubectl patch "$r" "$n" -n "$ns" --type=json -p '[{"op":"add","path":"/metadata/annotations/experiment.chaos-mesh.org~1pause","value":"true"}]'
  else
    kubectl patch "$r" "$n" -n "$ns" --type=json -p '[{"op":"add","path":"/metadata/annotations","value":{"experiment.chaos-mesh.org/pause":"true"}}]'
  fi
done
true
