# expect: pass — find the not-Ready Deployment whose readiness probe targets a port its container does not declare; point the probe (tcpSocket or httpGet) at the declared container port.
for d in $(broken_deploys); do
  cp=$(container_port "$d"); [ -n "$cp" ] || continue
  for kind in tcpSocket httpGet grpc; do
    pp=$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[0].readinessProbe.$kind.port}")
    [ -n "$pp" ] && [ "$pp" != "$cp" ] &&
      kubectl patch deploy "$d" -n $NS --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/readinessProbe/$kind/port\",\"value\":$cp}]"
  done
done
true
