# expect: pass — find the Deployment that declares a container port but has no Service of its name; `kubectl expose deployment` it under its own name with port = targetPort = that container port (the Service takes the Deployment's own selector).
for d in $(deploys_without_service); do
  p=$(container_port "$d")
  echo "no Service for $d (port $p): exposing it"
  kubectl expose deployment "$d" -n "$NS" --name "$d" --port "$p" --target-port "$p" --protocol TCP
done
true
