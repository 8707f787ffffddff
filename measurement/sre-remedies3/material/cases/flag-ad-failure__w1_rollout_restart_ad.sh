# expect: fail — restart the failing ad service; the flag is still served on.
kubectl rollout restart deploy ad -n $NS
true
