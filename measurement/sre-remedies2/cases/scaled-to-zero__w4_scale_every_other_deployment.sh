# expect: fail — scale every non-zero deployment to 2 replicas (wrong objects; the zero one stays 0).
z=$(zero_deploys)
for d in $(kubectl get deploy -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  echo "$z" | grep -qx "$d" && continue
  kubectl scale deploy "$d" -n $NS --replicas=2
done
true
