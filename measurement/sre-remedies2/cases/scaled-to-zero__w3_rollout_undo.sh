# expect: fail — rollout undo: replicas are not part of the pod template, the deployment still wants 0.
for d in $(zero_deploys); do kubectl rollout undo deploy/"$d" -n $NS || true; done
true
