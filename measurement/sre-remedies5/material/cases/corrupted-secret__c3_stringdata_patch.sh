# expect: pass — read the password Valkey runs with (--requirepass, literal or $(VAR) from its env), find the Secret mounted where the client's VALKEY_PASSWORD_FILE points, and write the password back under that file's key with a stringData merge patch.
pw=""
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  v=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].command} {.spec.template.spec.containers[0].args}' |
      sed 's/[]["\,]/ /g' | awk '{for (i=1; i<NF; i++) if ($i=="--requirepass") {print $(i+1); exit}}')
  [ -n "$v" ] || continue
  case "$v" in '$('*')') var=$(echo "$v" | sed 's/^\$(//; s/)$//')
    v=$(kubectl get deploy "$d" -n "$NS" -o jsonpath="{.spec.template.spec.containers[0].env[?(@.name==\"$var\")].value}") ;; esac
  pw="$v"
done
[ -n "$pw" ] || exit 0
for c in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.containers[0].env[*].name}{"\n"}{end}' | awk '/VALKEY_PASSWORD_FILE/ {print $1}'); do
  f=$(kubectl get deploy "$c" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].env[?(@.name=="VALKEY_PASSWORD_FILE")].value}')
  dir=${f%/*}; key=${f##*/}
  vol=$(kubectl get deploy "$c" -n "$NS" -o jsonpath='{range .spec.template.spec.containers[0].volumeMounts[*]}{.name} {.mountPath}{"\n"}{end}' | awk -v f="$f" -v d="$dir" '$2==d || $2==f {print $1; exit}')
  s=$(kubectl get deploy "$c" -n "$NS" -o jsonpath="{.spec.template.spec.volumes[?(@.name==\"$vol\")].secret.secretName}")
  [ -n "$s" ] || continue
  echo "restoring $s/$key from the server's password"
  kubectl patch secret "$s" -n "$NS" --type=merge -p "{\"stringData\":{\"$key\":\"$pw\"}}"
done
true
