# expect: pass — the broken selector's value names the service with a suffix (-v2, -svc, -service); strip the suffix from each selector value with a merge patch, after checking the corrected selector matches the same-named Deployment's pods (and nothing is done otherwise).
for s in $(svcs_selecting_nothing); do
  new=""; json=""
  for kv in $(svc_selector "$s" | tr ',' ' '); do
    k=${kv%%=*}; v=${kv#*=}; v2=$(echo "$v" | sed -E 's/-(v[0-9]+|svc|service)$//')
    new="$new,$k=$v2"; json="$json,\"$k\":\"$v2\""
  done
  new=${new#,}; json=${json#,}
  [ -n "$new" ] || continue
  n=$(count_pods "$new")
  ml=$(match_labels "$s")
  if [ "$n" -gt 0 ] && { [ -z "$ml" ] || [ "$n" = "$(count_pods "$ml")" ]; }; then
    echo "$s: selector -> $new ($n pods)"
    kubectl patch svc "$s" -n "$NS" --type=merge -p "{\"spec\":{\"selector\":{$json}}}"
  else echo "$s: stripped selector $new matches $n pods; left alone"; fi
done
true
