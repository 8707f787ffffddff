# expect: pass — find the not-Ready Deployment whose readiness probe (tcpSocket or httpGet) targets a port its container does not declare; point the probe at the container port's NAME (its number when unnamed, and for a grpc probe).
for d in $(broken_deploys); do
  dp=" $(declared_ports "$d") "
  for h in tcpSocket httpGet grpc; do
    pp=$(kubectl get deploy "$d" -n "$NS" -o jsonpath="{.spec.template.spec.containers[0].readinessProbe.$h.port}")
    [ -n "$pp" ] || continue
    case "$dp" in *" $pp "*) continue ;; esac
    cp=$(container_port "$d"); pn=$(container_port_name "$d")
    v=$cp; [ -n "$pn" ] && [ "$h" != "grpc" ] && v="\"$pn\""
    echo "$d: readiness $h port $pp -> $v"
    kubectl patch deploy "$d" -n "$NS" --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/readinessProbe/$h/port\",\"value\":$v}]"
  done
done
true
