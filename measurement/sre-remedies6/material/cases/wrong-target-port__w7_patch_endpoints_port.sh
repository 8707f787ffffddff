# expect: fail — wrong object: leave the Service's targetPort and rewrite the port of its Endpoints (first subset, first port) to the container port by hand; the endpoints controller owns Endpoints of a Service with a selector and writes the Service's targetPort back, and kube-proxy forwards per the EndpointSlices anyway.
for s in $(svcs_with_closed_target_port); do
  p=$(container_port "$s"); [ -n "$p" ] || continue
  kubectl patch endpoints "$s" -n "$NS" --type=json -p "[{\"op\":\"replace\",\"path\":\"/subsets/0/ports/0/port\",\"value\":$p}]"
done
true
