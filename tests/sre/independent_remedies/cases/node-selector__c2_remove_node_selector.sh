# expect: pass — remove the unsatisfiable nodeSelector from the pod template.
for d in $(broken_deploys); do
  kubectl get deploy/$d -n $NS -o jsonpath='{.spec.template.spec.nodeSelector}'; echo
  kubectl patch deploy/$d -n $NS --type=json -p='[{"op":"remove","path":"/spec/template/spec/nodeSelector"}]'
done
