# expect: pass — same diagnosis; `kubectl replace` the Service with a hand-written manifest: same name, clusterIP and ports (read from it), selector = the same-named Deployment's matchLabels.
for s in $(svcs_selecting_nothing); do
  [ -n "$(match_labels "$s")" ] || continue
  ip=$(kubectl get svc "$s" -n "$NS" -o jsonpath='{.spec.clusterIP}')
  ports=$(kubectl get svc "$s" -n "$NS" -o go-template='{{range .spec.ports}}  - port: {{.port}}
    targetPort: {{.targetPort}}
    protocol: {{.protocol}}
{{with .name}}    name: {{.}}
{{end}}{{end}}')
  kubectl replace -n "$NS" -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: $s
  namespace: $NS
spec:
  type: ClusterIP
  clusterIP: $ip
  selector:
$(match_labels_yaml "$s" 4)
  ports:
$ports
EOF
done
true
