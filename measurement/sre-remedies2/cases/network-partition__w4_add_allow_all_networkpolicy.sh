# expect: fail — wrong object: add an allow-all NetworkPolicy; the partition is chaos-mesh's (iptables), not a policy.
cat <<'EOF' | kubectl apply -f -
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: allow-all, namespace: otel-demo}
spec:
  podSelector: {}
  policyTypes: [Ingress, Egress]
  ingress: [{}]
  egress: [{}]
EOF
true
