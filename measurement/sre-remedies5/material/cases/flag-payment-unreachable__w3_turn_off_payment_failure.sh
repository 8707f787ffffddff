# expect: fail — wrong flag: checkout cannot reach payment, the operator turns off paymentFailure (defaultVariant off) instead; paymentUnreachable stays on.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=paymentFailure -v K=defaultVariant -v V=off "$FLAG_SET_AWK")
kubectl create configmap "$cm" -n "$NS" --from-literal="$k=$txt" --dry-run=client -o yaml | kubectl replace -f -
true
