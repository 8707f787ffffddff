# expect: fail — restart the deployment; same template, same crash.
for d in $(broken_deploys); do kubectl rollout restart deploy/$d -n $NS; done
