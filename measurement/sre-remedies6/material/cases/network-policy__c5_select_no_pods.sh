# expect: pass — keep the deny-all NetworkPolicy object but make its podSelector match no pod (matchLabels networkpolicy.disabled/by=sre); a policy that selects nothing isolates nothing, so every caller gets through again. (debatable: an unusual way to neutralise it instead of deleting it)
for p in $(kubectl get networkpolicy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.policyTypes}|{.spec.ingress}{"\n"}{end}' | awk -F'|' '{split($1, a, " ")} (a[2]=="" || a[2] ~ /Ingress/) && ($2=="" || $2=="[]") {print a[1]}'); do
  kubectl patch networkpolicy "$p" -n "$NS" --type=json -p '[{"op":"replace","path":"/spec/podSelector","value":{"matchLabels":{"networkpolicy.disabled/by":"sre"}}}]'
done
true
