# expect: pass — in the flagd ConfigMap give paymentFailure's selected share variant (its defaultVariant) the value of its "off" variant (0), written back with a merge patch of the data key.
flag_variant_off paymentFailure
true
