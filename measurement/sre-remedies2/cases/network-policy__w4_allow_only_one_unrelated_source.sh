# expect: fail — add an ingress rule for one source (the load generator) only; the real callers stay blocked. (debatable if load-generator is the only caller)
for p in $(kubectl get networkpolicy -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  kubectl patch networkpolicy "$p" -n $NS --type=merge -p '{"spec":{"ingress":[{"from":[{"podSelector":{"matchLabels":{"app.kubernetes.io/name":"load-generator"}}}]}]}}'
done
true
