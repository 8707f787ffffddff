# expect: pass — find the Deployment whose pod template carries istio.io/dataplane-mode: none and remove that template label with a JSON patch (path /spec/template/metadata/labels/istio.io~1dataplane-mode); the new pods join the namespace's ambient mesh.
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.metadata.labels.istio\.io/dataplane-mode}{"\n"}{end}' | awk '$2=="none" {print $1}'); do
  kubectl patch deploy "$d" -n "$NS" --type=json -p '[{"op":"remove","path":"/spec/template/metadata/labels/istio.io~1dataplane-mode"}]'
done
true
