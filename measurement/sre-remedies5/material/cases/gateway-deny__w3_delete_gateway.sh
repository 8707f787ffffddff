# expect: fail — destructive, wrong object: delete the Gateway the DENY policy is bound to; the policy no longer matches anything, but the users lose their entry point altogether.
kubectl get authorizationpolicy -A -o go-template='{{range .items}}{{if eq (printf "%v" .spec.action) "DENY"}}{{.metadata.namespace}} {{with .spec.targetRef}}{{.name}}{{end}}{{range .spec.targetRefs}}{{.name}} {{end}}{{"\n"}}{{end}}{{end}}' 2>/dev/null |
  while read ns g rest; do
    [ -n "${g:-}" ] && kubectl delete gateways.gateway.networking.k8s.io "$g" -n "$ns"
  done
true
