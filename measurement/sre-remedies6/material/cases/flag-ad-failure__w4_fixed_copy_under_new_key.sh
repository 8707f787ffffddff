# expect: fail — near miss: add the corrected flag file (adFailure defaultVariant off) to the flagd ConfigMap under a NEW data key (`<key>.fixed`), leaving the key flagd reads as it was; the flag is still served on.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm")
txt=$(flag_text "$cm" "$k" | awk -v F=adFailure -v K=defaultVariant -v V=off "$FLAG_SET_AWK")
flag_write "$cm" "$k.fixed" "$txt"
true
