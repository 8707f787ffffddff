# expect: fail — workaround, not a repair: recreate the Service WITHOUT a selector and write its Endpoints by hand from the pods' current IPs; the name resolves and answers now, but nothing keeps the endpoints in step: the next pod restart or rollout leaves them pointing at dead IPs. (debatable: it serves until then)
for d in $(deploys_without_service); do
  p=$(container_port "$d"); ml=$(match_labels "$d")
  ips=$(kubectl get pods -n "$NS" -l "$ml" -o jsonpath='{range .items[*]}{.status.podIP}{"\n"}{end}' | awk 'NF' | sed 's/^/  - ip: /')
  [ -n "$ips" ] || continue
  kubectl apply -n "$NS" -f - <<EOF2
apiVersion: v1
kind: Service
metadata:
  name: $d
  namespace: $NS
spec:
  ports:
  - name: tcp
    protocol: TCP
    port: $p
    targetPort: $p
---
apiVersion: v1
kind: Endpoints
metadata:
  name: $d
  namespace: $NS
subsets:
- addresses:
$ips
  ports:
  - name: tcp
    port: $p
    protocol: TCP
EOF2
done
true
