# expect: pass — in the flagd ConfigMap set paymentUnreachable's state to DISABLED (flagd then serves the code default, off), written back with a merge patch of the data key (labels kept).
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=paymentUnreachable -v K=state -v V=DISABLED "$FLAG_SET_AWK")
esc=$(printf '%s\n' "$txt" | awk '{gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); printf "%s\\n", $0}')
kubectl patch cm "$cm" -n "$NS" --type=merge -p "{\"data\":{\"$k\":\"$esc\"}}"
true
