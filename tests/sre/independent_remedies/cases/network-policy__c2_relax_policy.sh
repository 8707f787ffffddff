# expect: pass — keep the policy object but make it allow all ingress and egress.
for p in $(kubectl get networkpolicy -n $NS -o name); do
  kubectl patch $p -n $NS --type=merge -p '{"spec":{"ingress":[{}],"egress":[{}]}}'
done
