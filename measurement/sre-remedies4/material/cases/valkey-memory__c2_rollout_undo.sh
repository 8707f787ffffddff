# expect: pass — the Deployment whose container is started with --maxmemory was last rolled out with that limit; roll it back.
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].command[*]} {.spec.template.spec.containers[0].args[*]}' | grep -q -- --maxmemory &&
    kubectl rollout undo deploy "$d" -n $NS
done
true
