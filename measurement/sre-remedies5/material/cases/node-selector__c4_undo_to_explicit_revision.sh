# expect: pass — the Pending Deployment's template carries a nodeSelector; its latest rollout added it; roll back to the previous revision named explicitly (--to-revision).
for d in $(pending_deploys); do
  [ -n "$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.nodeSelector}')" ] || continue
  r=$(prev_revision "$d"); c=$(cur_revision "$d")
  [ -n "$r" ] && [ "$r" != "$c" ] && kubectl rollout undo deploy/"$d" -n "$NS" --to-revision="$r"
done
true
