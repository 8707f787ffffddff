# expect: pass — same diagnosis; set dnsPolicy to ClusterFirstWithHostNet (dropping any dnsConfig): for a pod without hostNetwork the kubelet gives it the cluster DNS exactly as ClusterFirst. (debatable: an odd value to choose, but it resolves cluster names)
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.dnsPolicy}{"\n"}{end}' | awk '$2=="Default" || $2=="None" {print $1}'); do
  kubectl patch deploy "$d" -n "$NS" --type=merge -p '{"spec":{"template":{"spec":{"dnsPolicy":"ClusterFirstWithHostNet","dnsConfig":null}}}}'
done
true
