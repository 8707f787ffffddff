# expect: fail — near miss: lower cartFailure from its failing share to the 10% variant; one cart request in ten still fails (above a 5% error alert).
flag_edit "
g=f['cartFailure']
if '10%' in g['variants']: g['defaultVariant']='10%'"
true
