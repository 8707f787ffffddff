# expect: fail — symptom fix: raise the maxed-out HPA's maxReplicas to 10 so KubeHpaMaxedOut stops; the 20 %/30 % targets stay and the HPA runs more replicas than the load needs.
for h in $(kubectl get hpa -n $NS -o jsonpath='{range .items[*]}{.metadata.name}={.spec.metrics[?(@.resource.name=="cpu")].resource.target.averageUtilization}{"\n"}{end}' |
           awk -F= '$2!="" && $2<50 {print $1}'); do
  kubectl patch hpa "$h" -n $NS --type=merge -p '{"spec":{"maxReplicas":10}}'
done
true
