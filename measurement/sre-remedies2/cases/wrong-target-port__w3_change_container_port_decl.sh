# expect: fail — wrong object: change the pods' declared containerPort to the Service's wrong targetPort; the process still listens on its real port.
bad_svcs() {
  for s in $(kubectl get svc -n $NS -o jsonpath='{.items[*].metadata.name}'); do
    d=$(deploy_for_svc "$s") || continue
    tp=$(kubectl get svc "$s" -n $NS -o jsonpath='{.spec.ports[0].targetPort}')
    ports=$(kubectl get deploy "$d" -n $NS -o jsonpath='{range .spec.template.spec.containers[*].ports[*]}{.containerPort} {.name}{"\n"}{end}')
    [ -z "$ports" ] && continue
    echo "$ports" | awk -v t="$tp" '$1==t || $2==t {f=1} END {exit !f}' || echo "$s $d"
  done
}

bad_svcs | while read s d; do
  tp=$(kubectl get svc "$s" -n $NS -o jsonpath='{.spec.ports[0].targetPort}')
  kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/ports/0/containerPort\",\"value\":$tp}]" || true
done
true
