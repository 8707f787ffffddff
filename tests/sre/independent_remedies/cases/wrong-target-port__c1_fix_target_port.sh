# expect: pass — a Service's targetPort matches no container port of its pods; set it to the container port.
for s in $(kubectl get svc -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  tp=$(kubectl get svc/$s -n $NS -o jsonpath='{.spec.ports[0].targetPort}')
  cp=$(kubectl get deploy/$s -n $NS -o jsonpath='{.spec.template.spec.containers[0].ports[0].containerPort}' 2>/dev/null)
  if [ -n "$cp" ] && [ "$tp" != "$cp" ]; then echo "$s: targetPort $tp, containerPort $cp"
    kubectl patch svc/$s -n $NS --type=json -p="[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":$cp}]"; fi
done
