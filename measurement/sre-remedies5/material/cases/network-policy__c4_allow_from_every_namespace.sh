# expect: pass — find the NetworkPolicy of the namespace that governs Ingress with no ingress rule (deny-all) and give it one rule admitting every pod of every namespace (from: namespaceSelector {}); the demo's callers are all pods, so nothing is blocked any more.
for p in $(kubectl get networkpolicy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}|{.spec.policyTypes}|{.spec.ingress}{"\n"}{end}' | awk -F'|' '($2 ~ /Ingress/ || $2=="") && ($3=="" || $3=="[]") {print $1}'); do
  echo "deny-all ingress policy $p: admitting all in-cluster sources"
  kubectl patch networkpolicy "$p" -n "$NS" --type=merge -p '{"spec":{"ingress":[{"from":[{"namespaceSelector":{}}]}]}}'
done
true
