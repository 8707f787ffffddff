# expect: pass — set paymentUnreachable's defaultVariant back to off.
flag_edit "f['paymentUnreachable']['defaultVariant']='off'"
true
