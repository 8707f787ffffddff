# expect: pass — copy the readiness probe of the previous (healthy) ReplicaSet back into the deployment.
for d in $(broken_deploys); do
  cur=$(kubectl get deploy/$d -n $NS -o jsonpath='{.spec.template.spec.containers[0].readinessProbe}')
  prev=$(kubectl get rs -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.spec.template.spec.containers[0].readinessProbe}{"\n"}{end}' | grep "^$d-" | awk -F'\t' -v cur="$cur" '$2!=cur{print $2}' | head -1)
  echo "$d: $cur -> $prev"
  [ -n "$prev" ] && kubectl patch deploy/$d -n $NS --type=json -p="[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/readinessProbe\",\"value\":$prev}]"
done
