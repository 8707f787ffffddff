# expect: pass — find the Deployment whose container was last terminated OOMKilled and raise that container's memory limit to 1Gi (request 256Mi) with a strategic merge patch by container name.
for p in $(kubectl get pods -n $NS -o jsonpath='{range .items[*]}{.metadata.name} {.status.containerStatuses[*].lastState.terminated.reason} {.status.containerStatuses[*].state.terminated.reason}{"\n"}{end}' | awk '/OOMKilled/ {print $1}'); do
  d=$(printf '%s' "$p" | sed -E 's/-[a-z0-9]+-[a-z0-9]+$//')
  kubectl get deploy "$d" -n $NS >/dev/null 2>&1 || continue
  c=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].name}')
  kubectl patch deploy "$d" -n $NS -p "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"$c\",\"resources\":{\"limits\":{\"memory\":\"1Gi\"},\"requests\":{\"memory\":\"256Mi\"}}}]}}}}"
done
true
