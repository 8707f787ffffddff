# expect: fail — near miss that hides under the alert: set the value of paymentFailure's selected variant to 0.01; one charge in a hundred still fails (the flag is still on), only below a 5 % error-rate alert. An SRE does not call failing 1 % of payments on purpose a repair.
cm=$(flag_cm); [ -n "$cm" ] || exit 0
k=$(flag_key "$cm"); txt=$(flag_text "$cm" "$k")
sv=$(printf '%s\n' "$txt" | awk -v F=paymentFailure -v K=defaultVariant "$FLAG_GET_AWK")
[ -n "$sv" ] && [ "$sv" != off ] || exit 0
new=$(printf '%s\n' "$txt" | awk -v F=paymentFailure -v S="$sv" '
  { l=$0
    if (!inb && l ~ ("\"" F "\"[ \t]*:")) inb=1
    if (inb && !done && l ~ ("^[ \t]*\"" S "\"[ \t]*:")) { comma=(l ~ /,[ \t]*$/) ? "," : ""; sub(/:.*$/, ": 0.01" comma, l); done=1 }
    print l }')
flag_write "$cm" "$k" "$new"
true
