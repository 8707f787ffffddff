# expect: fail — near miss: `kubectl expose deployment` under its own name and port but with --protocol UDP; the callers speak TCP (HTTP/gRPC) to NAME:PORT, which the Service does not forward.
for d in $(deploys_without_service); do
  p=$(container_port "$d")
  kubectl expose deployment "$d" -n "$NS" --name "$d" --port "$p" --target-port "$p" --protocol UDP
done
true
