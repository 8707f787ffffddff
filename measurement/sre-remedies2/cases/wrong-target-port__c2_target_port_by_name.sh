# expect: pass — set the Service's targetPort to the container port's name (named port).
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
  pn=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].ports[0].name}')
  pp=$(cport_of "$d")
  if [ -n "$pn" ]; then v="\"$pn\""; else v="$pp"; fi
  kubectl patch svc "$s" -n $NS --type=json -p="[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":$v}]"
done
true
