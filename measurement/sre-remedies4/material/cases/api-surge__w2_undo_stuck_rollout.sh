# expect: fail — wrong object: roll back the Deployment whose new pod is stuck Pending; its pod is still created during the surge and still not bound.
for d in $(pending_deploys); do kubectl rollout undo deploy "$d" -n $NS; done
true
