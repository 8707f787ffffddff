# expect: fail — near miss: write the corrected flag file (adHighCpu defaultVariant off) into a NEW ConfigMap `<name>-fixed` and leave the mounted one untouched; flagd still reads the original ConfigMap, so the flag stays on.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=adHighCpu -v K=defaultVariant -v V=off "$FLAG_SET_AWK")
kubectl create configmap "$cm-fixed" -n "$NS" --from-literal="$k=$txt"
true
