# expect: fail — restart flagd; it reloads the same ConfigMap with the flag still on.
kubectl rollout restart deploy flagd -n $NS || true
true
