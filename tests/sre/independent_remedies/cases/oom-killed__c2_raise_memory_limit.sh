# expect: pass — OOMKilled: raise the container's memory limit (and request) to a sane value.
for d in $(broken_deploys); do
  kubectl get deploy/$d -n $NS -o jsonpath='{.spec.template.spec.containers[0].resources}'; echo
  kubectl set resources deploy/$d -n $NS --limits=memory=512Mi --requests=memory=128Mi
done
