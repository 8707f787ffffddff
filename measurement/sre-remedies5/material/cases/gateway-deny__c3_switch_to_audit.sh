# expect: pass — find the AuthorizationPolicy with action DENY bound to a Gateway (targetRef/targetRefs) and switch its action to AUDIT: the requests are logged, no longer refused.
kubectl get authorizationpolicy -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name} {.spec.action} {.spec.targetRef.kind}{.spec.targetRefs[*].kind}{"\n"}{end}' 2>/dev/null |
  awk '$3=="DENY" && $4 ~ /Gateway/ {print $1, $2}' | while read ns p; do
    kubectl patch authorizationpolicy "$p" -n "$ns" --type=merge -p '{"spec":{"action":"AUDIT"}}'
  done
true
