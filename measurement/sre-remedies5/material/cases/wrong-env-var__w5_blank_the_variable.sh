# expect: fail — near miss: blank the non-numeric *_PORT variable (value ""), thinking the service falls back to its default; an empty port is still not a number and the service still cannot start.
for d in $(deploys_with_status 'CrashLoopBackOff|^Error$'); do
  kubectl get deploy "$d" -n "$NS" -o go-template='{{range .spec.template.spec.containers}}{{$c := .name}}{{range .env}}{{$c}} {{.name}} {{.value}}{{"\n"}}{{end}}{{end}}' |
  awk '$2 ~ /_PORT$/ && NF==3 && $3 !~ /^[0-9]+$/ {print $1, $2}' | while read c v; do
    kubectl set env deploy/"$d" -n "$NS" -c "$c" "$v="
  done
done
true
