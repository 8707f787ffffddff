# expect: pass — set paymentFailure's state to DISABLED in the flagd ConfigMap (flagd serves the code default, 0 %), written back with a merge patch of the data key.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=paymentFailure -v K=state -v V=DISABLED "$FLAG_SET_AWK")
esc=$(printf '%s\n' "$txt" | awk '{gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); printf "%s\\n", $0}')
kubectl patch cm "$cm" -n "$NS" --type=merge -p "{\"data\":{\"$k\":\"$esc\"}}"
true
