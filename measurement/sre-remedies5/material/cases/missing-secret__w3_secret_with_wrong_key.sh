# expect: fail — near miss: create the missing Secret under the referenced name but with a different key (`value`, or `data` if `value` is the one referenced) and a placeholder; the reference names a key the Secret lacks, so the container still cannot be configured.
for d in $(deploys_with_status 'CreateContainerConfigError'); do
  kubectl get deploy "$d" -n "$NS" -o go-template='{{range .spec.template.spec.containers}}{{range .env}}{{if .valueFrom}}{{if .valueFrom.secretKeyRef}}{{.valueFrom.secretKeyRef.name}} {{.valueFrom.secretKeyRef.key}}{{"\n"}}{{end}}{{end}}{{end}}{{end}}' |
  while read s k; do
    kubectl get secret "$s" -n "$NS" >/dev/null 2>&1 && continue
    wk=value; [ "$k" = "value" ] && wk=data
    kubectl create secret generic "$s" -n "$NS" --from-literal="$wk=changeme"
  done
done
true
