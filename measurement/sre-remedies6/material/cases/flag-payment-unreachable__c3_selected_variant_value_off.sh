# expect: pass — in the flagd ConfigMap give paymentUnreachable's selected variant the value of its "off" variant, written back with a merge patch of the data key.
flag_variant_off paymentUnreachable
true
