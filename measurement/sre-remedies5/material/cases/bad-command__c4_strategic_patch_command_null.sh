# expect: pass — find the crash-looping Deployment whose container has a command override and delete the override with a strategic merge patch by container name (command: null), so the image's entrypoint runs again.
for d in $(deploys_with_status 'CrashLoopBackOff|^Error$'); do
  kubectl get deploy "$d" -n "$NS" -o go-template='{{range .spec.template.spec.containers}}{{if .command}}{{.name}}{{"\n"}}{{end}}{{end}}' |
  while read c; do
    echo "$d/$c: dropping the command override"
    kubectl patch deploy "$d" -n "$NS" --type=strategic -p "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"$c\",\"command\":null}]}}}}"
  done
done
true
