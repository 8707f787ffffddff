# expect: fail — disables authentication on the datastore instead of restoring the credential: remove --requirepass and its value from Valkey's command line; the garbled Secret stays. (debatable: the cart's commands then succeed, but a security control is removed to hide a broken Secret)
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  for fld in command args; do
    vals=$(kubectl get deploy "$d" -n $NS -o jsonpath="{range .spec.template.spec.containers[0].$fld[*]}{@}{\"\n\"}{end}")
    printf '%s\n' "$vals" | grep -qx -- --requirepass || continue
    new=$(printf '%s\n' "$vals" | awk 'skip{skip=0;next} $0=="--requirepass"{skip=1;next} NF{gsub(/"/,"\\\""); printf "%s\"%s\"", (n++?",":""), $0}')
    kubectl patch deploy "$d" -n $NS --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/$fld\",\"value\":[$new]}]"
  done
done
true
