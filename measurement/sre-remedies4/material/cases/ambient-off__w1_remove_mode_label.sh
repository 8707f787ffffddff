# expect: fail — near miss: remove the namespace's dataplane-mode label instead of setting it to ambient; an unlabelled namespace is not enrolled either.
for n in $(kubectl get ns -o jsonpath='{range .items[*]}{.metadata.name}={.metadata.labels.istio\.io/dataplane-mode}{"\n"}{end}' | awk -F= '$2=="none"{print $1}'); do
  kubectl label namespace "$n" istio.io/dataplane-mode-
done
true
