# expect: fail — wrong direction: add a second NetworkPolicy on the same pods allowing all EGRESS; the deny-all INGRESS policy still refuses every caller.
for p in $(kubectl get networkpolicy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}|{.spec.policyTypes}|{.spec.ingress}{"\n"}{end}' | awk -F'|' '($2 ~ /Ingress/ || $2=="") && ($3=="" || $3=="[]") {print $1}'); do
  sel=$(kubectl get networkpolicy "$p" -n "$NS" -o jsonpath='{.spec.podSelector}')
  [ -n "$sel" ] || sel='{}'
  kubectl apply -n "$NS" -f - <<EOF
{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"$p-allow-egress","namespace":"$NS"},"spec":{"podSelector":$sel,"policyTypes":["Egress"],"egress":[{}]}}
EOF
done
true
