# expect: fail — scale the Service's deployment up; no replica listens on the targetPort.
bad_svcs() {
  for s in $(kubectl get svc -n $NS -o jsonpath='{.items[*].metadata.name}'); do
    d=$(deploy_for_svc "$s") || continue
    tp=$(kubectl get svc "$s" -n $NS -o jsonpath='{.spec.ports[0].targetPort}')
    ports=$(kubectl get deploy "$d" -n $NS -o jsonpath='{range .spec.template.spec.containers[*].ports[*]}{.containerPort} {.name}{"\n"}{end}')
    [ -z "$ports" ] && continue
    echo "$ports" | awk -v t="$tp" '$1==t || $2==t {f=1} END {exit !f}' || echo "$s $d"
  done
}

bad_svcs | while read s d; do kubectl scale deploy "$d" -n $NS --replicas=3; done
true
