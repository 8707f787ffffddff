# expect: pass — the pending deployment's last revision added a nodeSelector no node matches; roll back.
for d in $(broken_deploys); do kubectl rollout history deploy/$d -n $NS; kubectl rollout undo deploy/$d -n $NS; done
