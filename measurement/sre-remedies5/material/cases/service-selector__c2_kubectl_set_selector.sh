# expect: pass — find the Service whose selector matches no pod; `kubectl set selector` it (which overwrites the whole selector) to the matchLabels of the Deployment of the same name.
for s in $(svcs_selecting_nothing); do
  sel=$(match_labels "$s"); [ -n "$sel" ] || continue
  echo "$s: selector $(svc_selector "$s") -> $sel"
  kubectl set selector svc "$s" -n "$NS" "$sel"
done
true
