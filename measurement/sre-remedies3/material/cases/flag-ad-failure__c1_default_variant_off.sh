# expect: pass — set adFailure's defaultVariant back to off in flagd-config.
flag_edit "f['adFailure']['defaultVariant']='off'"
true
