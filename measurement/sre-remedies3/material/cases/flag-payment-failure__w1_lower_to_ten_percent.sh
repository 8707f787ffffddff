# expect: fail — near miss: lower paymentFailure to the 10% variant; one charge in ten still fails.
flag_edit "
g=f['paymentFailure']
if '10%' in g['variants']: g['defaultVariant']='10%'"
true
