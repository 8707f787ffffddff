# expect: fail — destructive: delete every STRICT PeerAuthentication of the namespace; plaintext is accepted again, but the workload stays outside the mesh and mutual TLS is gone for everyone.
for p in $(kubectl get peerauthentication -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.mtls.mode}{"\n"}{end}' 2>/dev/null | awk '$2=="STRICT" {print $1}'); do
  kubectl delete peerauthentication "$p" -n "$NS"
done
true
