# expect: fail — wrong object: restart the Valkey server (the Deployment started with --requirepass); the Secret still holds the garbled password the cart sends. (debatable only if Valkey read its password from the same Secret, which the docs say it does not)
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].command[*]} {.spec.template.spec.containers[0].args[*]}' | grep -q -- --requirepass &&
    kubectl rollout restart deploy "$d" -n $NS
done
true
