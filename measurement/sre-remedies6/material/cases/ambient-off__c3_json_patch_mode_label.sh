# expect: pass — find the namespace(s) whose istio.io/dataplane-mode label is none and replace that label's value with ambient by a JSON patch (path /metadata/labels/istio.io~1dataplane-mode).
for n in $(kubectl get ns -l istio.io/dataplane-mode=none -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  kubectl patch ns "$n" --type=json -p '[{"op":"replace","path":"/metadata/labels/istio.io~1dataplane-mode","value":"ambient"}]'
done
true
