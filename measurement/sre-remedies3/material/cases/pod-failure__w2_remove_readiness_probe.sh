# expect: fail — destructive symptom fix: remove the readiness probe of the never-Ready service; its containers are still paused by the experiment.
podfail_chaos() {
  chaos_of podchaos | while read r n ns; do
    a=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.action}{.spec.podChaos.action}')
    [ "$a" = "pod-failure" ] && echo "$r $n $ns"
  done
  true
}

podfail_chaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    [ -n "$(kubectl get deploy "$t" -n $NS -o jsonpath='{.spec.template.spec.containers[0].readinessProbe}' 2>/dev/null)" ] &&
      kubectl patch deploy "$t" -n $NS --type=json -p='[{"op":"remove","path":"/spec/template/spec/containers/0/readinessProbe"}]'
  done
done
true
