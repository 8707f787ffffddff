# expect: pass — find the Service whose selector matches no pod; replace its selector by the matchLabels of the Deployment of the same name.
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
  kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
m=json.load(sys.stdin)["spec"]["selector"]["matchLabels"]
print(json.dumps([{"op":"replace","path":"/spec/selector","value":m}]))' > /tmp/sel.json
  kubectl patch svc "$s" -n $NS --type=json --patch-file /tmp/sel.json
done
true
