# expect: fail — wrong field: set the Service's targetPort to the container's declared port; the selector still matches no pod.
# "service deployment" for Services with a selector that matches no pod, and the deployment of the
# same name (the demo names each Service after its Deployment).
bad_selectors() {
  for s in $(kubectl get svc -n $NS --no-headers -o custom-columns=N:.metadata.name); do
    sel=$(kubectl get svc "$s" -n $NS -o json | python3 -c '
import json,sys
s=json.load(sys.stdin)["spec"].get("selector") or {}
print(",".join("%s=%s"%kv for kv in sorted(s.items())))')
    [ -z "$sel" ] && continue
    n=$(kubectl get pods -n $NS -l "$sel" --no-headers 2>/dev/null | wc -l)
    [ "$n" -eq 0 ] && kubectl get deploy "$s" -n $NS >/dev/null 2>&1 && echo "$s $s"
  done
  true
}

bad_selectors | while read s d; do
  p=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].ports[0].containerPort}')
  [ -n "$p" ] && kubectl patch svc "$s" -n $NS --type=json -p="[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":$p}]"
done
true
