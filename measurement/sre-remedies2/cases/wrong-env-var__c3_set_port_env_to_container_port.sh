# expect: pass — set the crashing service's own <SERVICE>_PORT env var back to the container's declared port (only if it differs).
for d in $(broken_deploys); do
  port=$(cport_of "$d"); [ -z "$port" ] && continue
  key="$(echo "$d" | tr 'a-z-' 'A-Z_')_PORT"
  v=$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[0].env[?(@.name=='$key')].value}")
  if [ -n "$v" ] && [ "$v" != "$port" ]; then kubectl set env deploy/"$d" -n $NS "$key=$port"; fi
done
true
