# expect: pass — same diagnosis; delete the mis-set HPA and recreate it with `kubectl autoscale` (same name, target, min and max; CPU 70 %). (debatable: the HPA object is deleted for a moment; its end state is the original)
for h in $(kubectl get hpa -n $NS -o jsonpath='{range .items[*]}{.metadata.name}={.spec.metrics[?(@.resource.name=="cpu")].resource.target.averageUtilization}{"\n"}{end}' |
           awk -F= '$2!="" && $2<50 {print $1}'); do
  d=$(kubectl get hpa "$h" -n $NS -o jsonpath='{.spec.scaleTargetRef.name}')
  mn=$(kubectl get hpa "$h" -n $NS -o jsonpath='{.spec.minReplicas}'); mx=$(kubectl get hpa "$h" -n $NS -o jsonpath='{.spec.maxReplicas}')
  kubectl delete hpa "$h" -n $NS
  kubectl autoscale deployment "$d" -n $NS --name="$h" --min="${mn:-1}" --max="$mx" --cpu-percent=70
done
true
