# expect: fail — wrong mode: label the out-of-mesh namespace istio-injection=enabled (sidecar injection) and restart nothing; the ambient dataplane-mode label stays none, and an ambient-only mesh injects no sidecars.
for n in $(kubectl get ns -l istio.io/dataplane-mode=none -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  kubectl label ns "$n" istio-injection=enabled --overwrite
done
true
