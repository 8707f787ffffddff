# expect: fail — restart the deployment; same missing image.
for d in $(broken_deploys); do kubectl rollout restart deploy/$d -n $NS; done
