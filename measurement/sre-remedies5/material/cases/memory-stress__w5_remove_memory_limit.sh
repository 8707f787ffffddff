# expect: fail — symptom fix: remove the memory limit of the stressed service's containers so the OOM kills stop; the stressor keeps allocating in the container (now bounded only by the node), the experiment stays.
chaos_of stresschaos | while read r n ns; do
  case "$r" in schedules.*) continue ;; esac
  [ -n "$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.stressors.memory}')" ] || continue
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do
    [ -n "$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].resources.limits.memory}')" ] || continue
    kubectl patch deploy "$d" -n "$NS" --type=json -p '[{"op":"remove","path":"/spec/template/spec/containers/0/resources/limits/memory"}]'
  done
done
true
