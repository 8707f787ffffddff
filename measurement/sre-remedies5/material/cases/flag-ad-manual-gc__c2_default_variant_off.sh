# expect: pass — set adManualGc's defaultVariant back to off in the flagd ConfigMap and kubectl replace it.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=adManualGc -v K=defaultVariant -v V=off "$FLAG_SET_AWK")
kubectl create configmap "$cm" -n "$NS" --from-literal="$k=$txt" --dry-run=client -o yaml | kubectl replace -f -
true
