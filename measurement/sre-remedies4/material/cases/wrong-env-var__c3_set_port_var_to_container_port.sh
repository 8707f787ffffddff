# expect: pass — in the crash-looping Deployment, find the *_PORT variable whose value is not a number and set it to the container's declared port with kubectl set env.
for d in $(broken_deploys); do
  cp=$(container_port "$d"); [ -n "$cp" ] || continue
  kubectl get deploy "$d" -n $NS -o jsonpath='{range .spec.template.spec.containers[0].env[*]}{.name}={.value}{"\n"}{end}' |
    awk -F= '$1 ~ /_PORT$/ && $2 !~ /^[0-9]+$/ {print $1}' | while read v; do
      kubectl set env deploy "$d" -n $NS "$v=$cp"
    done
done
true
