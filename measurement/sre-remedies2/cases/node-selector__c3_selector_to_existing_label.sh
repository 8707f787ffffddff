# expect: pass — replace the unsatisfiable nodeSelector by one every node has (kubernetes.io/os=linux). (debatable: keeps a selector instead of removing it)
for d in $(broken_deploys); do
  ns_sel=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.nodeSelector}')
  [ -z "$ns_sel" ] && continue
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"replace","path":"/spec/template/spec/nodeSelector","value":{"kubernetes.io/os":"linux"}}]'
done
true
