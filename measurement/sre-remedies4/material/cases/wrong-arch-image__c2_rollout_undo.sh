# expect: pass — the crash-looping Deployment's last rollout set an image for another architecture; roll it back.
for d in $(broken_deploys); do
  [ "$(kubectl get deploy "$d" -n $NS -o jsonpath='{.metadata.annotations.deployment\.kubernetes\.io/revision}')" -gt 1 ] 2>/dev/null && kubectl rollout undo deploy "$d" -n $NS
done
true
