# expect: pass — raise the container's memory limit to 1Gi (JSON patch), request to 256Mi.
for d in $(broken_deploys); do
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"add","path":"/spec/template/spec/containers/0/resources","value":{"limits":{"memory":"1Gi"},"requests":{"memory":"256Mi"}}}]'
done
true
