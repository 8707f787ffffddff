# expect: pass — find the namespace(s) labelled istio.io/dataplane-mode=none and label them ambient again.
for n in $(kubectl get ns -o jsonpath='{range .items[*]}{.metadata.name}={.metadata.labels.istio\.io/dataplane-mode}{"\n"}{end}' | awk -F= '$2=="none"{print $1}'); do
  kubectl label namespace "$n" istio.io/dataplane-mode=ambient --overwrite
done
true
