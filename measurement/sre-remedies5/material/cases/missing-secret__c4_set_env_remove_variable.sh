# expect: pass — find the Deployment stuck in CreateContainerConfigError and the env var whose secretKeyRef names a Secret that does not exist; remove that variable with `kubectl set env ... VAR-`.
for d in $(deploys_with_status 'CreateContainerConfigError'); do
  kubectl get deploy "$d" -n "$NS" -o go-template='{{range .spec.template.spec.containers}}{{$c := .name}}{{range .env}}{{if .valueFrom}}{{if .valueFrom.secretKeyRef}}{{$c}} {{.name}} {{.valueFrom.secretKeyRef.name}}{{"\n"}}{{end}}{{end}}{{end}}{{end}}' |
  while read c v s; do
    kubectl get secret "$s" -n "$NS" >/dev/null 2>&1 && continue
    echo "$d/$c: $v refers to missing Secret $s"
    kubectl set env deploy/"$d" -n "$NS" -c "$c" "$v-"
  done
done
true
