# expect: pass — same diagnosis; recreate the missing Service declaratively (kubectl apply of a manifest: name, port = targetPort = the container port, selector = the Deployment's matchLabels).
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  p=$(container_port "$d"); [ -n "$p" ] || continue
  kubectl get svc "$d" -n $NS >/dev/null 2>&1 && continue
  sel=$(kubectl get deploy "$d" -n $NS -o go-template='{{range $k,$v := .spec.selector.matchLabels}}    {{$k}}: "{{$v}}"{{"\n"}}{{end}}')
  kubectl apply -n $NS -f - <<YAML
apiVersion: v1
kind: Service
metadata:
  name: $d
  namespace: $NS
spec:
  type: ClusterIP
  ports:
  - name: tcp-service
    port: $p
    protocol: TCP
    targetPort: $p
  selector:
$sel
YAML
done
true
