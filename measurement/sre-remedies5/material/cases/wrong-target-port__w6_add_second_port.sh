# expect: fail — near miss: add a second Service port (10000 + the container port, named fixed) that forwards to the container port, leaving the first port's targetPort closed; the callers still dial the original port.
for s in $(svcs_with_closed_target_port); do
  cp=$(container_port "$s"); np=$((10000 + cp))
  [ -z "$(kubectl get svc "$s" -n "$NS" -o jsonpath='{.spec.ports[0].name}')" ] &&
    kubectl patch svc "$s" -n "$NS" --type=json -p '[{"op":"add","path":"/spec/ports/0/name","value":"orig"}]'
  kubectl patch svc "$s" -n "$NS" --type=json -p "[{\"op\":\"add\",\"path\":\"/spec/ports/-\",\"value\":{\"name\":\"fixed\",\"port\":$np,\"targetPort\":$cp,\"protocol\":\"TCP\"}}]"
done
true
