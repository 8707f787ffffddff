# expect: pass — same diagnosis; rebuild the Secret with kubectl create --dry-run and `kubectl replace` it whole, holding the password Valkey runs with under the key the client reads.
pw=""
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  v=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].command[*]} {.spec.template.spec.containers[0].args[*]}' |
      awk '{for(i=1;i<NF;i++) if($i=="--requirepass"){print $(i+1); exit}}')
  case "$v" in
    '$('*) n=$(printf '%s' "$v" | sed -E 's/^\$\((.*)\)$/\1/')
           v=$(kubectl get deploy "$d" -n $NS -o jsonpath="{.spec.template.spec.containers[0].env[?(@.name==\"$n\")].value}") ;;
  esac
  [ -n "$v" ] && pw="$v"
done
[ -n "$pw" ] || { true; exit 0; }
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  f=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[*].env[?(@.name=="VALKEY_PASSWORD_FILE")].value}')
  [ -n "$f" ] || continue
  for s in $(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.volumes[*].secret.secretName}'); do
    key=$(basename "$f")
    kubectl get secret "$s" -n $NS -o go-template='{{range $k,$v := .data}}{{$k}}{{"\n"}}{{end}}' | grep -qx "$key" ||
      key=$(kubectl get secret "$s" -n $NS -o go-template='{{range $k,$v := .data}}{{$k}}{{"\n"}}{{end}}' | head -1)
    kubectl create secret generic "$s" -n $NS --from-literal="$key=$pw" --dry-run=client -o yaml | kubectl replace -f -
  done
done
true
