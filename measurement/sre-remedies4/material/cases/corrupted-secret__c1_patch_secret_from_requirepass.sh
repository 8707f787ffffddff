# expect: pass — read the password Valkey is started with (--requirepass in its command line), find the Secret the client mounts for VALKEY_PASSWORD_FILE, and write that password back under the key the client reads (data, base64).
pw=""
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  line=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].command[*]} {.spec.template.spec.containers[0].args[*]}')
  v=$(printf '%s\n' "$line" | awk '{for(i=1;i<NF;i++) if($i=="--requirepass"){print $(i+1); exit}}')
  case "$v" in
    '$('*) n=$(printf '%s' "$v" | sed -E 's/^\$\((.*)\)$/\1/')
           v=$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[0].env[?(@.name==\"$n\")].value}") ;;
  esac
  [ -n "$v" ] && pw="$v"
done
[ -n "$pw" ] || { echo "no --requirepass found"; true; exit 0; }
b64=$(printf '%s' "$pw" | base64 | tr -d '\n')
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  f=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[*].env[?(@.name=="VALKEY_PASSWORD_FILE")].value}')
  [ -n "$f" ] || continue
  key=$(basename "$f")
  for s in $(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.volumes[*].secret.secretName}'); do
    keys=$(kubectl get secret "$s" -n $NS -o go-template='{{range $k,$v := .data}}{{$k}}{{"\n"}}{{end}}')
    printf '%s\n' "$keys" | grep -qx "$key" || key=$(printf '%s\n' "$keys" | head -1)
    kubectl patch secret "$s" -n $NS --type=merge -p "{\"data\":{\"$key\":\"$b64\"}}"
  done
done
true
