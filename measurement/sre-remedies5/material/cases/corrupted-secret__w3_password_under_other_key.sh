# expect: fail — near miss: write the right password (the server's --requirepass) into the client's Secret, but under a new key `password` (`valkey-password` if that is the file's key); the file the client reads still holds the garbled value.
pw=""
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  v=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].command} {.spec.template.spec.containers[0].args}' |
      sed 's/[]["\,]/ /g' | awk '{for (i=1; i<NF; i++) if ($i=="--requirepass") {print $(i+1); exit}}')
  [ -n "$v" ] && pw="$v"
done
for c in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.containers[0].env[*].name}{"\n"}{end}' | awk '/VALKEY_PASSWORD_FILE/ {print $1}'); do
  f=$(kubectl get deploy "$c" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].env[?(@.name=="VALKEY_PASSWORD_FILE")].value}')
  key=${f##*/}; wk=password; [ "$key" = "password" ] && wk=valkey-password
  for s in $(kubectl get deploy "$c" -n "$NS" -o jsonpath='{.spec.template.spec.volumes[*].secret.secretName}'); do
    kubectl patch secret "$s" -n "$NS" --type=merge -p "{\"stringData\":{\"$wk\":\"${pw:-changeme}\"}}"
  done
done
true
