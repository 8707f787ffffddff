# expect: pass — the crashing deployment has a previous revision; roll back to it.
for d in $(broken_deploys); do kubectl rollout history deploy/$d -n $NS; kubectl rollout undo deploy/$d -n $NS; done
