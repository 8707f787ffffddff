# expect: fail — label a worker node so the bogus selector matches (changes a node for a bad deploy). (debatable)
for d in $(broken_deploys); do
  kubectl get deploy/$d -n $NS -o jsonpath='{range .spec.template.spec.nodeSelector}{@}{end}'
  sel=$(kubectl get deploy/$d -n $NS -o go-template='{{range $k,$v := .spec.template.spec.nodeSelector}}{{$k}}={{$v}} {{end}}')
  for kv in $sel; do kubectl label node worker-1 "$kv" --overwrite; done
done
