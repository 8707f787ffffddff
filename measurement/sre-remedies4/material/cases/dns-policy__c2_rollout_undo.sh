# expect: pass — the Deployment whose template sets dnsPolicy Default or None got it in its last rollout; roll it back.
kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.dnsPolicy}{"\n"}{end}' |
  awk '$2=="Default" || $2=="None" {print $1}' | while read d; do kubectl rollout undo deploy "$d" -n $NS; done
true
