# expect: pass — find the namespace(s) whose istio.io/dataplane-mode label is none and set it to ambient with a merge patch of the Namespace's metadata.
for n in $(kubectl get ns -l istio.io/dataplane-mode=none -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  kubectl patch ns "$n" --type=merge -p '{"metadata":{"labels":{"istio.io/dataplane-mode":"ambient"}}}'
done
true
