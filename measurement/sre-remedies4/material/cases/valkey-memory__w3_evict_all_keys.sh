# expect: fail — data loss: keep the small maxmemory and switch the eviction policy to allkeys-lru, so Valkey makes room by evicting users' carts. (debatable: the write errors stop)
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  for fld in command args; do
    vals=$(kubectl get deploy "$d" -n $NS -o jsonpath="{range .spec.template.spec.containers[0].$fld[*]}{@}{\"\n\"}{end}")
    printf '%s\n' "$vals" | grep -qx -- --maxmemory || continue
    new=$(printf '%s\n' "$vals" | awk 'skip{skip=0;next} $0=="--maxmemory-policy"{skip=1;next} NF{gsub(/"/,"\\\""); printf "%s\"%s\"", (n++?",":""), $0} END{printf ",\"--maxmemory-policy\",\"allkeys-lru\""}')
    kubectl patch deploy "$d" -n $NS --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/$fld\",\"value\":[$new]}]"
  done
done
true
