# expect: fail — near miss: point the Service's selector at a label every demo pod shares (the release/part-of label of the Deployment's template), so it load-balances over all the demo's pods, most of which are other services; if no such label exists the selector still matches nothing.
for s in $(svcs_selecting_nothing); do
  pick=""
  for kv in $(kubectl get deploy "$s" -n "$NS" -o go-template='{{range $k,$v := .spec.template.metadata.labels}}{{$k}}={{$v}}{{"\n"}}{{end}}' 2>/dev/null); do
    n=$(kubectl get pods -n "$NS" -l "$kv" --no-headers 2>/dev/null | wc -l)
    [ "$n" -ge 3 ] && { pick="$kv"; break; }
  done
  [ -n "$pick" ] || pick="app.kubernetes.io/part-of=opentelemetry-demo"
  echo "$s: selector -> $pick"
  kubectl set selector svc "$s" -n "$NS" "$pick"
done
true
