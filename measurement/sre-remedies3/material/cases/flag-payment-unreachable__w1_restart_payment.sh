# expect: fail — wrong object: restart payment, which is healthy; checkout still dials the bad address.
kubectl rollout restart deploy payment -n $NS
true
