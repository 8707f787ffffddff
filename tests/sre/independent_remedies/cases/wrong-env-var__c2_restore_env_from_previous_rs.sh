# expect: pass — put back the env of the previous (healthy) ReplicaSet.
for d in $(broken_deploys); do
  cur=$(kubectl get deploy/$d -n $NS -o jsonpath='{.spec.template.spec.containers[0].env}')
  prev=$(kubectl get rs -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.spec.template.spec.containers[0].env}{"\n"}{end}' | grep "^$d-" | awk -F'\t' -v cur="$cur" '$2!=cur{print $2}' | head -1)
  echo "$d: $cur -> $prev"
  [ -n "$prev" ] && kubectl patch deploy/$d -n $NS --type=json -p="[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/env\",\"value\":$prev}]"
done
