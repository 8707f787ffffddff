# expect: pass — find the Deployment whose template sets dnsPolicy Default or None; set dnsPolicy None with a dnsConfig equal to what ClusterFirst gives: the cluster DNS Service's IP as nameserver, the search list <ns>.svc.cluster.local svc.cluster.local cluster.local, ndots 5. (debatable: a hand-written copy of ClusterFirst rather than ClusterFirst itself)
ip=$(kubectl get svc kube-dns -n kube-system -o jsonpath='{.spec.clusterIP}' 2>/dev/null); [ -n "$ip" ] || ip=10.96.0.10
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.dnsPolicy}{"\n"}{end}' | awk '$2=="Default" || $2=="None" {print $1}'); do
  kubectl patch deploy "$d" -n "$NS" --type=merge -p "{\"spec\":{\"template\":{\"spec\":{\"dnsPolicy\":\"None\",\"dnsConfig\":{\"nameservers\":[\"$ip\"],\"searches\":[\"$NS.svc.cluster.local\",\"svc.cluster.local\",\"cluster.local\"],\"options\":[{\"name\":\"ndots\",\"value\":\"5\"}]}}}}}"
done
true
