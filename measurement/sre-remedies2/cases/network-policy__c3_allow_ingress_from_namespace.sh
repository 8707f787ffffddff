# expect: pass — keep the policy but give it an ingress rule admitting every pod of the application namespace (the demo's callers).
for p in $(kubectl get networkpolicy -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  kubectl patch networkpolicy "$p" -n $NS --type=merge -p '{"spec":{"ingress":[{"from":[{"podSelector":{}}]}]}}'
done
true
