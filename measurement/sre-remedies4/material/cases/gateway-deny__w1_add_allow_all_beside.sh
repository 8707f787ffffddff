# expect: fail — wrong mechanism: add an ALLOW-everything AuthorizationPolicy on the same Gateway; Istio evaluates DENY before ALLOW, so the users' requests are still refused.
kubectl get authorizationpolicies.security.istio.io -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name} {.spec.action} {.spec.targetRef.kind}{.spec.targetRefs[*].kind} {.spec.targetRef.name}{.spec.targetRefs[0].name}{"\n"}{end}' |
  awk '$3=="DENY" && $4 ~ /Gateway/ {print $1, $5}' | while read ns gw; do
    kubectl apply -n "$ns" -f - <<YAML
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: allow-all-gateway
  namespace: $ns
spec:
  targetRefs:
  - kind: Gateway
    group: gateway.networking.k8s.io
    name: $gw
  action: ALLOW
  rules:
  - {}
YAML
  done
true
