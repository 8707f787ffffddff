# expect: pass — same diagnosis; rewrite the Service's ports list with a merge patch (one port: its own name and port, targetPort = the container port); multi-port Services get a JSON patch of the first port's targetPort instead.
for s in $(svcs_with_closed_target_port); do
  cp=$(container_port "$s")
  n=$(kubectl get svc "$s" -n "$NS" -o jsonpath='{range .spec.ports[*]}x{end}' | awk '{print length($0)}')
  if [ "$n" = "1" ]; then
    p=$(kubectl get svc "$s" -n "$NS" -o jsonpath='{.spec.ports[0].port}')
    pn=$(kubectl get svc "$s" -n "$NS" -o jsonpath='{.spec.ports[0].name}')
    if [ -n "$pn" ]; then body="{\"name\":\"$pn\",\"port\":$p,\"targetPort\":$cp,\"protocol\":\"TCP\"}"; else body="{\"port\":$p,\"targetPort\":$cp,\"protocol\":\"TCP\"}"; fi
    kubectl patch svc "$s" -n "$NS" --type=merge -p "{\"spec\":{\"ports\":[$body]}}"
  else
    kubectl patch svc "$s" -n "$NS" --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":$cp}]"
  fi
done
true
