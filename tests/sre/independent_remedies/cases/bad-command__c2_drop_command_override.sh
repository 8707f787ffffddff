# expect: pass — the container's command was overridden; remove the override so the image entrypoint runs.
for d in $(broken_deploys); do
  kubectl get deploy/$d -n $NS -o jsonpath='{.spec.template.spec.containers[0].command}'; echo
  kubectl patch deploy/$d -n $NS --type=json -p='[{"op":"remove","path":"/spec/template/spec/containers/0/command"}]'
done
