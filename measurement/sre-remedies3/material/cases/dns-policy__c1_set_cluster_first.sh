# expect: pass — find the deployment whose template sets dnsPolicy Default/None and set it to ClusterFirst (dropping any dnsConfig that came with None).
for d in $(deploys_where "t.get('dnsPolicy') in ('Default','None') and not t.get('hostNetwork')"); do
  if [ -n "$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.dnsConfig}')" ]; then
    kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"remove","path":"/spec/template/spec/dnsConfig"}]'
  fi
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"dnsPolicy":"ClusterFirst"}}}}'
done
true
