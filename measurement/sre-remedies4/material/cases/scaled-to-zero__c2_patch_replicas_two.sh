# expect: pass — the Deployment that wants 0 replicas: patch spec.replicas to 2 (a merge patch, not kubectl scale).
kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas}{"\n"}{end}' | awk '$2=="0"{print $1}' | while read d; do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"replicas":2}}'
done
true
