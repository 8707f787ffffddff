# expect: pass — the last rollout broke the readiness probe; roll back.
for d in $(broken_deploys); do kubectl rollout history deploy/$d -n $NS; kubectl rollout undo deploy/$d -n $NS; done
