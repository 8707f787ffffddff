# expect: fail — restart the deployment; it still wants 0 replicas.
for d in $(broken_deploys); do kubectl rollout restart deploy/$d -n $NS; done
