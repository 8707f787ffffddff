# expect: fail — destructive: switch every STRICT PeerAuthentication of the namespace to PERMISSIVE; plaintext is accepted again, the workload stays outside the mesh and mTLS is relaxed for everyone.
for p in $(kubectl get peerauthentications.security.istio.io -n $NS -o jsonpath='{range .items[*]}{.metadata.name}={.spec.mtls.mode}{"\n"}{end}' | awk -F= '$2=="STRICT"{print $1}'); do
  kubectl patch peerauthentications.security.istio.io "$p" -n $NS --type=merge -p '{"spec":{"mtls":{"mode":"PERMISSIVE"}}}'
done
true
