# expect: pass — find the Deployment whose pod template opts out of the ambient mesh (istio.io/dataplane-mode: none) and remove that label, so its new pods join the mesh and speak mTLS.
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}={.spec.template.metadata.labels.istio\.io/dataplane-mode}{"\n"}{end}' | awk -F= '$2=="none"{print $1}'); do
  kubectl patch deploy "$d" -n $NS --type=json -p '[{"op":"remove","path":"/spec/template/metadata/labels/istio.io~1dataplane-mode"}]'
done
true
