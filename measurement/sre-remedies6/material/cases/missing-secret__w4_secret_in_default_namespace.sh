# expect: fail — wrong namespace: create the missing Secret, with the referenced name and key, in `default`; a secretKeyRef is resolved in the pod's own namespace, so the container still cannot be configured (and the value is invented anyway).
for d in $(deploys_with_status 'CreateContainerConfigError'); do
  kubectl get deploy "$d" -n "$NS" -o jsonpath='{range .spec.template.spec.containers[*].env[*]}{.valueFrom.secretKeyRef.name} {.valueFrom.secretKeyRef.key}{"\n"}{end}' |
    awk 'NF==2' | while read s key; do
      kubectl get secret "$s" -n "$NS" >/dev/null 2>&1 && continue
      kubectl create secret generic "$s" -n default --from-literal="$key=changeme"
    done
done
true
