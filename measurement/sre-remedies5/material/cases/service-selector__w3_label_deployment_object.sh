# expect: fail — wrong object: label the Deployment object itself with the Service's selector labels (kubectl label deploy ... --overwrite); a Service selects pods, not Deployments, so it still has no endpoints.
for s in $(svcs_selecting_nothing); do
  kubectl get deploy "$s" -n "$NS" >/dev/null 2>&1 || continue
  kubectl label deploy "$s" -n "$NS" --overwrite $(svc_selector "$s" | sed 's/,/ /g')
done
true
