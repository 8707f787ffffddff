# expect: fail — restart the deployment that has no pods; quota still forbids them.
for d in $(broken_deploys); do kubectl rollout restart deploy/$d -n $NS; done
