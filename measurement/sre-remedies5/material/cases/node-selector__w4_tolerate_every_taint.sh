# expect: fail — wrong mechanism: give the Pending Deployment a toleration for every taint (operator Exists); it is refused because no node carries its nodeSelector label, not because of a taint.
for d in $(pending_deploys); do
  kubectl patch deploy "$d" -n "$NS" --type=merge -p '{"spec":{"template":{"spec":{"tolerations":[{"operator":"Exists"}]}}}}'
done
true
