# expect: pass — find the Service whose targetPort is neither a port number nor a port name its Deployment declares; re-apply it from a hand-written manifest (kubectl apply -f -) with its own selector and port and targetPort = the container port.
for s in $(svcs_with_closed_target_port); do
  p=$(kubectl get svc "$s" -n "$NS" -o jsonpath='{.spec.ports[0].port}')
  pn=$(kubectl get svc "$s" -n "$NS" -o jsonpath='{.spec.ports[0].name}')
  cp=$(container_port "$s")
  sel=$(kubectl get svc "$s" -n "$NS" -o go-template='{{range $k,$v := .spec.selector}}    {{$k}}: "{{$v}}"{{"\n"}}{{end}}')
  echo "$s: targetPort -> $cp"
  kubectl apply -n "$NS" -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: $s
  namespace: $NS
spec:
  selector:
$sel
  ports:
  - name: ${pn:-tcp-service}
    protocol: TCP
    port: $p
    targetPort: $cp
EOF
done
true
