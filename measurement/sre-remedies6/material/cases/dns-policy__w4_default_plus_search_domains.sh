# expect: fail — near miss: keep dnsPolicy Default and add the cluster's search domains in dnsConfig; the nameserver is still the node's resolver, which does not know cluster names, so the short names still fail.
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.dnsPolicy}{"\n"}{end}' | awk '$2=="Default" {print $1}'); do
  kubectl patch deploy "$d" -n "$NS" --type=merge -p "{\"spec\":{\"template\":{\"spec\":{\"dnsConfig\":{\"searches\":[\"$NS.svc.cluster.local\",\"svc.cluster.local\",\"cluster.local\"]}}}}}"
done
true
