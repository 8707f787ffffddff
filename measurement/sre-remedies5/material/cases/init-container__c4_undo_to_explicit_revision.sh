# expect: pass — the Deployment whose pod is stuck in Init: (crash-looping init container) got it in its latest rollout; read its rollout history and roll back to the revision before the current one, named explicitly (--to-revision).
for d in $(init_stuck_deploys); do
  r=$(prev_revision "$d"); c=$(cur_revision "$d")
  [ -n "$r" ] && [ "$r" != "$c" ] && kubectl rollout undo deploy/"$d" -n "$NS" --to-revision="$r"
done
true
