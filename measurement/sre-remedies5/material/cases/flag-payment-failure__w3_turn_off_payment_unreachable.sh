# expect: fail — wrong flag: payment's charges fail, the operator turns off paymentUnreachable (defaultVariant off) instead; paymentFailure stays at its failing share.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=paymentUnreachable -v K=defaultVariant -v V=off "$FLAG_SET_AWK")
kubectl create configmap "$cm" -n "$NS" --from-literal="$k=$txt" --dry-run=client -o yaml | kubectl replace -f -
true
