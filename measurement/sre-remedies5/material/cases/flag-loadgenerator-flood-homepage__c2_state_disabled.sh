# expect: pass — set loadgeneratorFloodHomepage's state to DISABLED in the flagd ConfigMap (the load generator's code default is no flood) and kubectl replace it.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=loadgeneratorFloodHomepage -v K=state -v V=DISABLED "$FLAG_SET_AWK")
kubectl create configmap "$cm" -n "$NS" --from-literal="$k=$txt" --dry-run=client -o yaml | kubectl replace -f -
true
