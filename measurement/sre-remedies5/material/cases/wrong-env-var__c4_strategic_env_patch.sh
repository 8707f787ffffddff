# expect: pass — in the crash-looping Deployment find the *_PORT variable whose value is not a number and set it to the container's declared port with a strategic merge patch (env merged by name).
for d in $(deploys_with_status 'CrashLoopBackOff|^Error$'); do
  cp=$(container_port "$d"); [ -n "$cp" ] || continue
  kubectl get deploy "$d" -n "$NS" -o go-template='{{range .spec.template.spec.containers}}{{$c := .name}}{{range .env}}{{$c}} {{.name}} {{.value}}{{"\n"}}{{end}}{{end}}' |
  awk '$2 ~ /_PORT$/ && NF==3 && $3 !~ /^[0-9]+$/ {print $1, $2}' | while read c v; do
    echo "$d/$c: $v -> $cp"
    kubectl patch deploy "$d" -n "$NS" --type=strategic -p "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"$c\",\"env\":[{\"name\":\"$v\",\"value\":\"$cp\"}]}]}}}}"
  done
done
true
