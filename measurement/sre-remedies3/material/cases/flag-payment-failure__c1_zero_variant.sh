# expect: pass — set paymentFailure's defaultVariant to its zero-valued variant (found by value, not by name).
flag_edit "
g=f['paymentFailure']; ov=next((k for k,v in g['variants'].items() if v in (False,0) and not isinstance(v,str)), 'off')
g['defaultVariant']=ov"
true
