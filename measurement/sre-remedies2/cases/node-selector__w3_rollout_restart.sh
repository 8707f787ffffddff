# expect: fail — restart the pending deployment; same selector.
for d in $(broken_deploys); do kubectl rollout restart deploy "$d" -n $NS; done
true
