# expect: pass — set recommendationCacheFailure's defaultVariant to off in the flagd ConfigMap, written back with a merge patch of the data key.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=recommendationCacheFailure -v K=defaultVariant -v V=off "$FLAG_SET_AWK")
esc=$(printf '%s\n' "$txt" | awk '{gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); printf "%s\\n", $0}')
kubectl patch cm "$cm" -n "$NS" --type=merge -p "{\"data\":{\"$k\":\"$esc\"}}"
true
