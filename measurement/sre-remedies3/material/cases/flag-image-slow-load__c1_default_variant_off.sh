# expect: pass — set imageSlowLoad's defaultVariant back to off.
flag_edit "f['imageSlowLoad']['defaultVariant']='off'"
true
