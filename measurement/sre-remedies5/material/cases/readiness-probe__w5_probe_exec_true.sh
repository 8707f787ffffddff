# expect: fail — hides the check: replace the failing readiness probe by an exec probe running `true`; the pods turn Ready whatever the service does, so readiness no longer checks anything (and a distroless image may lack `true`). (debatable: the service does answer on its real port)
for d in $(broken_deploys); do
  dp=" $(declared_ports "$d") "
  for h in tcpSocket httpGet grpc; do
    pp=$(kubectl get deploy "$d" -n "$NS" -o jsonpath="{.spec.template.spec.containers[0].readinessProbe.$h.port}")
    [ -n "$pp" ] || continue
    case "$dp" in *" $pp "*) continue ;; esac
    kubectl patch deploy "$d" -n "$NS" --type=json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/readinessProbe","value":{"exec":{"command":["true"]},"periodSeconds":10}}]'
  done
done
true
