# expect: pass — same diagnosis; keep the policy object but remove its rules: a DENY policy without rules matches no request, so the Gateway lets the users through.
kubectl get authorizationpolicies.security.istio.io -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name} {.spec.action} {.spec.targetRef.kind}{.spec.targetRefs[*].kind}{"\n"}{end}' |
  awk '$3=="DENY" && $4 ~ /Gateway/ {print $1, $2}' | while read ns p; do
    kubectl patch authorizationpolicies.security.istio.io "$p" -n "$ns" --type=json -p '[{"op":"remove","path":"/spec/rules"}]'
  done
true
