# expect: pass — find, in rollout history, the newest earlier revision whose template has no command override and roll back to that revision explicitly.
for d in $(broken_deploys); do
  cur=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].command}')
  [ -z "$cur" ] && continue
  target=""
  for r in $(kubectl rollout history deploy/"$d" -n $NS | awk '$1 ~ /^[0-9]+$/ {print $1}' | sort -rn); do
    if ! kubectl rollout history deploy/"$d" -n $NS --revision="$r" | grep -qi '^ *Command:'; then target=$r; break; fi
  done
  if [ -n "$target" ]; then kubectl rollout undo deploy/"$d" -n $NS --to-revision="$target"; else kubectl rollout undo deploy/"$d" -n $NS; fi
done
true
