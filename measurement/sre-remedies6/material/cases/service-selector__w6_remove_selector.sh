# expect: fail — wrong fix: remove the selector that matches nothing (JSON patch remove /spec/selector); a Service without a selector gets no endpoints from the controller at all, so it still forwards to nothing.
for s in $(svcs_selecting_nothing); do
  kubectl patch svc "$s" -n "$NS" --type=json -p '[{"op":"remove","path":"/spec/selector"}]'
done
true
