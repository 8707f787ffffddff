# expect: fail — restart payment; the flag is still served.
kubectl rollout restart deploy payment -n $NS
true
