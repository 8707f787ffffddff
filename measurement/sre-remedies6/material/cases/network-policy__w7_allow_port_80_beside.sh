# expect: fail — near miss: add a second NetworkPolicy on the same pods allowing ingress from anywhere but only on TCP 80; the isolated service listens on its own port (not 80), which stays denied.
for p in $(kubectl get networkpolicy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.policyTypes}|{.spec.ingress}{"\n"}{end}' | awk -F'|' '{split($1, a, " ")} (a[2]=="" || a[2] ~ /Ingress/) && ($2=="" || $2=="[]") {print a[1]}'); do
  sel=$(kubectl get networkpolicy "$p" -n "$NS" -o jsonpath='{.spec.podSelector}')
  [ -n "$sel" ] || sel='{}'
  kubectl apply -n "$NS" -f - <<EOF2
{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"$p-allow-80","namespace":"$NS"},
 "spec":{"podSelector":$sel,"policyTypes":["Ingress"],"ingress":[{"ports":[{"protocol":"TCP","port":80}]}]}}
EOF2
done
true
