# expect: fail — restart the service's deployment; the Service still points at the wrong port.
for s in $(kubectl get svc -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  tp=$(kubectl get svc/$s -n $NS -o jsonpath='{.spec.ports[0].targetPort}')
  cp=$(kubectl get deploy/$s -n $NS -o jsonpath='{.spec.template.spec.containers[0].ports[0].containerPort}' 2>/dev/null)
  if [ -n "$cp" ] && [ "$tp" != "$cp" ]; then kubectl rollout restart deploy/$s -n $NS; fi
done
