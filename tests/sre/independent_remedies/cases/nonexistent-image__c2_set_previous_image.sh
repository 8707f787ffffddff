# expect: pass — set the image back to the one of the previous ReplicaSet.
for d in $(broken_deploys); do
  cur=$(kubectl get deploy/$d -n $NS -o jsonpath='{.spec.template.spec.containers[0].image}')
  c=$(kubectl get deploy/$d -n $NS -o jsonpath='{.spec.template.spec.containers[0].name}')
  prev=$(kubectl get rs -n $NS -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.containers[0].image}{"\n"}{end}' | grep "^$d-" | awk -v cur="$cur" '$2!=cur{print $2}' | head -1)
  echo "$d: $cur -> $prev"
  [ -n "$prev" ] && kubectl set image deploy/$d -n $NS "$c=$prev"
done
