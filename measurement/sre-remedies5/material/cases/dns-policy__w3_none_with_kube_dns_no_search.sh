# expect: fail — near miss: dnsPolicy None with the cluster DNS Service's IP as the only nameserver but no search domains; the demo addresses its services by short names (cart:8080), which then do not resolve. (debatable only if the twin's addresses were fully qualified)
ip=$(kubectl get svc -n kube-system kube-dns -o jsonpath='{.spec.clusterIP}' 2>/dev/null); [ -n "$ip" ] || ip=10.96.0.10
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.dnsPolicy}{"\n"}{end}' | awk '$2=="Default" || $2=="None" {print $1}'); do
  kubectl patch deploy "$d" -n "$NS" --type=merge -p "{\"spec\":{\"template\":{\"spec\":{\"dnsPolicy\":\"None\",\"dnsConfig\":{\"nameservers\":[\"$ip\"],\"searches\":null,\"options\":[{\"name\":\"ndots\",\"value\":\"1\"}]}}}}}"
done
true
