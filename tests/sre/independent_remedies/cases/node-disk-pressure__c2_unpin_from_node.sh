# expect: pass — the pending workload is pinned to the pressured node; drop the pin (affinity/nodeName/nodeSelector) so it schedules on a healthy node. (debatable)
for d in $(broken_deploys); do
  kubectl get deploy/$d -n $NS -o jsonpath='{.spec.template.spec.affinity}{"|"}{.spec.template.spec.nodeName}{"|"}{.spec.template.spec.nodeSelector}'; echo
  for f in affinity nodeName nodeSelector; do
    kubectl patch deploy/$d -n $NS --type=json -p="[{\"op\":\"remove\",\"path\":\"/spec/template/spec/$f\"}]" 2>/dev/null || true
  done
done
