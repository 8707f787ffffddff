# expect: fail — restart product-catalog; the flag is still served by its targeting rule.
kubectl rollout restart deploy product-catalog -n $NS
true
