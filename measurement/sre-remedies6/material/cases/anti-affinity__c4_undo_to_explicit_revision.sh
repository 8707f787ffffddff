# expect: pass — the Pending Deployment's template carries a required podAntiAffinity that its latest rollout added; roll back to the previous revision named explicitly (kubectl rollout undo --to-revision=N).
for d in $(pending_deploys); do
  [ -n "$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution}')" ] || continue
  r=$(prev_revision "$d"); c=$(cur_revision "$d")
  [ -n "$r" ] && [ "$r" != "$c" ] && kubectl rollout undo deploy/"$d" -n "$NS" --to-revision="$r"
done
true
