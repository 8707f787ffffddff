# expect: pass — roll back to the previous revision named explicitly (--to-revision).
for d in $(broken_deploys); do
  r=$(prev_revision "$d")
  if [ -n "$r" ]; then kubectl rollout undo deploy/"$d" -n $NS --to-revision="$r"; fi
done
true
