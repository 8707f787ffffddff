# expect: fail — near miss: make the bad *_PORT variable numeric but not the service's port (9090); the process starts, but the probe and the Service target the declared port, where nothing listens.
for d in $(broken_deploys); do
  kubectl get deploy "$d" -n $NS -o jsonpath='{range .spec.template.spec.containers[0].env[*]}{.name}={.value}{"\n"}{end}' |
    awk -F= '$1 ~ /_PORT$/ && $2 !~ /^[0-9]+$/ {print $1}' | while read v; do
      kubectl set env deploy "$d" -n $NS "$v=9090"
    done
done
true
