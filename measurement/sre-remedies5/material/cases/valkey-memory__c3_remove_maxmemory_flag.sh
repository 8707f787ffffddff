# expect: pass — find the Valkey container started with --maxmemory and remove the flag and its value from its command line (no memory cap: Valkey's default), so writes are accepted again.
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  for f in command args; do
    items=$(kubectl get deploy "$d" -n "$NS" -o jsonpath="{range .spec.template.spec.containers[0].$f[*]}{@}{\"\n\"}{end}")
    i=$(printf '%s\n' "$items" | awk '$0=="--maxmemory" {print NR-1; exit}')
    if [ -n "$i" ]; then
      kubectl patch deploy "$d" -n "$NS" --type=json -p "[{\"op\":\"remove\",\"path\":\"/spec/template/spec/containers/0/$f/$i\"},{\"op\":\"remove\",\"path\":\"/spec/template/spec/containers/0/$f/$i\"}]"
      continue
    fi
    j=$(printf '%s\n' "$items" | awk '/--maxmemory [0-9]/ {print NR-1; exit}')
    [ -n "$j" ] || continue
    new=$(printf '%s\n' "$items" | awk -v j="$j" 'NR-1==j' | sed -E 's/ ?--maxmemory [0-9]+[a-zA-Z]*//')
    kubectl patch deploy "$d" -n "$NS" --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/$f/$j\",\"value\":\"$new\"}]"
  done
done
true
