# expect: fail — wrong object: leave the broken selector and write the Endpoints object by hand with the IPs of the same-named Deployment's pods; for a Service with a selector the endpoints controller owns Endpoints and rewrites them from the selector (empty).
for s in $(svcs_selecting_nothing); do
  ml=$(match_labels "$s"); [ -n "$ml" ] || continue
  p=$(container_port "$s"); [ -n "$p" ] || continue
  pn=$(kubectl get svc "$s" -n "$NS" -o jsonpath='{.spec.ports[0].name}')
  ips=$(kubectl get pods -n "$NS" -l "$ml" -o jsonpath='{range .items[*]}{.status.podIP}{"\n"}{end}' | awk 'NF' | sed 's/^/  - ip: /')
  [ -n "$ips" ] || continue
  kubectl apply -n "$NS" -f - <<EOF2
apiVersion: v1
kind: Endpoints
metadata:
  name: $s
  namespace: $NS
subsets:
- addresses:
$ips
  ports:
  - port: $p
    protocol: TCP
${pn:+    name: $pn}
EOF2
done
true
