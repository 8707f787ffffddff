# expect: pass — read the password Valkey is started with (--requirepass) and give it to its client: set VALKEY_PASSWORD on the Deployment(s) that reach Valkey through VALKEY_ADDR. (debatable: the rollback or dropping the requirement is the documented repair; this one keeps authentication on, which is only a repair if the client reads VALKEY_PASSWORD)
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  pw=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].command} {.spec.template.spec.containers[0].args}' |
       sed 's/[]["\,]/ /g' | awk '{for (i=1; i<NF; i++) if ($i=="--requirepass") {print $(i+1); exit}}')
  [ -n "$pw" ] || continue
  for c in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.containers[0].env[*].name}{"\n"}{end}' | awk '/VALKEY_ADDR/ {print $1}'); do
    [ "$c" = "$d" ] && continue
    echo "$c: VALKEY_PASSWORD from $d's --requirepass"
    kubectl set env deploy/"$c" -n "$NS" VALKEY_PASSWORD="$pw"
  done
done
true
