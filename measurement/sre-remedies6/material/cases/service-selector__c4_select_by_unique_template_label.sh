# expect: pass — find the Service whose selector matches no pod; replace its whole selector (JSON patch) by ANOTHER label of the same-named Deployment's pod template (not its matchLabels) that selects exactly that Deployment's pods and no other pod; the Service gets the right endpoints through a different label.
for s in $(svcs_selecting_nothing); do
  kubectl get deploy "$s" -n "$NS" >/dev/null 2>&1 || continue
  kv=$(unique_other_label "$s"); [ -n "$kv" ] || { echo "$s: no other unique template label"; continue; }
  k=${kv%%=*}; v=${kv#*=}
  echo "$s: selector $(svc_selector "$s") -> $kv"
  kubectl patch svc "$s" -n "$NS" --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/selector\",\"value\":{\"$k\":\"$v\"}}]"
done
true
