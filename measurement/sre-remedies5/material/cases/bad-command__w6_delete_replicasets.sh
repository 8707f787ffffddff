# expect: fail — delete the crash-looping Deployment's ReplicaSets (by its selector); the Deployment controller recreates one from the same template, with the same bad command.
for d in $(deploys_with_status 'CrashLoopBackOff|^Error$'); do
  [ -n "$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[*].command}')" ] || continue
  kubectl delete rs -n "$NS" -l "$(match_labels "$d")" --wait=false
done
true
