# expect: pass — set adManualGc's state to DISABLED in the flagd ConfigMap (flagd serves the code default, no manual GC), written back with a merge patch of the data key.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
flag_write "$cm" "$k" "$(flag_text "$cm" "$k" | awk -v F=adManualGc -v K=state -v V=DISABLED "$FLAG_SET_AWK")"
true
