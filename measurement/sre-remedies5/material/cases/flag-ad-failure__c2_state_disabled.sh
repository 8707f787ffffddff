# expect: pass — set adFailure's state to DISABLED in the flagd ConfigMap (flagd serves the code default, off) and kubectl replace the ConfigMap.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=adFailure -v K=state -v V=DISABLED "$FLAG_SET_AWK")
kubectl create configmap "$cm" -n "$NS" --from-literal="$k=$txt" --dry-run=client -o yaml | kubectl replace -f -
true
