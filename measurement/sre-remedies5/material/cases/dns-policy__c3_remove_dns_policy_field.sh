# expect: pass — find the Deployment whose template sets dnsPolicy Default or None and remove the field (and a dnsConfig that came with None); the API server defaults it to ClusterFirst.
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.dnsPolicy}{"\n"}{end}' | awk '$2=="Default" || $2=="None" {print $1}'); do
  ops='{"op":"remove","path":"/spec/template/spec/dnsPolicy"}'
  [ -n "$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.dnsConfig}')" ] && ops="$ops,{\"op\":\"remove\",\"path\":\"/spec/template/spec/dnsConfig\"}"
  kubectl patch deploy "$d" -n "$NS" --type=json -p "[$ops]"
done
true
