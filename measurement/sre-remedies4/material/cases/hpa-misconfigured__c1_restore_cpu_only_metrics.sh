# expect: pass — find the HPA whose CPU utilisation target is far below a sane value (< 50 %) and replace its metrics by the one it was set up with: CPU averageUtilization 70 (the memory metric the fault added goes too).
for h in $(kubectl get hpa -n $NS -o jsonpath='{range .items[*]}{.metadata.name}={.spec.metrics[?(@.resource.name=="cpu")].resource.target.averageUtilization}{"\n"}{end}' |
           awk -F= '$2!="" && $2<50 {print $1}'); do
  kubectl patch hpa "$h" -n $NS --type=merge -p '{"spec":{"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}]}}'
done
true
