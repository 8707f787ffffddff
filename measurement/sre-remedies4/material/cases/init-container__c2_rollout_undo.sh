# expect: pass — the Deployment whose init container crash-loops got it in its last rollout; roll it back.
for p in $(kubectl get pods -n $NS -o jsonpath='{range .items[*]}{.metadata.name} {.status.initContainerStatuses[*].state.waiting.reason}{"\n"}{end}' | awk 'NF>1 {print $1}'); do
  d=$(printf '%s' "$p" | sed -E 's/-[a-z0-9]+-[a-z0-9]+$//')
  kubectl get deploy "$d" -n $NS >/dev/null 2>&1 && echo "$d"
done | sort -u | while read d; do kubectl rollout undo deploy "$d" -n $NS; done
true
