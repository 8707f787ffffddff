# expect: fail — restart flagd; it reloads the same ConfigMap with adManualGc on.
kubectl rollout restart deploy flagd -n $NS
true
