# expect: pass — the last rollout changed an env var and the service crashes; roll back.
for d in $(broken_deploys); do kubectl rollout history deploy/$d -n $NS; kubectl rollout undo deploy/$d -n $NS; done
