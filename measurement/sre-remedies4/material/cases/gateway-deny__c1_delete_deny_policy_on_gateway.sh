# expect: pass — find the AuthorizationPolicy with action DENY bound (targetRef/targetRefs) to a Gateway and delete it.
kubectl get authorizationpolicies.security.istio.io -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name} {.spec.action} {.spec.targetRef.kind}{.spec.targetRefs[*].kind}{"\n"}{end}' |
  awk '$3=="DENY" && $4 ~ /Gateway/ {print $1, $2}' | while read ns p; do
    kubectl delete authorizationpolicies.security.istio.io "$p" -n "$ns"
  done
true
