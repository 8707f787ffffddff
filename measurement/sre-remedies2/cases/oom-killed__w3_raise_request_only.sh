# expect: fail — raise the memory request but keep the too-low limit; the container still OOMs at the limit.
for d in $(broken_deploys); do
  lim=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].resources.limits.memory}')
  kubectl set resources deploy "$d" -n $NS --requests=memory="${lim:-32Mi}"
done
true
