# expect: pass — set the value of adManualGc's 'on' variant to false, so the variant the flag selects now means off (the accepted 'set the variant's value to off').
flag_edit "
g=f['adManualGc']; dv=g['defaultVariant']
if g['variants'].get(dv) not in (False,0): g['variants'][dv]=False"
true
