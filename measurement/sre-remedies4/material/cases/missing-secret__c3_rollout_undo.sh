# expect: pass — the Deployment stuck in CreateContainerConfigError got its dangling secretKeyRef in its last rollout; roll it back.
for p in $(kubectl get pods -n $NS -o jsonpath='{range .items[*]}{.metadata.name} {.status.containerStatuses[*].state.waiting.reason}{"\n"}{end}' | awk '$2=="CreateContainerConfigError" {print $1}'); do
  printf '%s\n' "$p" | sed -E 's/-[a-z0-9]+-[a-z0-9]+$//'
done | sort -u | while read d; do kubectl get deploy "$d" -n $NS >/dev/null 2>&1 && kubectl rollout undo deploy "$d" -n $NS; done
true
