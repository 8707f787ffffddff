# expect: fail — set the image to the ':latest' tag of the same repository (unpinned, and not the release the rest of the demo runs). (debatable)
for d in $(broken_deploys); do
  img=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].image}')
  c=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].name}')
  kubectl set image deploy/"$d" -n $NS "$c=${img%:*}:latest"
done
true
