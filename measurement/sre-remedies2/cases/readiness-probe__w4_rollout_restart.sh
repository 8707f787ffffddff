# expect: fail — restart the not-ready deployment.
for d in $(broken_deploys); do kubectl rollout restart deploy "$d" -n $NS; done
true
