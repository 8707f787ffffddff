# expect: fail — symptom fix: set imagePullPolicy Never so the kubelet stops pulling; the image is still absent.
for d in $(broken_deploys); do
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"replace","path":"/spec/template/spec/containers/0/imagePullPolicy","value":"Never"}]' || true
done
true
