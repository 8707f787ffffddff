# expect: pass — same diagnosis; fetch the Service as YAML, rewrite its first targetPort line to the container port with awk, and `kubectl replace` it (the live object round-tripped, everything else kept).
for s in $(svcs_with_closed_target_port); do
  p=$(container_port "$s"); [ -n "$p" ] || continue
  kubectl get svc "$s" -n "$NS" -o yaml |
    awk -v p="$p" '!done && $1=="targetPort:" {sub(/targetPort:.*/, "targetPort: " p); done=1} {print}' |
    kubectl replace -f -
done
true
